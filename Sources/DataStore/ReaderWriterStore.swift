// Exercise 4 — Readers in parallel, writers alone (intermediate)
//
// Before actors, the usual thread-safe store was a concurrent `DispatchQueue`: reads run with
// `sync`, side by side; writes run with the `.barrier` flag, which waits for the reads already
// running and holds back the ones queued after it. Write it, and see what each flag buys.
// `queue` is a concurrent `DispatchQueue` with a hook for the tests (given, `Instrumented.swift`):
// use it exactly as a `DispatchQueue`.
import Dispatch
import Workbook

/// A thread-safe store whose readers run in parallel and whose writers run alone.
///
/// Reads are synchronous and concurrent; writes are asynchronous barriers, so a writer never
/// waits for its own write to finish, nor for the reads in progress, yet any later read from the
/// same caller sees it (the queue runs the barrier before the read that was queued after it).
public nonisolated final class ReaderWriterStore<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
  // @unchecked: `storage` is only touched on `queue`, reads with sync and writes with barriers.
  private var storage: [Key: Value]
  private let queue: InstrumentedQueue

  public init(_ initial: [Key: Value] = [:], label: String = "ReaderWriterStore") {
    storage = initial
    queue = InstrumentedQueue(label: label)
  }

  /// A store whose queue tells `onSubmit` about every block it is given: how the tests know that
  /// a write is queued behind a read (see `InstrumentedQueue`).
  init(_ initial: [Key: Value] = [:], onSubmit: @escaping @Sendable (InstrumentedQueue.Submission) -> Void) {
    storage = initial
    queue = InstrumentedQueue(label: "ReaderWriterStore", onSubmit: onSubmit)
  }

  /// Runs `body` with the current contents, in parallel with other readers.
  ///
  /// This is the primitive every read is made of; tests use it to prove that reads overlap.
  public func read<Result>(_ body: ([Key: Value]) throws -> Result) rethrows -> Result {
    // TODO: run `body` with `storage` inside `queue.sync` (placeholder: an empty dictionary).
    try body([:])
  }

  /// The value stored for `key`, or nil.
  public func get(_ key: Key) -> Value? {
    // TODO: read `key` through `read` (placeholder: nil).
    nil
  }

  /// A consistent copy of everything.
  public func snapshot() -> [Key: Value] {
    // TODO: copy `storage` through `read` (placeholder: empty).
    [:]
  }

  /// Stores `value` for `key`; returns at once, the write runs as a barrier.
  public func set(_ value: Value, for key: Key) {
    // TODO: write `value` in a `.barrier` block on `queue` (this empty body stores nothing).
  }

  /// Removes the value for `key`; returns at once, the write runs as a barrier.
  public func remove(_ key: Key) {
    // TODO: remove `key` in a `.barrier` block (this empty body removes nothing).
  }

  /// Replaces the value for `key` with `transform(current)` in one barrier: `transform` gets nil
  /// for a missing key, and returning nil removes the key. Returns at once, like `set`.
  public func update(_ key: Key, _ transform: @escaping @Sendable (Value?) -> Value?) {
    // TODO: read, transform and write inside one `.barrier` block (this empty body does nothing).
  }
}
