// Given: the queue of exercise 4, with a hook for the tests (exercise 3's lock,
// `InstrumentedMutex`, is in the Workbook module every chapter shares). Nothing to write here:
// use it exactly as you would use a `DispatchQueue`.
import Dispatch

/// A concurrent `DispatchQueue` that tells a test what it was asked to run.
///
/// `sync` and `async` are `DispatchQueue`'s. The one addition is `onSubmit`, called with every
/// request: for `sync` just before the caller waits, for `async` once the block is on the queue;
/// and called again on the queue as the block starts, before its work (`hasStarted`). The app
/// passes nothing. A test learns from it, for example, that a write is queued behind a read in
/// progress, so the read can end there instead of after a guessed while; and it can hold a block
/// that has started, to make two callers meet on the queue.
nonisolated final class InstrumentedQueue: Sendable {
  /// One request made of the queue.
  struct Submission: Sendable {
    /// Whether it carries `.barrier`: it waits for the blocks before it and runs alone.
    let isBarrier: Bool
    /// Whether the caller waits for it (`sync`) rather than going on at once (`async`).
    let isSync: Bool
    /// False when the request is made; true when the block starts to run on the queue.
    var hasStarted = false
  }

  private let queue: DispatchQueue
  private let onSubmit: (@Sendable (Submission) -> Void)?

  /// A new concurrent queue.
  init(label: String, onSubmit: (@Sendable (Submission) -> Void)? = nil) {
    queue = DispatchQueue(label: label, attributes: .concurrent)
    self.onSubmit = onSubmit
  }

  /// Runs `work` on the queue and waits for it; with `.barrier`, alone.
  func sync<T>(flags: DispatchWorkItemFlags = [], execute work: () throws -> T) rethrows -> T {
    guard let onSubmit else { return try queue.sync(flags: flags, execute: work) }
    let submission = Submission(isBarrier: flags.contains(.barrier), isSync: true)
    onSubmit(submission)
    return try queue.sync(flags: flags) {
      onSubmit(Submission(isBarrier: submission.isBarrier, isSync: true, hasStarted: true))
      return try work()
    }
  }

  /// Queues `work` and returns at once; with `.barrier`, it runs alone once the blocks before it
  /// have finished, and holds back the blocks queued after it.
  func async(flags: DispatchWorkItemFlags = [], execute work: @escaping @Sendable @convention(block) () -> Void) {
    guard let onSubmit else { return queue.async(flags: flags, execute: work) }
    let isBarrier = flags.contains(.barrier)
    queue.async(flags: flags) {
      onSubmit(Submission(isBarrier: isBarrier, isSync: false, hasStarted: true))
      work()
    }
    onSubmit(Submission(isBarrier: isBarrier, isSync: false))
  }
}
