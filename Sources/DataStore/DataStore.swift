// Exercise 1 — The actor store (beginner)
//
// Write a key-value store that any number of tasks can use at once. An actor runs one of its
// methods at a time, so the dictionary inside needs no lock: the compiler checks that nobody
// touches it from outside.
//
// Make every method below do what its comment says, then run `make chapter-1`.
import Workbook

/// A key-value store that is safe to share between tasks.
///
/// Every operation is O(1) on average except `snapshot()` and `replaceAll(with:)`, which copy
/// (copy-on-write makes the copy itself O(1) until somebody writes).
public actor DataStore<Key: Hashable & Sendable, Value: Sendable> {
  /// Everything stored. Internal rather than private so that the extension in
  /// `DataStore+Update.swift` (another file) can use it too.
  var storage: [Key: Value]

  /// A store that starts with `initial`.
  public init(_ initial: [Key: Value] = [:]) {
    storage = initial
  }

  /// The value stored for `key`, or nil.
  public func get(_ key: Key) -> Value? {
    // TODO: look `key` up in `storage` (the nil below is a placeholder).
    nil
  }

  /// Stores `value` for `key`, replacing what was there.
  public func set(_ value: Value, for key: Key) {
    // TODO: store `value` under `key` (this empty body stores nothing).
  }

  /// Removes the value for `key` and returns it, or nil when there was none.
  @discardableResult
  public func remove(_ key: Key) -> Value? {
    // TODO: take the value out of `storage` and return it (placeholder: nil).
    nil
  }

  /// Whether a value is stored for `key`.
  public func contains(_ key: Key) -> Bool {
    // TODO: say whether `storage` has `key` (placeholder: false).
    false
  }

  /// How many keys have a value.
  public var count: Int {
    // TODO: count the stored keys (placeholder: 0).
    0
  }

  /// Removes every value.
  public func removeAll() {
    // TODO: empty `storage` (this empty body removes nothing).
  }

  /// A copy of everything, taken at one instant: no write can land halfway through it.
  public func snapshot() -> [Key: Value] {
    // TODO: return a copy of `storage` (placeholder: empty).
    [:]
  }

  /// Replaces the whole content with `values` in one step: nobody sees a mix of old and new.
  public func replaceAll(with values: [Key: Value]) {
    // TODO: swap in `values` in one assignment (this empty body changes nothing).
  }
}
