// Exercise 2 — Atomic update (beginner)
//
// `let n = await store.get(k); await store.set(n + 1, for: k)` loses increments: between the two
// awaits another task can read the same old value. Write `update`, which reads, transforms and
// writes inside one actor turn, with no suspension point in between.
import Workbook

extension DataStore {
  /// Replaces the value for `key` with `transform(current)` in one step and returns the new value.
  ///
  /// `transform` receives nil when there is no value; returning nil removes the key. If
  /// `transform` throws, the store is left as it was and the error reaches the caller.
  @discardableResult
  public func update(
    _ key: Key, _ transform: @Sendable (Value?) throws -> Value?
  ) rethrows -> Value? {
    // TODO: read, transform and write back with no `await` between (placeholder: nil).
    // `rethrows` only lets this function throw what `transform` throws, so there is no
    // "not implemented" error here: it returns nil until you write it.
    nil
  }
}
