// Given to every chapter: a `Mutex` with a hook for the tests. Chapter 1's `LockedStore` and
// chapter 2's `Observable` keep their state in one. Use it exactly as you would use a `Mutex`.
import Synchronization

/// A `Mutex` that lets a test step in each time it is unlocked.
///
/// `withLock` is `Mutex.withLock`: it hands you the protected value, locked, for the length of the
/// closure. The one addition is `afterUnlock`, which runs on the unlocking thread right after
/// every `withLock` returns, outside the lock. The app passes nothing, so it costs one branch. A
/// test passes a closure and acts at exactly the moments another thread could: between one
/// critical section and the next. Whatever a caller splits across two `withLock` calls, a test
/// can get in between (WorkbookTesting's `Intruder` does it).
public struct InstrumentedMutex<Value: ~Copyable>: ~Copyable, Sendable {
  private let mutex: Mutex<Value>
  private let afterUnlock: (@Sendable () -> Void)?

  public init(_ initialValue: consuming sending Value, afterUnlock: (@Sendable () -> Void)? = nil) {
    mutex = Mutex(initialValue)
    self.afterUnlock = afterUnlock
  }

  /// Runs `body` with the value, locked; then, unlocked, the test's hook if there is one.
  public borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    defer { afterUnlock?() }
    return try mutex.withLock(body)
  }
}
