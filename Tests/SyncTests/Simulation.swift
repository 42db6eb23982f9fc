import Foundation
import Networking
import PracticeServer
import Sync
import Synchronization
import Workbook
import WorkbookTesting

/// Three devices editing the same notes against the sync server over a chaotic network, each
/// syncing through the app's scheduler, with crashes, relaunches, garbled files and time offline,
/// every choice drawn from one seed; then the network heals and every device syncs until its
/// outbox is empty. After every step and at the end it says which promise broke, if one did.
///
/// The steps run one at a time (a device's call, and its scheduler's syncs, end before the next
/// step starts; an edit "during" a request runs at the transport's seam, between the request
/// leaving the engine and reaching the server), so the same seed is the same history on every run
/// and every machine of one platform. (Across platforms a
/// lost connection reads as `URLSession` reports it there, see `ChaosNetwork.droppedConnection`:
/// chapter 3's policy retries Apple's "connection lost" and not Linux's "bad server response", so
/// a seed's history may differ between macOS and Linux.)
struct Simulation {
  static let devices = ["A", "B", "C"]
  static let notes = ["n1", "n2", "n3", "n4"]

  /// What a failed run found, with the steps that led there.
  struct Failure: Error, CustomStringConvertible {
    var seed: UInt64
    var steps: Int
    var problems: [String]
    var history: String

    var description: String {
      "SEED=\(seed) (\(steps) steps) breaks these promises:\n"
        + problems.map { "  - \($0)" }.joined(separator: "\n") + "\nThe history:\n" + history
    }
  }

  /// How a device's push retries within one sync: three attempts, 10 ms and then 20 ms apart on the
  /// history's clock; no jitter, so a history replays exactly. The waits are short so that an engine
  /// that sleeps on the wall clock instead (mutant 94, which its own test catches) still ends in
  /// about the time a right one takes.
  static let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10), maxDelay: .milliseconds(80), jitter: .none)
  /// Each device's batch size and page size as its app sets them, and as the engine must hold them
  /// to what the server takes (a batch of 1 to 100 edits, a page of 1 to 500 changes). A's are
  /// small, so that a sync of a few edits already takes several requests of each; B's ask for
  /// nothing and must be held to 1; C's ask for more than the server takes and must be held to its
  /// limits.
  static let sizes: [String: (batch: Int, page: Int)] = ["A": (3, 2), "B": (0, 0), "C": (101, 501)]
  static let sizesHeld: [String: (batch: Int, page: Int)] = ["A": (3, 2), "B": (1, 1), "C": (100, 500)]
  /// Whether `device`'s engine reaches the network through `URLSessionSyncTransport` (over
  /// `URLSessionLink`), as the app's does, rather than calling its link directly: device C's, in
  /// every fourth history. A request through `URLSession` costs about 0.3 ms more, so a quarter of
  /// the histories (about 1,000 requests) keep the test near the time the direct link takes.
  static func throughURLSession(_ device: String, seed: UInt64) -> Bool { device == "C" && seed % 4 == 0 }

  /// How a device's scheduler backs off while its syncs fail: 1 s before the first retry, doubling
  /// up to 8 s, full jitter drawn as 0.5, so every wait is half the policy's delay and the test can
  /// name it.
  static let schedulerPolicy = RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(8), jitter: .full)

  /// The server's cap on a value in these histories: 48 bytes, under the protocol's 4096 that the
  /// app checks, as a server that tightened a limit after the app shipped would hold it. An edit
  /// past it is refused for good (413), and the device must set it aside, never lose it.
  static let serverValueCap = 48

  /// The value `device` types at `step`: its name and the step, so every edit is told apart; at
  /// two steps in sixteen past the server's cap (the server refuses it), at one past the
  /// protocol's 4096 bytes (the device must refuse it before it queues it).
  static func value(_ device: String, _ step: Int) -> String {
    let plain = "\(device)\(step)"
    switch step % 16 {
    case 3, 11: return plain + String(repeating: "-", count: serverValueCap)
    case 7: return plain + String(repeating: ".", count: EditLimits.maximumValueBytes)
    default: return plain
    }
  }

  /// `value` as the history prints it: a long one by its start and its size.
  static func shown(_ value: String) -> String {
    value.utf8.count <= 16 ? value : "\(value.prefix(6))… (\(value.utf8.count) bytes)"
  }
  static let schedulerDraw = 0.5

  private final class Device {
    let name: String
    let folder: URL
    let time: ManualClock
    let network: ChaosNetwork
    var disk = MemoryDisk()
    var engine: SyncEngine
    /// The app's scheduler, which runs the engine's syncs; it knows whether the device is online.
    var scheduler: SyncScheduler<SimulatedClock>
    /// The syncs the scheduler ran, and the waits it asked its clock for between them.
    var runs = RunLog()
    var waits = SleepLog()
    /// How many of the scheduler's syncs failed in a row, as far as the test can tell: one count,
    /// unless a cancel left it open whether the scheduler counts on or starts again from 0 (and,
    /// after a cancel while a request was on its way, whether it counted that run's failure).
    var failuresInARow: [Int] = [0]
    /// Whether a sync was asked for while the device was offline (it is due when the network
    /// comes back).
    var askedOffline = false
    /// The notes whose edits the device's last judged sync left because each round met a 412.
    var heldBack = Set<String>()
    var online = true
    /// The device's clock: the history's time, a second later at every reading, unless the user
    /// sets it back.
    let clock: DeviceClock

    /// Whether its engine sends through `URLSession` (`Simulation.throughURLSession`).
    let viaURLSession: Bool

    init(name: String, folder: URL, network: ChaosNetwork, time: ManualClock, viaURLSession: Bool) throws(SyncError) {
      self.name = name
      self.folder = folder
      self.time = time
      self.network = network
      clock = DeviceClock(time: time)
      self.viaURLSession = viaURLSession
      (engine, scheduler) = try Self.open(
        name, folder, network: network, disk: disk, time: time, clock: clock, runs: runs, waits: waits, online: true,
        viaURLSession: viaURLSession)
    }

    /// A relaunch after a crash: whatever the process held in memory is gone; the disk is read again.
    func relaunch() throws(SyncError) {
      disk = disk.relaunched()
      let (runs, waits) = (RunLog(), SleepLog())
      (engine, scheduler) = try Self.open(
        name, folder, network: network, disk: disk, time: time, clock: clock, runs: runs, waits: waits, online: online,
        viaURLSession: viaURLSession)
      (self.runs, self.waits, failuresInARow, askedOffline) = (runs, waits, [0], false)
    }

    private static func open(
      _ name: String, _ folder: URL, network: ChaosNetwork, disk: MemoryDisk, time: ManualClock, clock: DeviceClock, runs: RunLog,
      waits: SleepLog, online: Bool, viaURLSession: Bool
    ) throws(SyncError) -> (SyncEngine, SyncScheduler<SimulatedClock>) {
      let link = network.link(for: name)
      let transport: any SyncTransport = viaURLSession ? URLSessionLink(link) : link
      let engine = try SyncEngine(
        directory: folder, transport: transport, baseURL: InProcessServer.baseURL, fileSystem: disk,
        policy: Simulation.policy, clock: SimulatedClock(time: time), batchSize: Simulation.sizes[name]?.batch ?? 1,
        pageSize: Simulation.sizes[name]?.page ?? 1,
        now: clock.now)
      network.watchOutbox(of: name) { await engine.pending }
      let scheduler = SyncScheduler(
        clock: SimulatedClock(time: time, waits: waits), policy: Simulation.schedulerPolicy, random: .constant(Simulation.schedulerDraw),
        online: online
      ) { () async throws -> Void in
        try await runs.run { () async -> SyncRun? in
          network.ranAway ? nil : await SyncRun.perform(name, engine: engine, disk: disk, network: network, time: time)
        }
      }
      return (engine, scheduler)
    }

    /// The edits waiting in the outbox and the notes on the screen.
    func state() async -> (pending: [Mutation], shown: [String: NoteRecord]) {
      (await engine.pending, await engine.notes())
    }
  }

  /// Runs `steps` steps of the history `seed` makes; nil when everything agrees at the end and
  /// nothing went wrong on the way. A history stops at the first step that breaks a promise.
  static func run(seed: UInt64, steps: Int) async throws -> Failure? {
    let folder = URL(fileURLWithPath: "/simulated")
    let history = History()
    let network = ChaosNetwork(seed: seed, server: SyncService(maximumValueBytes: serverValueCap), history: history)
    let time = ManualClock()
    var devices: [Device] = []
    for name in Self.devices {
      devices.append(
        try Device(
          name: name, folder: folder.appendingPathComponent(name), network: network, time: time,
          viaURLSession: throughURLSession(name, seed: seed)))
    }
    /// The last edit each device made of each note's field (and the last delete of each note) that
    /// `edit`/`delete` acknowledged: it stays in the outbox until the server applies it (with its
    /// value), unless the note is deleted.
    var acknowledged: [String: Acknowledged] = [:]
    /// Every mutation id any outbox ever held: the server applies no other, and each at most once.
    var made = Set<String>()
    /// The ids of each device's edits and deletes, in the order the user made them.
    var madeInOrder: [String: [(id: String, note: String)]] = [:]
    /// The version each edit or delete was made on, by id, for the edits made on a version above 0:
    /// the note existed on the server, so none of them may be applied as a note's first version.
    var madeOnAVersion: [String: (device: String, note: String, base: Int)] = [:]
    /// Every note whose tombstone the server collected: deleted, though the server no longer says so.
    var collected = Set<String>()
    /// A new mutation that `device`'s call at `step` put at the end of its outbox: it is made on
    /// the version the device held of its note (0 for one it never saw), and carries the time the
    /// device's clock gave, to the millisecond.
    func newMutation(of device: Device, before: [Mutation], after: [Mutation], heldVersion: Int, readAt: Date?, step: Int) {
      made.formUnion(after.map(\.id))
      let old = Set(before.map(\.id))
      guard let new = after.last, !old.contains(new.id) else { return }
      madeInOrder[device.name, default: []].append((new.id, new.note))
      if new.base > 0 { madeOnAVersion[new.id] = (device.name, new.note, new.base) }
      if new.base != heldVersion {
        problems.append(
          "step \(step): \(device.name)'s new edit of \(new.note) is made on v\(new.base), but the device holds v\(heldVersion) of it (0: never seen): the server reads the base as the version the user saw"
        )
      }
      // The file and the wire keep whole milliseconds: the reading rounded to the nearest one.
      let milliseconds = { (date: Date) in Int64((date.timeIntervalSince1970 * 1_000).rounded()) }
      if let readAt, milliseconds(new.editedAt) != milliseconds(readAt) {
        problems.append(
          "step \(step): \(device.name)'s new edit of \(new.note) carries the time \(milliseconds(new.editedAt)) ms since 1970, but the clock the engine was given read \(readAt.timeIntervalSince1970) s, \(milliseconds(readAt)) ms to the nearest millisecond"
        )
      }
    }
    /// The highest version of each note each device has confirmed so far: it never goes down.
    var versions: [String: [String: Int]] = [:]
    /// The notes each device had confirmed and showed at the end of the last step.
    var onScreen: [String: Set<String>] = [:]
    var problems: [String] = []
    var ledger = WireLedger(sizes: sizesHeld, maxAttempts: policy.maxAttempts)
    func failure(_ steps: Int) -> Failure {
      Failure(seed: seed, steps: steps, problems: problems, history: history.text)
    }

    /// `device` sets `set` on `note` at `step`, and what must hold after it: a returned edit is on
    /// the screen (unless a delete wins), leaves the rest of the note as it was and wrote the outbox
    /// once; a failed one was refused by the disk and changed neither the outbox nor the screen.
    func judge(_ outcome: EditOutcome, of device: Device, _ note: String, set: [String: String], value: String, step: Int) {
      let names = set.keys.sorted()
      let (before, after) = (outcome.before, outcome.after)
      let overLimit = value.utf8.count > EditLimits.maximumValueBytes
      if case .invalidEdit = outcome.error, overLimit {
        history.add("    \(device.name): the edit is refused: \(value.utf8.count) bytes is past the protocol's limit")
        problems += unchanged(device, before: before, after: after, what: "its edit was refused as past a limit", step: step)
        return
      }
      if overLimit {
        problems.append(
          "step \(step): \(device.name)'s edit set a value of \(value.utf8.count) bytes, past the protocol's \(EditLimits.maximumValueBytes), and \(outcome.error.map { "failed with \($0)" } ?? "was taken"): it should throw .invalidEdit before it is queued"
        )
        return
      }
      if let error = outcome.error {
        history.add("    \(device.name): the edit failed: \(error)")
        problems += unchanged(device, before: before, after: after, what: "its edit failed (\(error))", step: step)
        if !outcome.refused {
          problems.append("step \(step): \(device.name)'s edit failed although its disk refused no write: \(error)")
        }
        return
      }
      problems += writes(of: device, outcome.writes, by: "edit", step: step)
      newMutation(of: device, before: before.pending, after: after.pending, heldVersion: outcome.heldVersion, readAt: outcome.readAt, step: step)
      if let last = after.pending.last, last.note == note {
        for field in names where last.set[field] == value {
          acknowledged["\(device.name) \(note).\(field)"] = Acknowledged(device: device.name, id: last.id, note: note, field: field, value: value)
        }
      }
      for field in names where !outcome.hidden && after.shown[note]?.fields[field] != value {
        problems.append(
          "step \(step): \(device.name)'s edit returned, so its screen should show \(note).\(field) = \(value); it shows \(after.shown[note].map { describe($0.fields) } ?? "no \(note)")"
        )
      }
      let untouched = (before.shown[note]?.fields ?? [:]).filter { set[$0.key] == nil }
      if !outcome.hidden, let shown = after.shown[note], shown.fields.filter({ set[$0.key] == nil }) != untouched {
        problems.append(
          "step \(step): \(device.name)'s edit set only \(names.joined(separator: ", ")) of \(note), yet the rest of it changed on the screen: \(describe(untouched)) before, \(describe(shown.fields.filter { set[$0.key] == nil })) after"
        )
      }
    }

    func edit(_ device: Device, _ note: String, set: [String: String], value: String, step: Int) async {
      history.add("\(step). \(device.name) sets \(set.keys.sorted().map { "\(note).\($0)" }.joined(separator: ", ")) = \(shown(value))")
      let outcome = await EditOutcome.edit(note, set: set, on: device.engine, disk: device.disk, clock: device.clock)
      judge(outcome, of: device, note, set: set, value: value, step: step)
    }

    for step in 1...max(steps, 1) {
      let device = devices[network.draw(devices.count)]
      let note = notes[network.draw(notes.count)]
      let roll = network.draw(100)
      let before = await device.state()
      let refusedBefore = device.disk.refusedWrites
      switch roll {
      case 0..<34:
        // Device C is a newer app that also writes a field the others do not know. One edit in
        // three sets two fields at once.
        var fields = device.name == "C" ? ["title", "body", "color"] : ["title", "body"]
        var set: [String: String] = [:]
        let value = Self.value(device.name, step)
        for _ in 0..<(network.draw(3) == 0 ? 2 : 1) { set[fields.remove(at: network.draw(fields.count))] = value }
        await edit(device, note, set: set, value: value, step: step)
      case 34..<40:
        history.add("\(step). \(device.name) deletes \(note)")
        do {
          let writesBefore = (outbox: device.disk.writes(to: "outbox.json"), notes: device.disk.writes(to: "notes.json"))
          let held = await device.engine.confirmed[note]?.version ?? 0
          try await device.engine.delete(note)
          let after = await device.state()
          problems += writes(
            of: device,
            (device.disk.writes(to: "outbox.json") - writesBefore.outbox, device.disk.writes(to: "notes.json") - writesBefore.notes), by: "delete",
            step: step)
          newMutation(of: device, before: before.pending, after: after.pending, heldVersion: held, readAt: device.clock.lastReading, step: step)
          if let last = after.pending.last, last.note == note, last.delete {
            acknowledged["\(device.name) \(note) delete"] = Acknowledged(device: device.name, id: last.id, note: note, field: nil, value: nil)
          }
          if let shown = after.shown[note] {
            problems.append("step \(step): \(device.name)'s delete of \(note) returned, yet its screen still shows \(describe(shown.fields))")
          }
        } catch {
          history.add("    \(device.name): the delete failed: \(error)")
          problems += unchanged(device, before: before, after: await device.state(), what: "its delete failed (\(error))", step: step)
          if device.disk.refusedWrites == refusedBefore {
            problems.append("step \(step): \(device.name)'s delete failed although its disk refused no write: \(error)")
          }
        }
      case 60..<66:
        // The user taps while a request is on its way: the edit enters the engine between the
        // request's send and its answer, and the app asks for a sync again, twice (once for the
        // edit, once for a push notification). During a push the user goes on typing in the note
        // being pushed (in one field of its widest edit); during the pulls, in a note the pages on
        // their way bring newer, one field while the first page is on its way and the other while
        // the second is, so the first edit is made on the older version and the second on the newer.
        let push = network.draw(2) == 0
        let value = "\(device.name)\(step)"
        let fields = network.draw(2) == 0 ? ["title", "body"] : ["body", "title"]
        history.add(
          "\(step). \(device.name) syncs; while its first \(push ? "push is on its way, the user edits the note being pushed" : "two pulls are on their way, the user edits a note they bring newer") (= \(value))"
        )
        let during = InFlight()
        let (engine, disk, clock, scheduler, server, runs) = (
          device.engine, device.disk, device.clock, device.scheduler, network.server, device.runs
        )
        let name = device.name
        @Sendable func interruption(_ count: Int) -> ChaosNetwork.Interruption {
          ChaosNetwork.Interruption(push: push) { @Sendable [network] request in
            var target = (note: note, field: fields[count % 2])
            if push, let body = request.httpBody,
              let widest = try? SyncJSON.decoder().decode(PushBody.self, from: body).mutations.max(by: { $0.set.count < $1.set.count })
            {
              target = (widest.note, widest.set.keys.sorted().first ?? "title")
            } else if !push {
              let held = await engine.confirmed
              let newer = server.notes.filter { !$0.deleted && $0.version > held[$0.id]?.version ?? 0 }.map(\.id).sorted()
              target.note = during.edits.first?.note ?? newer.first ?? note
            }
            let outcome = await EditOutcome.edit(target.note, set: [target.field: value], on: engine, disk: disk, clock: clock)
            during.add((target.note, target.field, outcome))
            if !push, count == 0 { network.interrupt(name, with: interruption(1)) }
            during.asked(duringRun: runs.count)
            await scheduler.trigger()
            await scheduler.trigger()
          }
        }
        network.interrupt(device.name, with: interruption(0))
        problems += await scheduled(device, askedDuring: during, ledger: &ledger, history: history, step: step)
        network.interrupt(device.name, with: nil)
        if during.edits.isEmpty { history.add("    no \(push ? "push" : "pull") went out: the user did not edit") }
        for (note, field, outcome) in during.edits {
          history.add("    on the way, the user set \(note).\(field) = \(value)")
          judge(outcome, of: device, note, set: [field: value], value: value, step: step)
        }
      case 56..<60:
        let mark = CancelMark()
        let (scheduler, runs) = (device.scheduler, device.runs)
        if network.draw(2) == 0 {
          history.add(
            "\(step). \(device.name) syncs in the background; if a sync fails, the app's time runs out during the wait and it cancels the scheduler")
          device.waits.atNextWait { @Sendable in
            mark.runsBefore = runs.count
            await scheduler.cancel()
          }
        } else {
          // The background task's time runs out while a request is on its way, as it mostly does:
          // the system cancels the request, and the sync must say it was cancelled.
          let push = !before.pending.isEmpty
          history.add(
            "\(step). \(device.name) syncs in the background; the app's time runs out while its first \(push ? "push" : "pull") is on its way, and it cancels the scheduler"
          )
          network.interrupt(
            device.name,
            with: ChaosNetwork.Interruption(push: push) { @Sendable _ in
              mark.runsBefore = runs.count + 1
              mark.duringRequest = true
              await scheduler.cancel()
            })
        }
        problems += await scheduled(device, cancel: mark, ledger: &ledger, history: history, step: step)
        device.waits.atNextWait(nil)
        network.interrupt(device.name, with: nil)
      case 40..<42:
        let changes = SyncEngine.maximumPushRounds + 2
        history.add(
          "\(step). \(device.name) syncs; the web app changes the note \(device.name) pushes just before each of its next \(changes) pushes reach the server"
        )
        let rival = RivalWriter(changes: changes, before: device.name, on: network)
        network.interrupt(device.name, with: rival.interruption())
        problems += await scheduled(device, ledger: &ledger, history: history, step: step)
        network.interrupt(device.name, with: nil)
        made.formUnion(rival.ids)
      case 42..<56:
        history.add("\(step). \(device.name) syncs\(device.online ? "" : " (offline: the request waits for the network)")")
        if !device.online { device.askedOffline = true }
        problems += await scheduled(device, ledger: &ledger, history: history, step: step)
      case 66..<68:
        let file = network.draw(2) == 0 ? "outbox.json" : "notes.json"
        history.add("\(step). \(device.name)'s \(file) is garbled on disk and the app relaunches; then the file is repaired and it relaunches again")
        problems += await garbled(device, file: file, network: network, collected: collected, step: step)
        ledger.forget(device.name)
      case 68..<76:
        device.online.toggle()
        network.setOnline(device.name, device.online)
        if device.online {
          let minutes = 1 + network.draw(120)
          move(time, by: .seconds(60 * minutes))
          history.add("\(step). \(device.name) comes back online, \(minutes) minutes later\(device.askedOffline ? ", with a sync asked for" : "")")
          // Half the time the server collected its tombstones while the device was away: the
          // device's token now predates the horizon, and it may hold edits of the notes collected.
          if network.draw(2) == 0 {
            let gone = network.server.collectTombstones()
            collected.formUnion(gone)
            history.add("    while \(device.name) was away, the server collected its tombstones (\(gone.isEmpty ? "none held" : gone.joined(separator: ", ")))")
          }
        } else {
          history.add("\(step). \(device.name) goes offline")
        }
        await device.scheduler.setOnline(device.online)
        if device.online {
          problems += await scheduled(device, ask: false, due: device.askedOffline, ledger: &ledger, history: history, step: step)
          device.askedOffline = false
        }
      case 76..<84:
        let writes = network.draw(4)
        history.add("\(step). \(device.name) crashes after \(writes) more writes, during a sync, and relaunches")
        device.disk.writesBeforeCrash = writes
        problems += await sync(device, network: network, ledger: &ledger, history: history, step: step).problems
        problems += await relaunch(device, network: network, waiting: before.pending, collected: collected, step: step)
        ledger.forget(device.name)
      case 84..<88:
        let writes = 1 + network.draw(3)
        history.add("\(step). \(device.name)'s disk is full for its next \(writes) writes; it syncs, then edits")
        device.disk.fullForWrites = writes
        problems += await sync(device, network: network, ledger: &ledger, history: history, step: step).problems
        await edit(device, note, set: ["body": "\(device.name)\(step)"], value: "\(device.name)\(step)", step: step)
        device.disk.fullForWrites = 0
      case 88..<91:
        history.add("\(step). \(device.name)'s clock is set back an hour")
        device.clock.setBack(hours: 1)
      case 91..<94:
        history.add("\(step). the network delivers a late copy")
        network.deliverOneLate()
      case 94..<96:
        history.add("\(step). a stale cache will answer \(device.name)'s next pull with the last page it got; \(device.name) syncs")
        network.serveStalePage(to: device.name)
        problems += await scheduled(device, ledger: &ledger, history: history, step: step)
      default:
        network.server.expireTokens()
        guard network.draw(2) == 0 else {
          history.add("\(step). the server forgets every change token (410 from now on)")
          break
        }
        // A server compacting its history as fast as a device reads it: the device starts over
        // after its 410 and meets another at its next page; it starts over once, not forever.
        history.add(
          "\(step). the server forgets every change token, and again while \(device.name)'s next page after a pull from the beginning is on its way; \(device.name) syncs"
        )
        let name = device.name
        @Sendable func forgetAgain(afterRestart: Bool) -> ChaosNetwork.Interruption {
          ChaosNetwork.Interruption(push: false) { @Sendable [network] request in
            guard !afterRestart else {
              network.history.add("    the server forgets every change token again")
              network.server.expireTokens()
              return
            }
            let query = request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }?.queryItems ?? []
            network.interrupt(name, with: forgetAgain(afterRestart: !query.contains { $0.name == "since" }))
          }
        }
        network.interrupt(device.name, with: forgetAgain(afterRestart: false))
        problems += await scheduled(device, ledger: &ledger, history: history, step: step)
        network.interrupt(device.name, with: nil)
      }
      for other in devices {
        problems += await shape(of: other, step: step, versions: &versions)
        problems += await stillShown(other, since: &onScreen, server: network.server, collected: collected, step: step)
        problems += await kept(
          acknowledged.values.filter { $0.device == other.name }, by: other, server: network.server, collected: collected, step: step)
        problems += inOrder(madeInOrder[other.name, default: []], by: other, server: network.server, step: step)
      }
      problems += neverBroughtBack(madeOnAVersion, server: network.server, step: step)
      if !problems.isEmpty { return failure(step) }
    }

    // The network heals: every device online, no more faults, every late copy delivered; every
    // app is relaunched from its disk, as after a night in the background.
    history.add("heal: every device online, no faults, late copies delivered, each app relaunched; each device syncs twice")
    network.chaotic = false
    network.deliverAllLate()
    for device in devices {
      device.online = true
      network.setOnline(device.name, true)
      let waiting = await device.engine.pending
      problems += await relaunch(device, network: network, waiting: waiting, collected: collected, step: steps + 1)
      ledger.forget(device.name)
    }
    if !problems.isEmpty { return failure(steps) }
    for round in 1...2 {
      for device in devices {
        let outcome = await sync(device, network: network, ledger: &ledger, history: history, step: steps + round)
        problems += outcome.problems
        if let error = outcome.error { problems.append("\(device.name)'s sync \(round) after the heal failed: \(error)") }
      }
    }
    problems += await check(devices, server: network.server, acknowledged: acknowledged, collected: collected)
    problems += neverBroughtBack(madeOnAVersion, server: network.server, step: steps + 2)
    if network.server.appliedCount > made.count {
      problems.append(
        "the server applied \(network.server.appliedCount) mutations, but the outboxes only ever held \(made.count) different ids: an edit went out under more than one id"
      )
    }
    if network.ranAway {
      problems.insert(
        "the devices sent more than \(ChaosNetwork.requestLimit) requests in \(steps) steps (a few hundred is usual): a pull or a push that never ends?",
        at: 0)
    }
    return problems.isEmpty ? nil : failure(steps)
  }

  /// What must hold after a call failed: the outbox and the screen are as they were before it.
  private static func unchanged(
    _ device: Device, before: (pending: [Mutation], shown: [String: NoteRecord]), after now: (pending: [Mutation], shown: [String: NoteRecord]),
    what: String, step: Int
  ) -> [String] {
    var problems: [String] = []
    if now.pending != before.pending {
      problems.append(
        "step \(step): \(device.name)'s outbox changed although \(what): \(before.pending.count) edits before, \(now.pending.count) now")
    }
    if now.shown.mapValues(\.fields) != before.shown.mapValues(\.fields) {
      problems.append(
        "step \(step): \(device.name)'s screen changed although \(what): \(describe(before.shown.mapValues(\.fields))) before, \(describe(now.shown.mapValues(\.fields))) now"
      )
    }
    return problems
  }

  /// Relaunches `device` from its disk and says what went wrong: the app could not open its files;
  /// it finds an outbox or a confirmed copy other than the one it held in memory when it died (so
  /// what it showed was not on disk); or an edit that waited in its outbox before the step is
  /// neither there nor applied by the server nor set aside as refused (nor dropped because the
  /// server deleted its note).
  private static func relaunch(_ device: Device, network: ChaosNetwork, waiting: [Mutation], collected: Set<String>, step: Int) async -> [String] {
    let held = (pending: await device.engine.pending, confirmed: await device.engine.confirmed)
    do {
      try device.relaunch()
    } catch {
      return ["step \(step): \(device.name) could not relaunch from its disk: \(error)"]
    }
    var problems: [String] = []
    let found = (pending: await device.engine.pending, confirmed: await device.engine.confirmed)
    if found.pending != held.pending {
      problems.append(
        "step \(step): \(device.name) held \(held.pending.count) unsent edits \(held.pending.map { "\($0.note)@\($0.base)" }) when it died, and finds \(found.pending.count) \(found.pending.map { "\($0.note)@\($0.base)" }) on its disk after the relaunch"
      )
    }
    let changed = Set(held.confirmed.keys).union(found.confirmed.keys).filter { held.confirmed[$0] != found.confirmed[$0] }.sorted()
    if !changed.isEmpty {
      problems.append(
        "step \(step): \(device.name)'s confirmed copy of \(changed.joined(separator: ", ")) is not what it held when it died: \(changed.map { "v\(held.confirmed[$0]?.version ?? 0) then, v\(found.confirmed[$0]?.version ?? 0) on disk" }.joined(separator: "; "))"
      )
    }
    let kept = Set(found.pending.map(\.id)).union(await device.engine.refused.map(\.id))
    let deleted = Set(network.server.notes.filter(\.deleted).map(\.id)).union(collected)
    let lost = waiting.filter { !kept.contains($0.id) && !network.server.applied($0.id) && !deleted.contains($0.note) }
    if !lost.isEmpty {
      problems.append(
        "step \(step): \(lost.count) edits waited in \(device.name)'s outbox before the step and are neither there after the relaunch nor applied by the server nor set aside as refused: \(lost.map { "\($0.note)@\($0.base)" })"
      )
    }
    return problems
  }

  /// A note a device had confirmed and showed at the end of the last step is still on its screen,
  /// unless a delete hides it (a tombstone on the server, or one unsent on the device): a resync, a
  /// crash or a failed sync never blanks a note no device deleted.
  private static func stillShown(
    _ device: Device, since shownBefore: inout [String: Set<String>], server: SyncService, collected: Set<String>, step: Int
  ) async -> [String] {
    let confirmed = await device.engine.confirmed
    let (pending, shown) = await device.state()
    let tombstones = Set(server.notes.filter(\.deleted).map(\.id)).union(collected)
    let deletedHere = Set(pending.filter(\.delete).map(\.note))
    let lost = (shownBefore[device.name] ?? []).filter { shown[$0] == nil && !tombstones.contains($0) && !deletedHere.contains($0) }.sorted()
    shownBefore[device.name] = Set(confirmed.filter { !$0.value.deleted && shown[$0.key] != nil }.keys)
    guard !lost.isEmpty else { return [] }
    return [
      "step \(step): \(device.name)'s screen no longer shows \(lost.joined(separator: ", ")), which it had confirmed and shown, and no device deleted: a resync or a failed sync must leave the confirmed copy on screen until a new one is whole"
    ]
  }

  /// What holds for every device after every step: a tombstone the device holds hides its note; the
  /// outbox is compacted (a delete is its note's only edit, and no two edits of a note set one field);
  /// no confirmed version goes down.
  private static func shape(of device: Device, step: Int, versions: inout [String: [String: Int]]) async -> [String] {
    var problems: [String] = []
    let confirmed = await device.engine.confirmed
    let (pending, shown) = await device.state()
    for (id, record) in confirmed.sorted(by: { $0.key < $1.key }) where record.deleted && shown[id] != nil {
      problems.append("step \(step): \(device.name) holds the server's tombstone of \(id), yet its screen shows \(id)")
    }
    problems += compaction(of: pending, device: device, when: "after the step", step: step)
    for (id, record) in confirmed.sorted(by: { $0.key < $1.key }) {
      let highest = versions[device.name, default: [:]][id] ?? 0
      if record.version < highest {
        problems.append("step \(step): \(device.name)'s confirmed copy of \(id) went back from v\(highest) to v\(record.version)")
      }
      versions[device.name, default: [:]][id] = max(highest, record.version)
    }
    return problems
  }

  /// Whether `outbox` is compacted: a delete is its note's only unsent edit, and no two unsent
  /// edits of a note set one field.
  private static func compaction(of outbox: [Mutation], device: Device, when: String, step: Int) -> [String] {
    var problems: [String] = []
    for (note, edits) in Dictionary(grouping: outbox, by: \.note).sorted(by: { $0.key < $1.key }) {
      if edits.count > 1, edits.contains(where: \.delete) {
        problems.append(
          "step \(step): \(when), \(device.name)'s outbox held a delete of \(note) and \(edits.count - 1) other edits of it; a delete should be its note's only unsent edit"
        )
      }
      var fields = Set<String>()
      for edit in edits {
        let twice = fields.intersection(edit.set.keys)
        if !twice.isEmpty {
          problems.append(
            "step \(step): \(when), \(device.name)'s outbox held two unsent edits of \(twice.sorted().map { "\(note).\($0)" }.joined(separator: ", ")); the later should have dropped the field from the earlier"
          )
        }
        fields.formUnion(edit.set.keys)
      }
    }
    return problems
  }

  /// One sync of `device`, called by the step itself (a crash, a full disk, the heal), judged.
  private static func sync(
    _ device: Device, network: ChaosNetwork, ledger: inout WireLedger, history: History, step: Int
  ) async -> (problems: [String], error: SyncError?) {
    let run = await SyncRun.perform(device.name, engine: device.engine, disk: device.disk, network: network, time: device.time)
    return (judge(run, of: device, ledger: &ledger, history: history, step: step), run.error)
  }

  /// What went wrong in one sync: a sync that returns has saved what it did (no write was refused
  /// during it) and answered every edit its outbox held when it began; the requests it made hold
  /// `WireLedger`'s promises; it wrote its notes file no more often than the replies it got allow.
  private static func judge(_ run: SyncRun, of device: Device, ledger: inout WireLedger, history: History, step: Int) -> [String] {
    if let error = run.error { history.add("    \(device.name): sync failed: \(error)") }
    var (problems, allowed, heldBack) = ledger.check(run.exchanges, of: device.name, failed: run.error != nil, sleeps: run.sleeps, step: step)
    device.heldBack = heldBack
    if run.notesWrites > allowed {
      problems.append(
        "step \(step): \(device.name)'s sync wrote its notes file \(run.notesWrites) times; the replies it got allow \(allowed) (one per push result, per page and per 410)"
      )
    }
    if run.unchangedOutboxWrites > 0 {
      problems.append(
        "step \(step): \(device.name)'s sync wrote the outbox with the bytes it already held (\(run.unchangedOutboxWrites) such writes); a write that changes nothing wears the flash and spends the battery for nothing"
      )
    }
    for outbox in run.exchanges.compactMap(\.outbox) {
      problems += compaction(of: outbox, device: device, when: "as a push left", step: step)
    }
    if run.error == .offline, let last = run.exchanges.last, let status = last.status {
      problems.append(
        "step \(step): \(device.name)'s sync failed with .offline after its last request got a reply (\(status)): a reply of any status says the server was reached, so it is never .offline"
      )
    }
    if let error = run.error, error != .offline, error != .cancelled, let last = run.exchanges.last, last.status == nil {
      problems.append(
        "step \(step): \(device.name)'s sync failed with \(error) after its last request got no reply (\(ChaosNetwork.name(last.fault == nil ? .notConnectedToInternet : last.code ?? ChaosNetwork.droppedConnection))): no reply says nothing of the server, so a sync that got none fails with .offline"
      )
    }
    if run.refusedWrites > 0 { ledger.forget(device.name) }
    guard run.error == nil else { return problems }
    ledger.synced(device.name)
    if run.refusedWrites > 0 {
      problems.append("step \(step): \(device.name)'s sync returned, yet its disk refused \(run.refusedWrites) writes during it")
    }
    let left = Set(run.left.map(\.id))
    let unanswered = run.waiting.filter { left.contains($0.id) && !heldBack.contains($0.note) }
    if !unanswered.isEmpty {
      problems.append(
        "step \(step): \(device.name)'s sync returned, yet \(unanswered.count) edits its outbox held when it began are still there: \(unanswered.map { "\($0.note)@\($0.base)" })"
      )
    }
    return problems
  }

  /// Asks `device`'s scheduler for a sync (or, with `ask` false, lets it act on what it was told;
  /// `due`: a sync was asked for while the device was offline and is owed now), waits until it is idle and judges every sync it ran, and the scheduler itself: while online it
  /// runs until a sync succeeds and leaves no edit behind, one sync at a time, waiting after the
  /// k-th failure in a row `schedulerPolicy.backoff(beforeRetry: k)`; while offline it runs nothing.
  private static func scheduled(
    _ device: Device, ask: Bool = true, due: Bool = false, cancel: CancelMark? = nil, askedDuring: InFlight? = nil, ledger: inout WireLedger,
    history: History, step: Int
  ) async -> [String] {
    if ask { await device.scheduler.trigger() }
    await device.scheduler.waitUntilIdle()
    let (runs, mostAtOnce, capped) = device.runs.take()
    var problems: [String] = []
    for run in runs { problems += judge(run, of: device, ledger: &ledger, history: history, step: step) }
    if mostAtOnce > 1 { problems.append("step \(step): \(device.name)'s scheduler ran \(mostAtOnce) syncs at once; one at a time, always") }
    // Requests during a run coalesce: one more sync after it, however many came.
    let succeeded = runs.filter { $0.error == nil }.count
    let interrupted = askedDuring?.runsAsked.count ?? 0
    if succeeded > 1 + interrupted {
      problems.append(
        "step \(step): \(device.name)'s scheduler ran \(succeeded) syncs that succeeded for one request and two more during each of \(interrupted) runs; those during a run are one more sync after it, so \(1 + interrupted) at most"
      )
    }
    let cancelled = cancel?.runsBefore
    let duringRequest = cancel?.duringRequest ?? false
    if let cancelled, runs.count > cancelled {
      problems.append(
        "step \(step): the app cancelled \(device.name)'s scheduler \(duringRequest ? "while sync \(cancelled) had a request on its way" : "during its wait after sync \(cancelled)"), and it ran \(runs.count - cancelled) more"
      )
    }
    if let cancelled, duringRequest, runs.count >= cancelled, runs[cancelled - 1].error != .cancelled {
      let outcome = runs[cancelled - 1].error.map { "failed with .\($0)" } ?? "returned"
      problems.append(
        "step \(step): \(device.name)'s sync \(cancelled) was cancelled while its request was on its way, and \(outcome): a cancelled sync fails with .cancelled (read as .offline, whoever retries offline failures starts it again)"
      )
    }
    // The waits after the k-th failure in a row (a run cancelled on its way waits for nothing);
    // after a cancel, the count may go on or start again.
    let judged = cancelled.map { Array(runs.prefix(duringRequest ? $0 - 1 : $0)) } ?? runs
    let waits = device.waits.take()
    // The counts each start the waits agree with leads to.
    var agreed: [Int] = []
    var expected: [Duration]?
    for start in device.failuresInARow {
      var (waitsNow, inARow) = ([Duration](), start)
      for run in judged {
        guard run.error != nil else {
          inARow = 0
          continue
        }
        inARow += 1
        waitsNow.append(schedulerPolicy.backoff(beforeRetry: inARow, random: .constant(schedulerDraw)))
      }
      if expected == nil { expected = waitsNow }
      if waitsNow == waits, !agreed.contains(inARow) { agreed.append(inARow) }
    }
    if !agreed.isEmpty {
      device.failuresInARow = agreed
    } else if !capped {
      problems.append(
        "step \(step): \(device.name)'s scheduler waited \(waits) between its syncs, which failed \(judged.map { $0.error == nil ? "no" : "yes" }) in turn; after the k-th failure in a row it should wait policy.backoff(beforeRetry: k): \(expected ?? [])"
      )
    }
    if cancelled != nil {
      let counts = device.failuresInARow
      for count in (duringRequest ? counts.map { $0 + 1 } : []) + [0] where !counts.contains(count) {
        device.failuresInARow.append(count)
      }
      return problems
    }
    guard device.online else {
      if !runs.isEmpty { problems.append("step \(step): \(device.name)'s scheduler ran \(runs.count) syncs while it was told the device is offline") }
      return problems
    }
    if capped {
      problems.append("step \(step): \(device.name)'s scheduler ran \(RunLog.cap) syncs for one request, without going idle")
    } else if ask, runs.isEmpty {
      problems.append("step \(step): \(device.name) asked its scheduler for a sync while online, and it ran none")
    } else if due, runs.isEmpty {
      problems.append(
        "step \(step): \(device.name) came back online with a sync asked for while it was offline, and its scheduler ran none")
    } else if let last = runs.last, last.error != nil {
      problems.append("step \(step): \(device.name)'s scheduler went idle after a failed sync while online; it should try again after a wait")
    } else if let last = runs.last, !last.left.isEmpty, !(device.network.ranAway) {
      let pending = await device.engine.pending.filter { !device.heldBack.contains($0.note) }
      if !pending.isEmpty {
        problems.append(
          "step \(step): \(device.name)'s scheduler went idle with \(pending.count) edits in the outbox, made while its last sync ran: a request during a sync is one more sync after it"
        )
      }
    }
    return problems
  }

  /// What an edit or a delete that returned may have written: the outbox once, the notes never.
  private static func writes(of device: Device, _ made: (outbox: Int, notes: Int), by what: String, step: Int) -> [String] {
    let (outbox, notes) = made
    guard outbox > 1 || notes > 0 else { return [] }
    return ["step \(step): \(device.name)'s \(what) wrote its outbox \(outbox) times and its notes \(notes) times; one write of the outbox keeps it"]
  }

  /// Garbles `file` on the device's disk and relaunches it: the open must fail with an error, not
  /// read the file as empty (the next write would put nothing over the user's edits); then the
  /// file is repaired and a relaunch finds what the app held.
  private static func garbled(_ device: Device, file: String, network: ChaosNetwork, collected: Set<String>, step: Int) async -> [String] {
    let url = device.folder.appendingPathComponent(file)
    let waiting = await device.engine.pending
    guard let old = device.disk.garble(url) else {
      network.history.add("    \(device.name) has no \(file) yet")
      return []
    }
    var problems: [String] = []
    do {
      try device.relaunch()
      problems.append(
        "step \(step): \(device.name) opened its garbled \(file) without an error, as \(await device.engine.pending.count) edits and \(await device.engine.confirmed.count) notes: its next write puts that over what the file held"
      )
    } catch {
      network.history.add("    \(device.name) cannot open it: \(error)")
    }
    device.disk.restore(old, at: url)
    return problems + (await relaunch(device, network: network, waiting: waiting, collected: collected, step: step))
  }

  /// The server applies one device's edits of a note in the order the user made them: their
  /// versions grow in that order.
  private static func inOrder(_ made: [(id: String, note: String)], by device: Device, server: SyncService, step: Int) -> [String] {
    var last: [String: (version: Int, index: Int)] = [:]
    var problems: [String] = []
    for (index, edit) in made.enumerated() {
      guard let version = server.appliedRecord(edit.id)?.version else { continue }
      if let earlier = last[edit.note], earlier.version > version {
        problems.append(
          "step \(step): the server applied \(device.name)'s edit \(index + 1) of \(edit.note) at v\(version), before its edit \(earlier.index + 1), made earlier and applied at v\(earlier.version): a device's edits of a note go out in the order they were made"
        )
      }
      last[edit.note] = (version, index)
    }
    return problems
  }

  /// The acknowledged edits of one device, checked after every step: each is still in its outbox,
  /// or applied by the server with the value the user gave (and then the device's confirmed copy
  /// is at least as new as what it made), unless a delete won.
  private static func kept(_ edits: [Acknowledged], by device: Device, server: SyncService, collected: Set<String>, step: Int) async -> [String] {
    var problems: [String] = []
    let pending = await device.engine.pending
    let waiting = Set(pending.map(\.id))
    let confirmed = await device.engine.confirmed
    let setAside = Set(await device.engine.refused.map(\.id))
    let tombstones = Set(server.notes.filter(\.deleted).map(\.id)).union(collected)
    for edit in edits.sorted(by: { ($0.note, $0.field ?? "") < ($1.note, $1.field ?? "") }) where !waiting.contains(edit.id) {
      let what = edit.field.map { "edit \(edit.note).\($0) = \(edit.value ?? "")" } ?? "delete of \(edit.note)"
      // A delete wins: it drops the note's earlier edits, sent or not.
      let deleted = tombstones.contains(edit.note) || pending.contains { $0.note == edit.note && $0.delete }
      let refusable = (edit.value?.utf8.count ?? 0) > serverValueCap
      if setAside.contains(edit.id) {
        if !refusable {
          problems.append("step \(step): \(device.name)'s \(what) is set aside as refused, but the server takes every value of \(serverValueCap) bytes or less")
        }
        continue
      }
      if let record = server.appliedRecord(edit.id) {
        if let field = edit.field, record.fields[field] != edit.value {
          problems.append(
            "step \(step): the server applied \(device.name)'s \(what) as \(describe(record.fields)): the value the user gave is not the one that went out"
          )
        }
        if !deleted, let held = confirmed[edit.note], held.version < record.version {
          problems.append(
            "step \(step): \(device.name)'s \(what) left its outbox, applied by the server at v\(record.version), but \(device.name)'s confirmed copy is v\(held.version): the screen no longer shows it"
          )
        }
        continue
      }
      if !deleted {
        problems.append(
          "step \(step): \(device.name)'s \(what) was acknowledged, and it is neither in its outbox nor applied by the server\(refusable ? " nor set aside as refused (the server refuses its value)" : ""), and the note is not deleted"
        )
      }
    }
    return problems
  }

  /// No edit made on a version of a note creates it on the server: the note existed, so the server
  /// holds no note by that id only because it collected the note's tombstone, and the edit went
  /// out as a create, bringing back a note a device deleted.
  private static func neverBroughtBack(
    _ madeOnAVersion: [String: (device: String, note: String, base: Int)], server: SyncService, step: Int
  ) -> [String] {
    madeOnAVersion.sorted { $0.key < $1.key }.compactMap { id, made in
      guard server.created(id) else { return nil }
      let now = server.notes.first { $0.id == made.note }.map { "v\($0.version)\($0.deleted ? " deleted" : "")" } ?? "nothing"
      return
        "step \(step): \(made.device)'s edit of \(made.note), made on v\(made.base), created \(made.note) on the server (which holds \(now) of it): the note was deleted and its tombstone collected, and the edit went out as a create and brought back a note a device deleted"
    }
  }

  /// Moves the history's time on (a synchronous call: no task is waiting for it).
  private static func move(_ time: ManualClock, by duration: Duration) {
    time.advance(by: duration)
  }

  private static func check(
    _ devices: [Device], server: SyncService, acknowledged: [String: Acknowledged], collected: Set<String>
  ) async -> [String] {
    var problems: [String] = []
    let serverNotes = Dictionary(uniqueKeysWithValues: server.notes.map { ($0.id, $0) })
    let live = serverNotes.values.filter { !$0.deleted }.reduce(into: [String: [String: String]]()) { $0[$1.id] = $1.fields }
    for device in devices {
      let pending = await device.engine.pending
      if !pending.isEmpty {
        problems.append("\(device.name) still has \(pending.count) unsent edits after the heal: \(pending.map { "\($0.note)@\($0.base)" })")
      }
      let shown = await device.engine.notes().mapValues(\.fields)
      if shown != live {
        problems.append("\(device.name) shows \(describe(shown)) but the server holds \(describe(live))")
      }
      let confirmed = await device.engine.confirmed
      for id in Set(serverNotes.keys).subtracting(confirmed.keys).sorted() {
        problems.append(
          "\(device.name) has no confirmed copy of \(id), which the server holds (v\(serverNotes[id]!.version)\(serverNotes[id]!.deleted ? ", a tombstone" : ""))"
        )
      }
      for (id, record) in confirmed {
        let held = serverNotes[id]
        // A tombstone the server has since collected: the device learned of the delete, and keeps it.
        if held == nil, record.deleted, collected.contains(id) { continue }
        if held?.version != record.version || held?.deleted != record.deleted || held?.fields != record.fields {
          problems.append(
            "\(device.name)'s confirmed copy of \(id) is v\(record.version)\(record.deleted ? " deleted" : "") \(record.fields), the server's v\(held?.version ?? 0)"
          )
        }
      }
    }
    var setAside: [String: Set<String>] = [:]
    for device in devices { setAside[device.name] = Set(await device.engine.refused.map(\.id)) }
    for (what, edit) in acknowledged.sorted(by: { $0.key < $1.key }) {
      if serverNotes[edit.note]?.deleted == true || collected.contains(edit.note) { continue }
      if (edit.value?.utf8.count ?? 0) > serverValueCap {
        if setAside[edit.device]?.contains(edit.id) != true {
          problems.append(
            "the edit \(what) was acknowledged and the server refuses its value for good, but it is not set aside on \(edit.device): the user's text is lost without a word"
          )
        }
        continue
      }
      if !server.applied(edit.id) {
        problems.append("the edit \(what) was acknowledged (on disk, shown) but the server never applied it, and the note is not deleted")
      }
    }
    return problems
  }

  private static func describe(_ fields: [String: String]) -> String {
    "{" + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",") + "}"
  }

  private static func describe(_ notes: [String: [String: String]]) -> String {
    notes.keys.sorted().map { id in "\(id){\(notes[id]!.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))}" }
      .joined(separator: " ")
  }

  /// The shortest prefix of seed's history that still fails (the steps are drawn in the same order
  /// for every length, so a prefix is the same history cut short).
  static func shortest(_ failure: Failure) async throws -> Failure {
    for steps in 1..<failure.steps {
      if let shorter = try await run(seed: failure.seed, steps: steps) { return shorter }
    }
    return failure
  }
}

/// One call of `SyncEngine.edit` and what the app showed and wrote around it, collected where it
/// ran (between a push's send and its answer, for an edit made during a sync) and judged after.
struct EditOutcome: Sendable {
  typealias State = (pending: [Mutation], shown: [String: NoteRecord])
  var before: State
  var after: State
  var error: SyncError?
  /// Whether the disk refused a write during the call.
  var refused: Bool
  /// Whether a delete hides the note after the call: one unsent on the device, or the server's.
  var hidden: Bool
  /// The writes of the outbox and of the notes the call made.
  var writes: (outbox: Int, notes: Int)
  /// The version of the note the device held when the call began, and the device clock's last reading.
  var heldVersion: Int
  var readAt: Date?

  static func edit(_ note: String, set: [String: String], on engine: SyncEngine, disk: MemoryDisk, clock: DeviceClock) async -> EditOutcome {
    let before = (pending: await engine.pending, shown: await engine.notes())
    let held = await engine.confirmed[note]?.version ?? 0
    let refused = disk.refusedWrites
    let written = (outbox: disk.writes(to: "outbox.json"), notes: disk.writes(to: "notes.json"))
    var failure: SyncError?
    do { try await engine.edit(note, set: set) } catch { failure = error }
    let after = (pending: await engine.pending, shown: await engine.notes())
    let deletedHere = before.pending.contains { $0.note == note && $0.delete }
    return EditOutcome(
      before: before, after: after, error: failure, refused: disk.refusedWrites > refused,
      hidden: await engine.confirmed[note]?.deleted == true || deletedHere,
      writes: (disk.writes(to: "outbox.json") - written.outbox, disk.writes(to: "notes.json") - written.notes), heldVersion: held,
      readAt: clock.lastReading)
  }
}

/// Where the edits made while a request is on its way leave their notes, fields and outcomes for
/// the step to judge.
final class InFlight: Sendable {
  private let box = Mutex<[(note: String, field: String, outcome: EditOutcome)]>([])
  private let asked = Mutex<Set<Int>>([])
  var edits: [(note: String, field: String, outcome: EditOutcome)] { box.withLock { $0 } }
  /// The runs (by how many had ended before) during which the app asked for a sync.
  var runsAsked: Set<Int> { asked.withLock { $0 } }

  func add(_ edit: (note: String, field: String, outcome: EditOutcome)) { box.withLock { $0.append(edit) } }
  func asked(duringRun run: Int) { _ = asked.withLock { $0.insert(run) } }
}

/// An edit or a delete a device's `edit`/`delete` acknowledged (field and value nil for a delete).
struct Acknowledged {
  var device: String
  var id: String
  var note: String
  var field: String?
  var value: String?
}

/// A device clock that follows the history's time and that the simulated user can set back:
/// edits must still go out in the order they were made.
final class DeviceClock: Sendable {
  private struct State {
    var offset: TimeInterval = 1_800_000_000
    var last: Date?
  }
  private let time: ManualClock
  private let state = Mutex(State())

  init(time: ManualClock) { self.time = time }

  /// The time now; every reading is a second and 0.4 ms after the one before (plus the time that
  /// passed), unless the clock was set back: a fraction of a millisecond, finer than the file and
  /// the wire keep, so that an edit kept in memory to the nanosecond differs from itself read back.
  @Sendable func now() -> Date {
    let elapsed = time.now.offset / .seconds(1)
    return state.withLock {
      $0.offset += 1.000_4
      let reading = Date(timeIntervalSince1970: $0.offset + elapsed)
      $0.last = reading
      return reading
    }
  }

  /// The last reading `now()` gave, if any.
  var lastReading: Date? { state.withLock { $0.last } }

  func setBack(hours: Double) {
    state.withLock { $0.offset -= hours * 3_600 }
  }
}

/// The history's `ManualClock` as a device waits on it. One device runs at a time, so a sleep moves
/// the history's time straight to its deadline, as a test would that advanced the clock to its
/// only sleeper; the sleep stays in the clock's `sleepHistory`.
struct SimulatedClock: Clock {
  let time: ManualClock
  /// Where the waits asked for are written down, if anywhere.
  var waits: SleepLog?

  var now: ManualClock.Instant { time.now }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: ManualClock.Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    waits?.append(time.now.duration(to: deadline))
    if let action = waits?.takeAction() { await action() }
    move(to: deadline)
    try await time.sleep(until: deadline, tolerance: tolerance)
  }

  private func move(to deadline: ManualClock.Instant) {
    let wait = time.now.duration(to: deadline)
    if wait > .zero { time.advance(by: wait) }
  }
}
