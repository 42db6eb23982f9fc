// Exercise 2 — The OperationQueue way (intermediate)
//
// Before Swift concurrency, download managers were built on `OperationQueue`: it limits how many
// operations run, orders ready ones by `queuePriority`, and honours dependencies. A download is
// asynchronous, so the operation must tell the queue itself when it starts and when it is really
// finished, through the `isExecuting` and `isFinished` key paths. Override `start`, `cancel`,
// `isAsynchronous`, `isExecuting` and `isFinished`; set `queuePriority` from the priority given
// to `init`; and make `DownloadQueue.make` limit the queue. In `start`, call the given
// `beforeStoringTask(self)` after making the transfer's task and before storing it, outside the
// lock: it does nothing in an app, and a test cancels the operation there.
import Foundation
import Workbook

nonisolated extension DownloadPriority {
  /// The matching `OperationQueue` priority.
  public var queuePriority: Operation.QueuePriority {
    switch self {
    case .low: .low
    case .normal: .normal
    case .high: .high
    }
  }
}

/// The queue downloads run on.
public nonisolated enum DownloadQueue {
  /// A queue that runs at most `maxConcurrent` operations at once (at least 1).
  public static func make(maxConcurrent: Int = 3) -> OperationQueue {
    let queue = OperationQueue()
    queue.name = "downloads"
    queue.maxConcurrentOperationCount = max(1, maxConcurrent)
    return queue
  }
}

/// An asynchronous operation that runs one transfer in a task.
///
/// It is executing from `start` until the transfer has ended, and finished only then, so the
/// queue's limit, dependencies and `waitUntilFinished` all see the real transfer. `cancel()`
/// cancels the transfer's task; an operation cancelled before it started finishes at once
/// without running the transfer (a queue only removes an operation once it is finished).
public nonisolated final class DownloadOperation: Operation, @unchecked Sendable {
  public typealias Transfer = @Sendable () async throws -> Void

  private let transfer: Transfer
  // Given — a seam for the tests.
  /// `start()` calls it between making the transfer's task and
  /// storing it: the window in which a `cancel()` from another thread finds no task to cancel.
  /// It does nothing in an app; a test cancels the operation from here.
  let beforeStoringTask: @Sendable (DownloadOperation) -> Void
  // Guards the fields below; KVO notifications are sent outside the lock.
  private let lock = NSLock()
  private var executing = false
  private var finished = false
  private var outcome: Result<Void, any Error>?
  private var task: Task<Void, Never>?

  public convenience init(priority: DownloadPriority = .normal, transfer: @escaping Transfer) {
    self.init(priority: priority, beforeStoringTask: { _ in }, transfer: transfer)
  }

  // Given — the initializer with the test seam.
  /// An operation whose `start()` calls `beforeStoringTask`, for the tests.
  init(
    priority: DownloadPriority, beforeStoringTask: @escaping @Sendable (DownloadOperation) -> Void,
    transfer: @escaping Transfer
  ) {
    self.transfer = transfer
    self.beforeStoringTask = beforeStoringTask
    super.init()
    queuePriority = priority.queuePriority
  }

  /// How the transfer ended; nil until the operation is finished, and set before `isFinished`
  /// turns true, so an operation that depends on this one (or a completion block) can read it.
  /// An operation cancelled before
  /// it started ends with `CancellationError`; one cancelled while running ends as its transfer
  /// does (with `CancellationError` from a cancelled wait, or success if it finished anyway).
  public var result: Result<Void, any Error>? { lock.withLock { outcome } }

  override public var isAsynchronous: Bool { true }
  override public var isExecuting: Bool { lock.withLock { executing } }
  override public var isFinished: Bool { lock.withLock { finished } }

  override public func start() {
    if isCancelled {
      finish(.failure(CancellationError()))
      return
    }
    willChangeValue(forKey: "isExecuting")
    lock.withLock { executing = true }
    didChangeValue(forKey: "isExecuting")
    let transfer = transfer
    let task = Task {
      do {
        try await transfer()
        self.finish(.success(()))
      } catch {
        self.finish(.failure(error))
      }
    }
    beforeStoringTask(self)
    lock.withLock { self.task = task }
    // A cancel that arrived before the task was stored could not reach it.
    if isCancelled { task.cancel() }
  }

  override public func cancel() {
    super.cancel()
    lock.withLock { task }?.cancel()
  }

  private func finish(_ result: Result<Void, any Error>) {
    let wasExecuting = lock.withLock { () -> Bool? in
      if finished { return nil }
      outcome = result
      return executing
    }
    guard let wasExecuting else { return }
    if wasExecuting { willChangeValue(forKey: "isExecuting") }
    willChangeValue(forKey: "isFinished")
    lock.withLock {
      executing = false
      finished = true
    }
    didChangeValue(forKey: "isFinished")
    if wasExecuting { didChangeValue(forKey: "isExecuting") }
  }
}
