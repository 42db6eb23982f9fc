// Exercise 5 — Reentrancy: create each value once (advanced)
//
// An actor runs one method at a time only between suspension points. At every `await` inside a
// method, other callers get in. So "if missing, await the factory, then store" lets 100 callers
// all see "missing" and all run the factory. Fix it by remembering the work in flight before the
// first suspension, and letting later callers wait for that work instead of starting their own.
import Workbook

/// A store that creates each missing value once, however many callers ask for it at the same time.
///
/// A failed creation reaches every caller that was waiting for it and is not remembered: the next
/// call runs the factory again. Callers of a key in flight share one task.
public actor SingleFlightStore<Key: Hashable & Sendable, Value: Sendable> {
  // TODO: add the state you need: what is stored, and what is being created right now.

  public init() {}

  /// The value for `key`, created by `factory` when there is none yet.
  ///
  /// While one creation is running, every other caller for the same key waits for it rather than
  /// starting a second one. If `factory` throws, every waiter gets the error and the key is left
  /// empty, so the next call tries again.
  ///
  /// Cancelling a caller, even the one whose call started the creation, does not cancel the
  /// creation: the factory runs on for the callers still waiting, and its value is stored. The
  /// cancelled caller itself may either wait and return the value or throw `CancellationError` at
  /// once: your choice, no test depends on it.
  public func value(
    for key: Key, orCreate factory: @escaping @Sendable () async throws -> Value
  ) async throws -> Value {
    // TODO: return the stored value, join a creation in flight, or start one before any await.
    throw NotImplemented("SingleFlightStore.value(for:orCreate:)")
  }

  /// The value for `key` if it has been created.
  public func cachedValue(for key: Key) -> Value? {
    // TODO: return the value created for `key`, if any (placeholder: nil).
    nil
  }

  /// Forgets `key`, so the next call creates it again. A creation in flight is left to finish
  /// for its waiters, but its result is not stored.
  public func remove(_ key: Key) {
    // TODO: forget `key`, so a creation in flight is not stored (this empty body forgets nothing).
  }
}
