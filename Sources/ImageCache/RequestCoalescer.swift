// Exercise 5 — Coalescing with per-waiter cancellation (advanced)
//
// When 1,000 cells ask for the same URL, fetch it once. Keep one "flight" per key: the shared
// work runs in its own unstructured task, and each caller waits on a continuation of its own.
// A caller that is cancelled gets `CancellationError` at once while the others keep waiting; the
// shared work is cancelled only when the last waiter leaves. Tag each flight with an id, so a
// flight that finishes (or is abandoned) late never removes a newer flight for the same key.
import Workbook

/// Runs at most one operation per key at a time and hands its result to every caller waiting
/// for that key.
///
/// Joining a flight is O(1). Cancellation is per waiter: cancelling one caller's task ends that
/// caller's wait only. The shared work is cancelled when, and only when, every waiter has gone.
public actor RequestCoalescer<Key: Hashable & Sendable, Value: Sendable> {
  // TODO: add your state: one flight per key (an id, the shared task, and a continuation per
  // waiter), and a counter for ids.

  public init() {}

  /// The result of `operation` for `key`, shared with every other caller for `key` that
  /// arrives before it finishes. Throws `CancellationError` as soon as the caller is cancelled.
  public func value(for key: Key, operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
    // TODO: join or start the key's flight, wait with a continuation that this caller can cancel.
    throw NotImplemented("RequestCoalescer.value(for:operation:)")
  }

  /// Whether an operation for `key` is running.
  // TODO: whether a flight exists for `key` (placeholder: false).
  public func isInFlight(_ key: Key) -> Bool { false }

  /// How many callers are waiting for `key` right now.
  // TODO: the waiters of the key's flight (placeholder: 0).
  public func waiterCount(for key: Key) -> Int { 0 }
}
