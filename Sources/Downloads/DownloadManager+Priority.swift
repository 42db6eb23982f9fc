// Exercise 8 — Priority meets de-duplication (advanced)
//
// The manager joins callers of one URL (exercise 7); the scheduler runs a few jobs at a time,
// most urgent first (exercise 3). Put them together: each transfer becomes one scheduler job,
// submitted at its caller's priority. When the user taps a file that a prefetch is already
// fetching at `.low`, the tap joins that transfer, and the transfer must not stay behind every
// `.normal` download in the queue: a joiner with a higher priority raises the job's priority.
// When every caller has gone, a transfer still waiting for a slot leaves the queue at once.
//
// The scheduler is another actor, so every call to it is an `await`, and the manager's state
// may have changed when it returns: re-check it there. Implement `runTransfer`, `raisePriority`
// and `priority(of:)`. This builds on exercise 7, and two of the tests run your scheduler
// (exercise 3, on exercise 1's queue).
import Foundation
import Synchronization

/// What the manager needs from a scheduler. `DownloadScheduler` is one; a test can pass another.
///
/// Every call may suspend (`DownloadScheduler` answers at once, but a scheduler the test drives
/// holds a call to force an interleaving): while the manager waits for an answer, its own state
/// may change, as it may across any `await` on another actor.
public protocol TransferScheduling: Actor {
  /// Queues `work` at `priority` and starts it when a slot is free.
  func submit(priority: DownloadPriority, _ work: @escaping @Sendable () async -> Void) async -> JobID
  /// Takes a queued job out of the queue, or cancels a running one.
  func cancel(_ id: JobID) async
  /// Changes a queued job's priority (the manager does not read the answer).
  func changePriority(of id: JobID, to priority: DownloadPriority) async -> Bool
}

extension DownloadScheduler: TransferScheduling {}

extension DownloadManager {
  /// Downloads `url` to `target` as the transfer numbered `id`: at once without a scheduler,
  /// otherwise as one job submitted at `priority`. Cancelling the calling task (the transfer's)
  /// takes a queued job out of the queue or cancels a running one, and throws at once.
  func runTransfer(_ url: URL, id: UInt64, to target: URL, priority: DownloadPriority) async throws -> URL {
    // TODO: submit one job at `priority`, wait for its outcome, leave the queue on cancellation.
    // Placeholder: it downloads at once and ignores the scheduler, so exercise 7 needs none.
    try await downloader.download(url, to: target)
  }

  /// A caller joined `url`'s transfer asking for `priority`: the transfer runs at the highest
  /// priority any of its callers asked for. O(1) here; the change reaches the scheduler in order.
  ///
  /// A caller that asks for the transfer's priority or a lower one changes nothing and sends
  /// nothing (a change is a new arrival in the scheduler's queue: an equal one would send the job
  /// to the back of its line and restart its aging). The priority never goes down, not even when
  /// the caller that raised it leaves: the others keep the place it won.
  func raisePriority(of url: URL, to priority: DownloadPriority) {
    // TODO: raise the transfer's priority and its job's (this empty body changes nothing).
  }

  /// The priority `url`'s transfer runs at, the highest its callers asked for, with or without a
  /// scheduler (without one, nothing waits, and it is only recorded); nil when no transfer of
  /// `url` runs.
  public func priority(of url: URL) -> DownloadPriority? {
    // TODO: the priority the URL's transfer runs at (placeholder: nil).
    nil
  }
}

// Given — call `settle` from the job and from a cancellation handler, `value()` from the transfer.
/// The one result of a scheduled transfer, handed from the scheduler's job to the transfer that
/// waits for it. The first result wins: a cancellation settles it before a job that never ran.
nonisolated final class TransferOutcome: Sendable {
  private enum State {
    case waiting(CheckedContinuation<URL, any Error>?)
    case settled(Result<URL, any Error>)
  }

  private let state = Mutex(State.waiting(nil))

  func settle(_ result: Result<URL, any Error>) {
    let waiter = state.withLock { state -> CheckedContinuation<URL, any Error>? in
      guard case .waiting(let continuation) = state else { return nil }
      state = .settled(result)
      return continuation
    }
    waiter?.resume(with: result)
  }

  func value() async throws -> URL {
    try await withCheckedThrowingContinuation { continuation in
      let ready: Result<URL, any Error>? = state.withLock { state in
        switch state {
        case .waiting:
          state = .waiting(continuation)
          return nil
        case .settled(let result):
          return result
        }
      }
      if let ready { continuation.resume(with: ready) }
    }
  }
}
