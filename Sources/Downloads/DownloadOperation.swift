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

// Given — the priority an `Operation` understands.
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
    // TODO: limit it to `maxConcurrent`, at least 1 (placeholder: a queue with no limit).
    OperationQueue()
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
  // Guards the fields below; send KVO notifications outside the lock.
  private let lock = NSLock()
  private var outcome: Result<Void, any Error>?

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
  }

  /// How the transfer ended; nil until the operation is finished, and set before `isFinished`
  /// turns true, so an operation that depends on this one (or a completion block) can read it.
  /// An operation cancelled before
  /// it started ends with `CancellationError`; one cancelled while running ends as its transfer
  /// does (with `CancellationError` from a cancelled wait, or success if it finished anyway).
  public var result: Result<Void, any Error>? { lock.withLock { outcome } }

  override public func main() {
    // TODO: replace this `main` with an asynchronous `start` that reports isExecuting and isFinished.
    lock.withLock { outcome = .failure(NotImplemented("DownloadOperation.start")) }
  }
}
