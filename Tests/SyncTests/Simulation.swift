import Foundation
import PracticeServer
import Sync
import Synchronization
import Workbook
import WorkbookTesting

/// Three devices editing the same notes against the sync server over a chaotic network, with
/// crashes, relaunches and time offline, every choice drawn from one seed; then the network
/// heals, every device syncs until its outbox is empty, and `check` says what does not agree.
///
/// The steps run one at a time (a device's call ends before the next step starts), so the same
/// seed is the same history on every run and every machine.
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
      "SEED=\(seed) (\(steps) steps) ends with devices and server that do not agree:\n"
        + problems.map { "  - \($0)" }.joined(separator: "\n") + "\nThe history:\n" + history
    }
  }

  private final class Device {
    let name: String
    let folder: URL
    var disk = MemoryDisk()
    var engine: SyncEngine
    var online = true
    /// The device's clock: a second later at every reading, unless the user sets it back.
    let clock = DeviceClock()

    init(name: String, folder: URL, link: DeviceLink) throws {
      self.name = name
      self.folder = folder
      engine = try SyncEngine(
        directory: folder, transport: link, baseURL: InProcessServer.baseURL, fileSystem: disk, batchSize: 3, pageSize: 2,
        now: clock.now)
    }

    /// A relaunch after a crash: whatever the process held in memory is gone; the disk is read again.
    func relaunch(link: DeviceLink) throws {
      disk = disk.relaunched()
      engine = try SyncEngine(
        directory: folder, transport: link, baseURL: InProcessServer.baseURL, fileSystem: disk, batchSize: 3, pageSize: 2,
        now: clock.now)
    }
  }

  /// Runs `steps` steps of the history `seed` makes; nil when everything agrees at the end.
  static func run(seed: UInt64, steps: Int) async throws -> Failure? {
    let folder = URL(fileURLWithPath: "/simulated")
    let history = History()
    let network = ChaosNetwork(seed: seed, history: history)
    var devices: [Device] = []
    for name in Self.devices {
      devices.append(try Device(name: name, folder: folder.appendingPathComponent(name), link: network.link(for: name)))
    }
    /// The last edit each device made of each note's field (and the last delete of each note) that
    /// `edit`/`delete` acknowledged: the server must end up having applied it, or the note deleted.
    var acknowledged: [String: String] = [:]

    for step in 1...max(steps, 1) {
      let device = devices[network.draw(devices.count)]
      let note = notes[network.draw(notes.count)]
      let roll = network.draw(100)
      switch roll {
      case 0..<36:
        // Device C is a newer app that also writes a field the others do not know.
        let fields = device.name == "C" ? ["title", "body", "color"] : ["title", "body"]
        let field = fields[network.draw(fields.count)]
        let value = "\(device.name)\(step)"
        history.add("\(step). \(device.name) sets \(note).\(field) = \(value)")
        if (try? await device.engine.edit(note, set: [field: value])) != nil,
          let made = await device.engine.pending.last, made.note == note, made.set[field] == value
        {
          acknowledged["\(device.name) \(note).\(field)"] = made.id
        }
      case 36..<42:
        history.add("\(step). \(device.name) deletes \(note)")
        if (try? await device.engine.delete(note)) != nil, let made = await device.engine.pending.last, made.note == note, made.delete {
          acknowledged["\(device.name) \(note) delete"] = made.id
        }
      case 42..<72:
        history.add("\(step). \(device.name) syncs\(device.online ? "" : " (offline)")")
        do { try await device.engine.sync() } catch { history.add("    \(device.name): sync failed: \(error)") }
      case 72..<80:
        device.online.toggle()
        network.setOnline(device.name, device.online)
        history.add("\(step). \(device.name) goes \(device.online ? "online" : "offline")")
      case 80..<90:
        let writes = network.draw(4)
        history.add("\(step). \(device.name) crashes after \(writes) more writes, during a sync, and relaunches")
        device.disk.writesBeforeCrash = writes
        do { try await device.engine.sync() } catch { history.add("    \(device.name): \(error)") }
        try device.relaunch(link: network.link(for: device.name))
      case 90..<93:
        history.add("\(step). \(device.name)'s clock is set back an hour")
        device.clock.setBack(hours: 1)
      case 93..<97:
        history.add("\(step). the network delivers a late copy")
        network.deliverOneLate()
      default:
        history.add("\(step). the server forgets every change token (410 from now on)")
        network.server.expireTokens()
      }
    }

    // The network heals: every device online, no more faults, every late copy delivered.
    history.add("heal: every device online, no faults, late copies delivered, each device syncs twice")
    network.chaotic = false
    network.deliverAllLate()
    var problems: [String] = []
    for device in devices {
      device.online = true
      network.setOnline(device.name, true)
    }
    for round in 1...2 {
      for device in devices {
        do { try await device.engine.sync() } catch { problems.append("\(device.name)'s sync \(round) after the heal failed: \(error)") }
      }
    }
    problems += await check(devices, server: network.server, acknowledged: acknowledged)
    if network.ranAway {
      problems.insert(
        "the devices sent more than \(ChaosNetwork.requestLimit) requests in \(steps) steps (a few hundred is usual): a pull or a push that never ends?",
        at: 0)
    }
    return problems.isEmpty ? nil : Failure(seed: seed, steps: steps, problems: problems, history: history.text)
  }

  private static func check(_ devices: [Device], server: SyncService, acknowledged: [String: String]) async -> [String] {
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
        if held?.version != record.version || held?.deleted != record.deleted || held?.fields != record.fields {
          problems.append(
            "\(device.name)'s confirmed copy of \(id) is v\(record.version)\(record.deleted ? " deleted" : "") \(record.fields), the server's v\(held?.version ?? 0)"
          )
        }
      }
    }
    for (what, id) in acknowledged.sorted(by: { $0.key < $1.key }) {
      let note = String(what.split(separator: " ")[1].split(separator: ".")[0])
      if serverNotes[note]?.deleted == true { continue }
      if !server.applied(id) {
        problems.append("the edit \(what) was acknowledged (on disk, shown) but the server never applied it, and the note is not deleted")
      }
    }
    return problems
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

/// A device clock that the simulated user can set back: edits must still go out in the order they
/// were made.
final class DeviceClock: Sendable {
  private let seconds = Mutex<TimeInterval>(1_800_000_000)

  /// The time now; every reading is a second after the one before, unless the clock was set back.
  @Sendable func now() -> Date {
    seconds.withLock {
      $0 += 1
      return Date(timeIntervalSince1970: $0)
    }
  }

  func setBack(hours: Double) {
    seconds.withLock { $0 -= hours * 3_600 }
  }
}
