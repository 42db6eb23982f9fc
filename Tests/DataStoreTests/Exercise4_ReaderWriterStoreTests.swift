import Foundation
import Testing
import WorkbookTesting

@testable import DataStore

@Suite("Exercise 4 — Readers in parallel, writers alone", .timeLimit(.minutes(1)))
struct Exercise4_ReaderWriterStoreTests {
  @Test func aReadAfterAWriteSeesIt() {
    let store = ReaderWriterStore<String, Int>()
    for value in 0..<500 {
      store.set(value, for: "k")
      let seen = store.get("k")
      guard seen == value else {
        Issue.record(
          "get right after set(\(value)) returned \(String(describing: seen)): a barrier queued before a sync read runs first, so the read must see the write")
        return
      }
    }
    store.remove("k")
    #expect(store.get("k") == nil, "get right after remove should return nil")
  }

  @Test func readsRunInParallel() {
    // Two readers, each on a thread of its own, wait inside `read` until both are in. Reads that
    // could not overlap (a barrier on reads) would keep the second one out: that is seen when it
    // asks the queue, and the test ends there instead of waiting.
    let log = EventLog()
    let store = ReaderWriterStore(["k": 1]) { log.record(.submitted($0)) }
    for reader in 0..<2 {
      Thread {
        store.read { _ in
          log.record(.readerInside(reader))
          log.wait { events in
            events.filter(\.isReaderInside).count == 2 || events.contains(where: \.isBarrierRead)
              || events.contains(.readerDone(1 - reader))
          }
        }
        log.record(.readerDone(reader))
      }.start()
    }
    let finished = log.wait { events in events.filter(\.isReaderDone).count == 2 }
    #expect(finished, "the two readers did not finish: a read never returned (a deadlock?)")
    let events = log.events
    if events.contains(where: \.isBarrierRead) {
      Issue.record("a read was submitted with `.barrier`: reads then run one at a time and never overlap. Use a plain `queue.sync` for reads")
      return
    }
    // Both readers were in before the first one came out.
    let secondIn = events.indices.filter { events[$0].isReaderInside }.dropFirst().first
    let firstOut = events.firstIndex(where: \.isReaderDone) ?? events.endIndex
    #expect(
      secondIn.map { $0 < firstOut } ?? false,
      "two reads should be inside `read` at the same time: use the concurrent queue with `sync` for reads; the readers did \(events)")
  }

  @Test("a write waits for the reads in progress", arguments: ["set", "remove", "update"])
  func aWriteWaitsForTheReadsInProgress(write: String) {
    // A reader, on a thread of its own, stays inside `read` while the test submits a write.
    // It leaves once the write is on the queue as a barrier behind it (the queue then holds the
    // write until the reader is out), or once the write has started, which without a barrier it
    // does at once, alongside the reader. The queue tells the test what it was given, and when
    // each block it was given starts.
    let log = EventLog()
    let store = ReaderWriterStore(["k": 0]) { log.record(.submitted($0)) }
    Self.startReader(store, log) { events in
      // The read's own request to the queue comes before it got in; the write's come after.
      let readIsOnTheQueue = events.first?.isSubmission ?? false
      let sinceInside = events.drop { $0 != .readerInside(0) }
      return sinceInside.contains(where: \.isWriteStarted) || sinceInside.contains(where: \.isAsyncStart)
        || (readIsOnTheQueue && sinceInside.contains(where: \.isBarrier))
        || (sinceInside.contains(.updateReturned) && !sinceInside.contains(where: \.isAsync))
    }
    switch write {
    case "set": store.set(1, for: "k")
    case "remove": store.remove("k")
    default:
      store.update("k") { value in
        let events = log.events
        log.record(.writeStarted(whileReading: events.contains(.readerInside(0)) && !events.contains(.readerLeaving)))
        return (value ?? 0) + 1
      }
    }
    log.record(.updateReturned)
    let finished = log.wait { $0.contains(.readerDone(0)) }
    #expect(finished, "the reader never left `read` (a deadlock?)")
    let expected = write == "remove" ? nil : 1
    #expect(store.get("k") == expected, "the \(write) should have been applied once the reader left, and a read after it sees it")
    let events = log.events
    #expect(events.contains(.readerInside(0)), "`read` should run its body on the queue")
    let inside = events.firstIndex(of: .readerInside(0)) ?? events.endIndex
    let leaving = events.firstIndex(of: .readerLeaving) ?? events.endIndex
    let startedWhileReading = events[inside..<max(inside, leaving)].contains(where: \.isAsyncStart)
    #expect(
      !events.contains(.writeStarted(whileReading: true)) && !startedWhileReading,
      "the \(write) ran while a read was in progress: writes need `.barrier`, or they race with readers; the events were \(events)")
  }

  @Test(
    "a write returns at once, without waiting for the reads in progress",
    arguments: ["set", "remove", "update"])
  func aWriteReturnsWithoutWaitingForTheReads(write: String) {
    // A reader, on a thread of its own, stays inside `read` until the test's write has returned.
    // An asynchronous barrier returns as soon as it is queued. A write that waits (`sync` with
    // `.barrier`) would wait for that reader for ever, so the reader also leaves once it sees a
    // sync barrier submitted, and the test finds the write returned only after the reader left.
    let log = EventLog()
    let store = ReaderWriterStore(["k": 0]) { log.record(.submitted($0)) }
    Self.startReader(store, log) { events in
      let sinceInside = events.drop { $0 != .readerInside(0) }
      return sinceInside.contains(.writeReturned) || sinceInside.contains(where: \.isBarrierRead)
    }
    switch write {
    case "set": store.set(1, for: "k")
    case "remove": store.remove("k")
    default: store.update("k") { ($0 ?? 0) + 1 }
    }
    log.record(.writeReturned)
    let finished = log.wait { $0.contains(.readerDone(0)) }
    #expect(finished, "the reader never left `read` (a deadlock?)")
    let events = log.events
    let returned = events.firstIndex(of: .writeReturned) ?? events.endIndex
    let left = events.firstIndex(of: .readerLeaving) ?? events.endIndex
    #expect(
      returned < left,
      "\(write) returned only after the reader in progress had left: it waited for the reads, so a writer on the main thread would freeze behind a slow read. Queue the write with `queue.async(flags: .barrier)` and return; the events were \(events)"
    )
  }

  @Test func anUpdateSeesNilForAMissingKeyAndNilRemoves() {
    // One update per store: two updates on one store would race each other in a store whose
    // writes lack the barrier, and a race that reallocates the dictionary can crash the process
    // instead of failing this test. `anUpdateWaitsForTheUpdateInProgress` grades the barrier.
    let inserting = ReaderWriterStore<String, Int>()
    let seen = Recorder<Int?>()
    inserting.update("new") { current in
      seen.append(current)
      return 5
    }
    let removing = ReaderWriterStore(["gone": 1])
    removing.update("gone") { _ in nil }
    // Each snapshot is queued behind its store's barrier, so the update has run once it returns.
    #expect(inserting.snapshot() == ["new": 5], "update should insert 5 under \"new\", a key the store did not have")
    #expect(removing.snapshot() == [:], "a transform that returns nil should remove \"gone\"")
    #expect(seen.values == [nil], "the transform should receive nil for a key with no value; got \(seen.values)")
  }

  @Test func anUpdateWaitsForTheUpdateInProgress() {
    // The first update, made on a thread of its own, stays inside its transform until the second
    // update is on the queue as a barrier (the queue then holds it until the first is out), or
    // until the second's transform has started, which without a barrier it does at once,
    // alongside the first: both then read the same count, and one increment is lost. The queue
    // tells the test what it was given. The store starts with the key, so two racing writes
    // overwrite a value in place and cannot crash the process.
    let log = EventLog()
    let store = ReaderWriterStore(["hits": 0]) { log.record(.submitted($0)) }
    Thread {
      store.update("hits") { value in
        log.record(.updateInside(0))
        log.wait { events in
          let sinceInside = events.drop { $0 != .updateInside(0) }
          // A read queued while this transform runs in a barrier waits for it: let it go, so a
          // second update that reads first ends here (`twoUpdatesStartedTogetherBothCount`
          // grades that one) instead of at the safety net.
          let inABarrier = events.prefix { $0 != .updateInside(0) }.last(where: \.isStart)?.isBarrierStart ?? false
          return sinceInside.contains(where: \.isSecondUpdateStarted) || sinceInside.contains(where: \.isBarrier)
            || (inABarrier && sinceInside.contains(.submitted(isBarrier: false, isSync: true)))
        }
        log.record(.updateLeaving(0))
        return (value ?? 0) + 1
      }
      log.record(.updateReturned)
    }.start()
    // An update that returned without calling its transform or giving the queue a block never
    // will: the test ends there instead of waiting.
    log.wait { events in
      events.contains(.updateInside(0)) || (events.contains(.updateReturned) && !events.contains(where: \.isSubmission))
    }
    guard log.events.contains(.updateInside(0)) else {
      Issue.record(
        "update returned without running its transform or giving the queue a block: read, transform and write inside one `queue.async(flags: .barrier)` block")
      return
    }
    store.update("hits") { value in
      let events = log.events
      log.record(.secondUpdateStarted(whileFirstRuns: events.contains(.updateInside(0)) && !events.contains(.updateLeaving(0))))
      return (value ?? 0) + 1
    }
    let hits = store.get("hits")
    let events = log.events
    #expect(
      !events.contains(.secondUpdateStarted(whileFirstRuns: true)),
      "the second update's transform started while the first was still inside its own: writes need `.barrier`, or they run alongside each other; the events were \(events)"
    )
    #expect(
      hits == 2,
      "two updates each added 1 to 0, and a read made after both should see 2, not \(hits.map(String.init) ?? "nil"): a write without `.barrier` reads the value another write is about to replace"
    )
  }

  @Test func twoUpdatesStartedTogetherBothCount() {
    // Two threads call `update` at the same moment. The queue tells the test when each block
    // starts, and a block without a barrier (a read) that starts waits there until the other
    // caller's read has started too, or until a barrier is queued or an update has returned: the
    // two callers meet on the queue, as they would if they arrived together. An update that is one
    // barrier never waits; one that reads first and writes in a second step has both callers read
    // 0 before either writes, and both write 1, every run.
    let log = EventLog()
    let store = ReaderWriterStore(["hits": 0]) { submission in
      log.record(.submitted(submission))
      guard submission.hasStarted, !submission.isBarrier else { return }
      log.wait { events in
        events.filter(\.isReadStarted).count >= 2 || events.contains(where: \.isBarrier)
          || events.contains(.updateReturned)
      }
    }
    for _ in 0..<2 {
      Thread {
        store.update("hits") { value in
          log.record(.transformGiven(value))
          return (value ?? 0) + 1
        }
        log.record(.updateReturned)
      }.start()
    }
    // Both transforms have run; or both updates returned without giving the queue a block, and
    // none will.
    log.wait { events in
      events.filter { $0.transformInput != nil }.count == 2
        || (events.filter { $0 == .updateReturned }.count == 2 && !events.contains(where: \.isSubmission))
    }
    let given = log.events.compactMap(\.transformInput)
    guard given.count == 2 else {
      Issue.record(
        "two updates ran their transforms \(given.count) times, not 2: read, transform and write inside one `queue.async(flags: .barrier)` block; the events were \(log.events)"
      )
      return
    }
    // Queued after both writes by the threads that made them, so it runs after them.
    let hits = store.get("hits")
    #expect(
      given.map { $0 ?? -1 }.sorted() == [0, 1],
      "two updates started together gave their transforms \(given.map { $0.map(String.init) ?? "nil" }), not 0 then 1: both read the count before either wrote it. Read, transform and write in one barrier block, not a read and then a write; the events were \(log.events)"
    )
    #expect(
      hits == 2,
      "two updates each added 1 to 0, and a read after both should see 2, not \(hits.map(String.init) ?? "nil"): an increment was lost"
    )
  }

  @Test("agrees with a plain Dictionary after every step of random sets, removals, reads and updates")
  func modelBased() async {
    let check = ModelCheck<DictionaryStep, [Int: Int], ReaderWriterStore<Int, Int>>(
      "ReaderWriterStore against a Dictionary", seeds: 1...40, steps: 40, replay: "make chapter-1 EXERCISE=4",
      generate: { DictionaryStep.random([.set, .remove, .get, .update], throwing: false, using: &$0) },
      model: { [:] }, system: { ReaderWriterStore<Int, Int>() },
      step: { step, model, store, check in
        switch step {
        case .set(let value, let key):
          store.set(value, for: key)
          model[key] = value
        case .remove(let key):
          store.remove(key)
          model[key] = nil
        case .get(let key):
          check.same("what \(step) returned", model: model[key], component: store.get(key))
        case .update(let key, let transform):
          store.update(key) { try? transform($0) }
          model[key] = try? transform(model[key])
        case .removeAll, .replaceAll, .transaction:
          break
        }
        check.same("snapshot() (a read from the writer's thread sees every write before it)", model: model, component: store.snapshot())
      })
    if let failure = await check.run() { Issue.record("\(failure)") }
  }

  @Test("a snapshot is one read: a transfer queued while it is being taken is in it whole or not at all")
  func aSnapshotIsOneRead() {
    // Scenario n queues a transfer (two barriers) just as the n-th read of the snapshot is
    // submitted, so the queue runs it before that read. A snapshot made of several reads then
    // holds one account from before the transfer and the other from after it.
    for moment in 1...5 {
      let reads = Recorder<Int>()
      let slot = WeakStoreSlot()
      let store = ReaderWriterStore(["alice": 1, "bob": 0]) { submission in
        guard submission.isSync, !submission.hasStarted else { return }
        reads.append(1)
        guard reads.count == moment, let store = slot.store else { return }
        store.update("alice") { ($0 ?? 0) - 1 }
        store.update("bob") { ($0 ?? 0) + 1 }
      }
      slot.store = store
      let snapshot = store.snapshot()
      let total = snapshot.values.reduce(0, +)
      guard total == 1 else {
        Issue.record(
          "a transfer was queued as the snapshot's read number \(moment) was submitted, and the snapshot \(snapshot) holds \(total) coins, not 1: it copied the accounts in separate reads. Return the contents from one `read`"
        )
        return
      }
      guard reads.count > moment else { return }
    }
  }

  @Test("a get queued behind a set sees it, even while a read in progress holds the set back")
  func aGetQueuedBehindASetSeesIt() {
    // A reader, on a thread of its own, stays inside `read` while the test sets a value and gets
    // it back: the set waits on the queue behind the reader, and the get behind the set. The
    // reader leaves once the get has been submitted to the queue, or has returned without it.
    let log = EventLog()
    let store = ReaderWriterStore(["k": 0]) { log.record(.submitted($0)) }
    Self.startReader(store, log) { events in
      let sinceInside = events.drop { $0 != .readerInside(0) }
      return sinceInside.contains { $0 == .submitted(isBarrier: false, isSync: true) || $0.isBarrierRead }
        || sinceInside.contains(.readReturned)
    }
    store.set(1, for: "k")
    let seen = store.get("k")
    log.record(.readReturned)
    let finished = log.wait { $0.contains(.readerDone(0)) }
    #expect(finished, "the reader never left `read` (a deadlock?)")
    #expect(
      seen == 1,
      "get right after set(1, for: \"k\") returned \(seen.map(String.init) ?? "nil") while the set waited behind a read: a get must go through the queue, where it waits behind the barrier queued before it; the events were \(log.events)"
    )
  }

  /// Starts a reader on a thread of its own that stays inside `read` until `leave` holds of the
  /// log's events, and returns once it is inside (or done, when `read` returned without running
  /// its body, as a starter's does).
  static func startReader(
    _ store: ReaderWriterStore<String, Int>, _ log: EventLog,
    leavingWhen leave: @escaping @Sendable ([EventLog.Event]) -> Bool
  ) {
    Thread {
      store.read { _ in
        log.record(.readerInside(0))
        log.wait(until: leave)
        log.record(.readerLeaving)
      }
      log.record(.readerDone(0))
    }.start()
    log.wait { events in events.contains(.readerInside(0)) || events.contains(.readerDone(0)) }
  }
}

/// Lets a store's own queue hook reach the store without keeping it alive.
final class WeakStoreSlot: @unchecked Sendable {
  // @unchecked: written once, before the store is used; read only after that.
  weak var store: ReaderWriterStore<String, Int>?
}

/// What the threads of a test did, in order, for the test and the other threads to wait on.
final class EventLog: @unchecked Sendable {
  enum Event: Equatable, CustomStringConvertible {
    case readerInside(Int)
    case readerLeaving
    case readerDone(Int)
    case writeStarted(whileReading: Bool)
    case updateReturned
    case writeReturned
    case updateInside(Int)
    case updateLeaving(Int)
    case secondUpdateStarted(whileFirstRuns: Bool)
    case submitted(isBarrier: Bool, isSync: Bool)
    case started(isBarrier: Bool, isSync: Bool)
    case transformGiven(Int?)
    case readReturned

    /// What the queue said: a block was asked for, or (`hasStarted`) a block began to run.
    static func submitted(_ submission: InstrumentedQueue.Submission) -> Event {
      submission.hasStarted
        ? .started(isBarrier: submission.isBarrier, isSync: submission.isSync)
        : .submitted(isBarrier: submission.isBarrier, isSync: submission.isSync)
    }

    var isReaderInside: Bool { if case .readerInside = self { true } else { false } }
    var isReaderDone: Bool { if case .readerDone = self { true } else { false } }
    var isWriteStarted: Bool { if case .writeStarted = self { true } else { false } }
    var isSecondUpdateStarted: Bool { if case .secondUpdateStarted = self { true } else { false } }
    var isBarrier: Bool { if case .submitted(true, _) = self { true } else { false } }
    var isBarrierRead: Bool { self == .submitted(isBarrier: true, isSync: true) }
    var isAsync: Bool { if case .submitted(_, false) = self { true } else { false } }
    var isSubmission: Bool { if case .submitted = self { true } else { false } }
    var isStart: Bool { if case .started = self { true } else { false } }
    var isAsyncStart: Bool { if case .started(_, false) = self { true } else { false } }
    var isBarrierStart: Bool { if case .started(true, _) = self { true } else { false } }
    var isReadStarted: Bool { self == .started(isBarrier: false, isSync: true) || self == .started(isBarrier: false, isSync: false) }
    var transformInput: Int?? { if case .transformGiven(let value) = self { value } else { nil } }

    var description: String {
      switch self {
      case .readerInside(let reader): "reader \(reader) inside"
      case .readerLeaving: "reader leaving"
      case .readerDone(let reader): "reader \(reader) done"
      case .writeStarted(let whileReading): "write started\(whileReading ? " while reading" : "")"
      case .updateReturned: "update returned"
      case .writeReturned: "write returned"
      case .updateInside(let update): "update \(update) inside"
      case .updateLeaving(let update): "update \(update) leaving"
      case .secondUpdateStarted(let whileFirstRuns): "update 1 started\(whileFirstRuns ? " while update 0 runs" : "")"
      case .submitted(let isBarrier, let isSync): "\(isSync ? "sync" : "async")\(isBarrier ? " barrier" : "") block"
      case .started(let isBarrier, let isSync): "\(isSync ? "sync" : "async")\(isBarrier ? " barrier" : "") block started"
      case .transformGiven(let value): "transform given \(value.map(String.init) ?? "nil")"
      case .readReturned: "read returned"
      }
    }
  }

  private let condition = NSCondition()
  private var recorded: [Event] = []

  var events: [Event] { condition.withLock { recorded } }

  func record(_ event: Event) {
    condition.withLock {
      recorded.append(event)
      condition.broadcast()
    }
  }

  /// Blocks the calling thread until `predicate` holds for the events so far, and says whether it
  /// did. Only code that never does what the test waits for reaches the safety net.
  @discardableResult
  func wait(until predicate: ([Event]) -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: Double(safetyNet.components.seconds))
    return condition.withLock {
      while !predicate(recorded) {
        if !condition.wait(until: deadline) { return predicate(recorded) }
      }
      return true
    }
  }
}
