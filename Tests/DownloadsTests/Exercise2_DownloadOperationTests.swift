import Foundation
import Testing
import WorkbookTesting

@testable import Downloads

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

  @Test("the operation is executing while its transfer runs and finished only when the transfer ended")
  func finishedOnlyWhenTheTransferEnded() async throws {
    let clock = ManualClock()
    let running = Concurrency()
    let queue = DownloadQueue.make()
    let download = operation("download", clock: clock, running: running)
    let afterwards = operation("afterwards", seconds: 0, clock: clock, running: running)
    afterwards.addDependency(download)
    for operation in [download, afterwards] { queue.addOperation(operation) }
    let asleep = await eventually { clock.sleepers == 1 || download.isFinished }
    try requireAsleep(asleep, download)
    #expect(download.isExecuting, "while its transfer runs the operation must report isExecuting")
    #expect(
      !download.isFinished,
      "the transfer is still running: an asynchronous operation must not be finished when start() returns")
    #expect(running.started == ["download"], "a dependent operation must wait until the transfer really ended")
    await clock.advance(by: .seconds(1))
    let done = await eventually { download.isFinished && afterwards.isFinished }
    #expect(
      done,
      "after the transfer ended the operation must send willChange/didChange for isFinished, or the queue never moves on")
    #expect(!download.isExecuting, "a finished operation is no longer executing")
    try requireSuccess(download, "the download")
    #expect(running.started == ["download", "afterwards"], "the dependent operation runs after the transfer")
    let dropped = await eventually { queue.operationCount == 0 }
    #expect(dropped, "the queue drops finished operations (it still holds \(queue.operationCount))")
  }

  func requireAsleep(_ asleep: Bool, _ operation: DownloadOperation) throws {
    if !asleep, case .failure(let error)? = operation.result { throw error }
    try #require(asleep, "the operation's transfer should have started and be waiting")
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
      let asleep = await eventually { clock.sleepers == 3 || operations.allSatisfy(\.isFinished) }
      try requireAsleep(asleep, operations[0])
      for _ in 0..<50 { await Task.yield() }
      #expect(running.now == 3, "round \(round): exactly 3 transfers should run, \(running.now) do")
      await clock.advance(by: .seconds(1))
    }
    let done = await eventually { operations.allSatisfy(\.isFinished) }
    #expect(done, "all 9 operations should finish")
    #expect(running.peak == 3, "never more than 3 transfers at once, saw \(running.peak)")
    for operation in operations { try requireSuccess(operation, "every operation") }
  }

  @Test("ready operations start in order of queue priority")
  func queuePriorityOrdersTheWork() async throws {
    let clock = ManualClock()
    let running = Concurrency()
    let queue = DownloadQueue.make(maxConcurrent: 1)
    queue.isSuspended = true
    let operations = [
      operation("low", seconds: 0, clock: clock, running: running, priority: .low),
      operation("normal", seconds: 0, clock: clock, running: running, priority: .normal),
      operation("high", seconds: 0, clock: clock, running: running, priority: .high),
    ]
    #expect(operations[2].queuePriority == .high, "a high download should have a high queuePriority")
    for operation in operations { queue.addOperation(operation) }
    queue.isSuspended = false
    let done = await eventually { operations.allSatisfy(\.isFinished) }
    #expect(done, "all three operations should finish")
    for operation in operations { try requireSuccess(operation, "every operation") }
    #expect(running.started == ["high", "normal", "low"], "one at a time, highest queue priority first; got \(running.started)")
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
    let asleep = await eventually { clock.sleepers == 1 || download.isFinished }
    try requireAsleep(asleep, download)
    download.cancel()
    let stopped = await eventually { clock.sleepers == 0 && download.isFinished }
    #expect(stopped, "cancel() must cancel the transfer's task (its sleep ends at once) and then finish the operation")
    guard case .failure(let error)? = download.result else {
      Issue.record("a cancelled transfer should end with an error, got \(String(describing: download.result))")
      return
    }
    #expect(error is CancellationError, "the transfer was stopped by cancellation, got \(error)")
    let nextDone = await eventually { next.isFinished }
    #expect(nextDone, "the slot of the cancelled operation must go to the next one")
  }

  @Test("an operation cancelled before it started never runs its transfer, and still finishes")
  func cancelledBeforeStart() async throws {
    let clock = ManualClock()
    let running = Concurrency()
    let queue = DownloadQueue.make()
    queue.isSuspended = true
    let download = operation("download", seconds: 0, clock: clock, running: running)
    let dependent = operation("dependent", seconds: 0, clock: clock, running: running)
    dependent.addDependency(download)
    for operation in [download, dependent] { queue.addOperation(operation) }
    download.cancel()
    queue.isSuspended = false
    let done = await eventually { download.isFinished && dependent.isFinished }
    #expect(done, "a cancelled operation must still become finished, or the queue keeps it (and its dependents) forever")
    #expect(!running.started.contains("download"), "a cancelled operation must not start its transfer")
    #expect(running.started.contains("dependent"), "a dependency that was cancelled still counts as done")
    // The queue removes finished operations on its own thread, a moment after they finish.
    let drained = await eventually { queue.operationCount == 0 }
    #expect(drained, "nothing should be left in the queue; \(queue.operationCount) operations are")
  }
}
