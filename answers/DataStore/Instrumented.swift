// Given — the lock of exercise 3 and the queue of exercise 4, each with a hook for the tests.
// Nothing to write here: use them exactly as you would use a `Mutex` and a `DispatchQueue`.
import Dispatch
import Synchronization

/// A `Mutex` that lets a test step in each time it is unlocked.
///
/// `withLock` is `Mutex.withLock`: it hands you the protected value, locked, for the length of the
/// closure. The one addition is `afterUnlock`, which runs on the unlocking thread right after
/// every `withLock` returns, outside the lock. The app passes nothing, so it costs one branch. A
/// test passes a closure and acts at exactly the moments another thread could: between one
/// critical section and the next. Whatever a caller splits across two `withLock` calls, a test
/// can get in between.
struct InstrumentedMutex<Value: ~Copyable>: ~Copyable, Sendable {
  private let mutex: Mutex<Value>
  private let afterUnlock: (@Sendable () -> Void)?

  init(_ initialValue: consuming sending Value, afterUnlock: (@Sendable () -> Void)? = nil) {
    mutex = Mutex(initialValue)
    self.afterUnlock = afterUnlock
  }

  /// Runs `body` with the value, locked; then, unlocked, the test's hook if there is one.
  borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    defer { afterUnlock?() }
    return try mutex.withLock(body)
  }
}

/// A concurrent `DispatchQueue` that tells a test what it was asked to run.
///
/// `sync` and `async` are `DispatchQueue`'s. The one addition is `onSubmit`, called with every
/// request: for `sync` just before the caller waits, for `async` once the block is on the queue.
/// The app passes nothing. A test learns from it, for example, that a write is queued behind a
/// read in progress, so the read can end there instead of after a guessed while.
final class InstrumentedQueue: Sendable {
  /// One request made of the queue.
  struct Submission: Sendable {
    /// Whether it carries `.barrier`: it waits for the blocks before it and runs alone.
    let isBarrier: Bool
    /// Whether the caller waits for it (`sync`) rather than going on at once (`async`).
    let isSync: Bool
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
    onSubmit?(Submission(isBarrier: flags.contains(.barrier), isSync: true))
    return try queue.sync(flags: flags, execute: work)
  }

  /// Queues `work` and returns at once; with `.barrier`, it runs alone once the blocks before it
  /// have finished, and holds back the blocks queued after it.
  func async(flags: DispatchWorkItemFlags = [], execute work: @escaping @Sendable @convention(block) () -> Void) {
    queue.async(flags: flags, execute: work)
    onSubmit?(Submission(isBarrier: flags.contains(.barrier), isSync: false))
  }
}
