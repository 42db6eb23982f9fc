import Foundation
import Testing
import WorkbookTesting

@testable import Downloads

/// An `OperationQueue` starts its operations on threads of its own, which `settle()` cannot see,
/// so every wait for the queue is `.threads`. Once an operation's `start()` has returned, its
/// transfer runs on Swift tasks alone: a test that calls `start()` itself knows that moment, and
/// waits for the transfer with `.tasks`.
@Suite("Exercise 2 — The OperationQueue way", .timeLimit(.minutes(1)))
struct Exercise2_DownloadOperationTests {
  /// An operation whose transfer sleeps `seconds` on `clock` (so the test decides when it ends)
  /// and records itself in `running` while it runs.
  func operation(
    _ name: String, seconds: Int = 1, clock: ManualClock, running: Concurrency, priority: DownloadPriority = .normal
  ) -> DownloadOperation {
    DownloadOperation(priority: priority) {
      running.enter(name)
      defer { running.leave() }
      try await clock.sleep(for: .seconds(seconds))
    }
  }

  /// Fails the test with the operation's error if it reported one (such as "not implemented").
  func requireSuccess(_ operation: DownloadOperation, _ what: String) throws {
    if case .failure(let error)? = operation.result { throw error }
    #expect(operation.result != nil, "\(what) should have a result once it is finished")
  }

  /// Rethrows the error the operation ended with, if it ended with one (such as "not implemented").
  func rethrowFailure(_ operation: DownloadOperation) throws {
    if case .failure(let error)? = operation.result, !(error is CancellationError) { throw error }
  }

  func requireAsleep(_ asleep: Bool, _ operation: DownloadOperation) throws {
    if !asleep { try rethrowFailure(operation) }
    try #require(asleep, "the operation's transfer should have started and be waiting")
  }

  /// Whether any of `operations` ended with an error: a wait for them can stop there.
  func anyFailed(_ operations: [DownloadOperation]) -> Bool {
    operations.contains {
      if case .failure? = $0.result { return true }
      return false
    }
  }

  @Test("the operation is executing while its transfer runs and finished only when the transfer ended")
  func finishedOnlyWhenTheTransferEnded() async throws {
    let clock = ManualClock()
    let running = Concurrency()
    // Started by hand, so the checks below are made after start() has returned, for sure.
    let download = operation("download", clock: clock, running: running)
    download.start()
    try rethrowFailure(download)
    #expect(download.isExecuting, "once start() has returned, while its transfer runs, the operation must report isExecuting")
    #expect(
      !download.isFinished,
      "the transfer is still running: an asynchronous operation must not be finished when start() returns")
    let asleep = await clock.waitForSleepers(1, giveUp: { download.isFinished })
    try requireAsleep(asleep, download)
    #expect(!download.isFinished, "the transfer waits on the clock, so the operation must not be finished yet")
    await clock.advance(by: .seconds(1))
    #expect(download.isFinished, "the transfer ended: the operation must now be finished")
    #expect(!download.isExecuting, "a finished operation is no longer executing")
    try requireSuccess(download, "the download")

    // In a queue, an operation that depends on a download starts only when its transfer ended.
    let queue = DownloadQueue.make()
    let first = operation("first", clock: clock, running: running)
    let afterwards = operation("afterwards", seconds: 0, clock: clock, running: running)
    afterwards.addDependency(first)
    for operation in [first, afterwards] { queue.addOperation(operation) }
    let started = await clock.waitForSleepers(1, .threads, giveUp: { first.isFinished })
    try requireAsleep(started, first)
    #expect(
      running.started == ["download", "first"],
      "a dependent operation must wait until the transfer really ended; started \(running.started)")
    await clock.advance(by: .seconds(1))
    let done = await eventually(.threads) { first.isFinished && afterwards.isFinished }
    #expect(
      done,
      "after the transfer ended the operation must send willChange/didChange for isFinished, or the queue never moves on")
    try requireSuccess(first, "the download")
    #expect(
      running.started == ["download", "first", "afterwards"], "the dependent operation runs after the transfer")
    // The queue removes finished operations on its own thread, a moment after they finish.
    let dropped = await eventually(.threads) { queue.operationCount == 0 }
    #expect(dropped, "the queue drops finished operations (it still holds \(queue.operationCount))")
  }

  @Test("at most 3 operations run at once, and all of them finish")
  func atMostThreeAtOnce() async throws {
    let clock = ManualClock()
    let running = Concurrency()
    let queue = DownloadQueue.make()
    #expect(queue.maxConcurrentOperationCount == 3, "downloads run at most 3 at once by default")
    let operations = (0..<9).map { operation("op\($0)", clock: clock, running: running) }
    for operation in operations { queue.addOperation(operation) }
    for round in 0..<3 {
      // Three transfers wait on the clock, and the three before them have finished. A fourth
      // transfer on the clock, or an operation that failed, ends the wait at once.
      let three = await eventually(.threads, giveUp: { clock.sleepers > 3 || anyFailed(operations) }) {
        clock.sleepers == 3 && operations.filter(\.isFinished).count == 3 * round
      }
      if !three { for operation in operations { try rethrowFailure(operation) } }
      #expect(
        three && running.now == 3,
        "round \(round): exactly 3 transfers should run while none of them has ended; \(running.now) do, \(operations.filter(\.isFinished).count) operations are finished"
      )
      try #require(three, "round \(round): the queue should run 3 operations at a time, each until its transfer ends")
      await clock.advance(by: .seconds(1))
    }
    let done = await eventually(.threads) { operations.allSatisfy(\.isFinished) }
    #expect(done, "all 9 operations should finish")
    #expect(running.peak == 3, "never more than 3 transfers at once, saw \(running.peak)")
    for operation in operations { try requireSuccess(operation, "every operation") }
  }

  @Test("ready operations start in order of queue priority")
  func queuePriorityOrdersTheWork() async throws {
    let clock = ManualClock()
    let running = Concurrency()
    let gate = Gate()
    let queue = DownloadQueue.make(maxConcurrent: 1)
    // The one slot is taken by a transfer held at the gate while three more become ready, in
    // the order low, normal, high: when the slot frees up, the queue picks among all three.
    let first = DownloadOperation(priority: .low) {
      running.enter("first")
      defer { running.leave() }
      await gate.pass()
    }
    queue.addOperation(first)
    let holding = await gate.arrivals(1, .threads, giveUp: { first.isFinished })
    try requireAsleep(holding, first)
    let operations = [
      operation("low", seconds: 0, clock: clock, running: running, priority: .low),
      operation("normal", seconds: 0, clock: clock, running: running, priority: .normal),
      operation("high", seconds: 0, clock: clock, running: running, priority: .high),
    ]
    #expect(operations[2].queuePriority == .high, "a high download should have a high queuePriority")
    for operation in operations { queue.addOperation(operation) }
    #expect(running.started == ["first"], "the queue has one slot, and the first transfer holds it")
    gate.open()
    let done = await eventually(.threads, giveUp: { anyFailed(operations) }) { operations.allSatisfy(\.isFinished) }
    for operation in operations { try requireSuccess(operation, "every operation") }
    #expect(done, "all three operations should finish")
    #expect(
      running.started == ["first", "high", "normal", "low"],
      "one at a time, highest queue priority first once the slot is free; got \(running.started)")
  }

  @Test("the operation says it is asynchronous, and the queue runs at least one at a time")
  func asynchronousAndAtLeastOne() {
    let download = DownloadOperation(priority: .high) {}
    #expect(download.isAsynchronous, "a download finishes after start() returns: isAsynchronous must be true")
    #expect(download.queuePriority == .high, "a .high download should have a .high queuePriority")
    let queue = DownloadQueue.make(maxConcurrent: 0)
    #expect(
      queue.maxConcurrentOperationCount == 1,
      "a limit of 0 would never run anything: make clamps it to 1, got \(queue.maxConcurrentOperationCount)")
  }

  @Test("cancelling a running operation stops its transfer and finishes the operation")
  func cancelStopsTheTransfer() async throws {
    let clock = ManualClock()
    let running = Concurrency()
    let queue = DownloadQueue.make(maxConcurrent: 1)
    let download = operation("download", seconds: 60, clock: clock, running: running)
    let next = operation("next", seconds: 0, clock: clock, running: running)
    for operation in [download, next] { queue.addOperation(operation) }
    let asleep = await clock.waitForSleepers(1, .threads, giveUp: { download.isFinished })
    try requireAsleep(asleep, download)
    // What cancel() sets in motion runs on Swift tasks: the transfer's sleep ends, the operation
    // finishes. Or nothing happens, and the wait ends as soon as everything is parked.
    download.cancel()
    let stopped = await eventually { clock.sleepers == 0 && download.isFinished }
    #expect(stopped, "cancel() must cancel the transfer's task (its sleep ends at once) and then finish the operation")
    guard case .failure(let error)? = download.result else {
      Issue.record("a cancelled transfer should end with an error, got \(String(describing: download.result))")
      await clock.run()
      return
    }
    #expect(error is CancellationError, "the transfer was stopped by cancellation, got \(error)")
    let nextDone = await eventually(.threads) { next.isFinished }
    #expect(nextDone, "the slot of the cancelled operation must go to the next one")
  }

  @Test("a cancel() that arrives while start() stores its task still stops the transfer")
  func cancelWhileStartStoresItsTask() async throws {
    let clock = ManualClock()
    let running = Concurrency()
    let hooked = Counter()
    // The operation is cancelled from inside start(): after start() checked isCancelled and made
    // the transfer's task, before it stored the task. That cancel() finds no task to cancel.
    let download = DownloadOperation(
      priority: .normal,
      beforeStoringTask: { operation in
        hooked.increment()
        operation.cancel()
      }
    ) {
      running.enter("download")
      defer { running.leave() }
      try await clock.sleep(for: .seconds(60))
    }
    download.start()
    try rethrowFailure(download)
    try #require(
      hooked.value == 1,
      "start() should call beforeStoringTask(self) once, between making the transfer's task and storing it (it was called \(hooked.value) times): that is where this test cancels"
    )
    let stopped = await eventually { download.isFinished }
    #expect(
      stopped,
      "cancel() came after start() had checked isCancelled and before it stored its task, so cancel() could not reach the task: start() must check isCancelled again once the task is stored, and cancel it"
    )
    if !stopped {
      await clock.run()
      return
    }
    guard case .failure(let error)? = download.result else {
      Issue.record("a cancelled transfer should end with an error, got \(String(describing: download.result))")
      return
    }
    #expect(error is CancellationError, "the transfer was stopped by cancellation, got \(error)")
    #expect(clock.sleepers == 0, "the cancelled transfer must not be left waiting")
  }

  @Test("an operation cancelled before it started never runs its transfer, and still finishes")
  func cancelledBeforeStart() async throws {
    let clock = ManualClock()
    let running = Concurrency()
    // Started by hand: start() must finish a cancelled operation before it returns.
    let alone = operation("alone", seconds: 0, clock: clock, running: running)
    alone.cancel()
    alone.start()
    #expect(!running.started.contains("alone"), "a cancelled operation must not start its transfer")
    try #require(
      alone.isFinished,
      "an operation cancelled before it started must finish in start(): a queue keeps an operation until it is finished, and its dependents wait for it forever"
    )
    guard case .failure(let error)? = alone.result, error is CancellationError else {
      Issue.record(
        "an operation cancelled before it started ends with CancellationError, got \(String(describing: alone.result))")
      return
    }

    // In a queue, the operations that depend on it still run.
    let queue = DownloadQueue.make()
    queue.isSuspended = true
    let download = operation("download", seconds: 0, clock: clock, running: running)
    let dependent = operation("dependent", seconds: 0, clock: clock, running: running)
    dependent.addDependency(download)
    for operation in [download, dependent] { queue.addOperation(operation) }
    download.cancel()
    queue.isSuspended = false
    let done = await eventually(.threads) { download.isFinished && dependent.isFinished }
    #expect(done, "a cancelled operation must still become finished, or the queue keeps it (and its dependents) forever")
    #expect(!running.started.contains("download"), "a cancelled operation must not start its transfer")
    #expect(running.started.contains("dependent"), "a dependency that was cancelled still counts as done")
    // The queue removes finished operations on its own thread, a moment after they finish.
    let drained = await eventually(.threads) { queue.operationCount == 0 }
    #expect(drained, "nothing should be left in the queue; \(queue.operationCount) operations are")
  }

  /// An operation that depends on a download and reads the download's `result` the moment the
  /// queue may run it: in `isReady`, which a queue asks as soon as the dependency has said it is
  /// finished (on the thread that said so), and again in `main`.
  final class ResultReader: Operation, @unchecked Sendable {
    let download: DownloadOperation
    private let lock = NSLock()
    private var seen: [Result<Void, any Error>?] = []

    init(reading download: DownloadOperation) {
      self.download = download
      super.init()
      addDependency(download)
    }

    override var isReady: Bool {
      let ready = super.isReady
      if ready { record() }
      return ready
    }

    override func main() { record() }

    private func record() {
      let result = download.result
      lock.withLock { seen.append(result) }
    }

    /// Each `result` read, in order.
    var readings: [Result<Void, any Error>?] { lock.withLock { seen } }
  }

  @Test(
    "an operation that depends on a download finds its result set as soon as it may run",
    arguments: ["finished", "cancelled before it started"])
  func aDependentReadsTheResult(ending: String) async throws {
    let clock = ManualClock()
    let running = Concurrency()
    let queue = DownloadQueue.make()
    let download = operation("download", clock: clock, running: running)
    let reader = ResultReader(reading: download)
    if ending == "finished" {
      for operation in [download, reader] { queue.addOperation(operation) }
      let asleep = await eventually(.threads) { clock.sleepers == 1 || download.isFinished }
      try requireAsleep(asleep, download)
      await clock.advance(by: .seconds(1))
    } else {
      download.cancel()
      for operation in [download, reader] { queue.addOperation(operation) }
    }
    let done = await eventually(.threads) { reader.isFinished }
    try rethrowFailure(download)
    #expect(done, "the dependent operation should run once the download is finished")
    let readings = reader.readings
    #expect(!readings.isEmpty, "the dependent should have read the download's result")
    #expect(
      readings.allSatisfy { $0 != nil },
      "a dependent that read the result once the download said it was finished found nil \(readings.filter { $0 == nil }.count) of \(readings.count) times: set the result before isFinished turns true"
    )
  }

  @Test("an operation cancelled while its transfer runs, whose transfer finishes anyway, ends in success")
  func aTransferThatFinishesDespiteTheCancelSucceeds() async throws {
    let hold = Gate()
    let running = Concurrency()
    // A transfer that does not check for cancellation: it waits at the gate, then returns.
    let download = DownloadOperation {
      running.enter("download")
      defer { running.leave() }
      await hold.pass()
    }
    let queue = DownloadQueue.make()
    queue.addOperation(download)
    let arrived = await hold.arrivals(1, .threads, giveUp: { download.isFinished })
    if !arrived { try rethrowFailure(download) }
    try #require(arrived, "the operation's transfer should have started")
    download.cancel()
    hold.open()
    let done = await eventually(.threads) { download.isFinished }
    #expect(done, "the operation should finish once its transfer has returned")
    guard case .success? = download.result else {
      Issue.record(
        "the transfer returned normally after the cancel: the operation ends as its transfer did, in success, got \(String(describing: download.result))"
      )
      return
    }
  }
}
