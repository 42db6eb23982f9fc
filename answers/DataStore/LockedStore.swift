// Exercise 3 — A lock-based store with transactions (intermediate)
//
// Not every caller can `await`: a synchronous API (a property wrapper, a C callback, code that
// must answer now) needs a lock instead of an actor. `Mutex` from the Synchronization module is
// the lock the standard library ships; it hands you its protected value only inside `withLock`.
//
// Implement every method, including `transaction`: several keys read and changed as one step,
// all or nothing. `storage` is a `Mutex` with a hook for the tests (given: `InstrumentedMutex`, in
// `Support/Workbook/InstrumentedMutex.swift`): use it exactly as a `Mutex`.
import Synchronization
import Workbook

/// A synchronous, thread-safe key-value store guarded by one `Mutex`.
///
/// A get or a set holds the lock for O(1) work; `snapshot()` and `transaction(_:)` hold it for
/// as long as their copy or body takes: keep transaction bodies short.
public nonisolated final class LockedStore<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  private let storage: InstrumentedMutex<[Key: Value]>

  public init(_ initial: [Key: Value] = [:]) {
    storage = InstrumentedMutex(initial)
  }

  /// A store whose lock calls `afterUnlock` each time it is released: the tests' way in between
  /// two critical sections (see `InstrumentedMutex`).
  init(_ initial: [Key: Value] = [:], afterUnlock: @escaping @Sendable () -> Void) {
    storage = InstrumentedMutex(initial, afterUnlock: afterUnlock)
  }

  /// The value stored for `key`, or nil.
  public func get(_ key: Key) -> Value? {
    storage.withLock { $0[key] }
  }

  /// Stores `value` for `key`.
  public func set(_ value: Value, for key: Key) {
    storage.withLock { $0[key] = value }
  }

  /// Removes the value for `key` and returns it, or nil when there was none.
  @discardableResult
  public func remove(_ key: Key) -> Value? {
    storage.withLock { $0.removeValue(forKey: key) }
  }

  /// How many keys have a value.
  public var count: Int {
    storage.withLock { $0.count }
  }

  /// A consistent copy of everything.
  public func snapshot() -> [Key: Value] {
    storage.withLock { $0 }
  }

  /// Reads and changes any number of keys as one atomic step.
  ///
  /// `body` works on a copy of the contents; the copy replaces the contents only when `body`
  /// returns. If it throws, nothing changes: a transfer that fails halfway leaves both accounts
  /// as they were. Other threads wait for the whole body, so never block or call back into this
  /// store inside it: the lock is not reentrant, and SE-0433 leaves a nested `withLock` to the
  /// platform, which may stop the process, deadlock, or leave the outcome unspecified.
  public func transaction<Result: Sendable>(
    _ body: (inout [Key: Value]) throws -> Result
  ) rethrows -> Result {
    try storage.withLock { contents in
      var draft = contents
      let result = try body(&draft)
      contents = draft
      return result
    }
  }
}
