// Exercise 1 — An observable value with tokens (beginner)
//
// A view model holds a value; screens register a closure and hear about every change. Build the
// registry: `observe` stores the closure and hands back a token, the token removes it again (also
// when it is simply dropped), and every write records a delivery for `deliverPending()` to make.
//
// One lock guards everything: the value, its version, the observers and the pending deliveries.
// (`state` is a `Mutex` with a hook for the tests, given in `InstrumentedMutex.swift`: use it
// exactly as a `Mutex`.)
// A value must be read under the lock that wrote it, or two writers can both start from the same
// old value. Closures are never called while the lock is held: each write and each `observe`
// records its delivery under the lock, then calls `deliverPending()` after releasing it. (The
// given `deliverPending()` is naive; exercise 2 makes it correct.) A new observer's `seen` starts
// at the version current when it registers, so it never gets a change made before it existed.
import Synchronization
import Workbook

/// A value that tells its observers about every change, exactly once each and in order.
///
/// Every write (`value = x` or `update`) is one change. Each observer registered at the time of a
/// change gets that change once, after every earlier change, whichever threads the writes came
/// from; the observers of one change are called in the order they registered. Observers run on
/// the thread that is delivering (usually the writer's); exercise 3 adds delivery on a queue or on
/// the main actor.
///
/// Reading the value is O(1) under the lock. A write costs O(1) under the lock plus one call per
/// observer, made outside the lock.
public nonisolated final class Observable<Value: Sendable>: Sendable {
  public typealias Handler = @Sendable (Value) -> Void

  // Given — the records the lock guards; you fill them in, you need not change them.
  /// One registered observer.
  struct Entry {
    let id: Int
    let handler: Handler
    /// The version of the newest value this observer has been given, or that was current when it
    /// registered: it must never be given an older or equal version again.
    var seen: Int
  }

  /// One delivery waiting for its turn.
  struct Delivery {
    /// The version the change produced (for a first call, the version current at registration).
    let version: Int
    /// The value as written under the lock: observers get this, not whatever is current later.
    let value: Value
    /// Set for the first call of a new observer: only that observer gets this delivery.
    let onlyTo: Int?
  }

  struct State {
    var value: Value
    /// Counts the changes; version N is the value written by the N-th write.
    var version = 0
    var nextID = 0
    /// In registration order. Ids only grow, so the array is sorted by id.
    var observers: [Entry] = []
    /// Deliveries not made yet, oldest first (exercise 2 takes them out).
    var pending: [Delivery] = []
    /// True while some thread runs `deliverPending()` (exercise 2).
    var isDelivering = false
  }

  let state: InstrumentedMutex<State>

  public init(_ initial: Value) {
    state = InstrumentedMutex(State(value: initial))
  }

  // Given — a test seam: the tests build the observable with a hook on its lock.
  /// An observable whose lock calls `afterUnlock` each time it is released: the tests' way in
  /// between two critical sections (see `InstrumentedMutex`).
  init(_ initial: Value, afterUnlock: @escaping @Sendable () -> Void) {
    state = InstrumentedMutex(State(value: initial), afterUnlock: afterUnlock)
  }

  /// The current value. Setting it is one change, delivered to every observer.
  public var value: Value {
    get { state.withLock { $0.value } }
    // TODO: store the value, bump the version and queue a delivery under one lock, then deliver.
    set {}
  }

  /// Changes the value in place as one atomic step: read, transform and write under one lock, so
  /// two threads that each add one never lose an increment. Observers are told afterwards.
  ///
  /// `transform` runs under the lock: keep it short, and never touch this observable inside it
  /// (the lock is not reentrant: a nested call traps). If it throws, nothing changes and nobody is told.
  @discardableResult
  public func update<Result: Sendable>(_ transform: (inout Value) throws -> Result) rethrows -> Result {
    // TODO: transform the stored value under one lock, queue its delivery, deliver after.
    // Placeholder: it runs `transform` on a copy and throws the copy away, so nothing is stored.
    var draft = value
    return try transform(&draft)
  }

  /// Registers `handler` for every later change, and first calls it with the current value when
  /// `initial` is true (the usual choice for UI: render now, then on every change). "Later" means
  /// written after this call: with `initial: false`, a change written before it but not delivered
  /// yet (during another observer's call, say) never reaches `handler`.
  ///
  /// Delivery stops when the token is cancelled **or released**: keep the token for as long as
  /// you want to hear about changes. Capture your owner weakly in `handler`: the observable keeps
  /// the closure alive until the token goes.
  public func observe(initial: Bool = true, _ handler: @escaping Handler) -> ObserverToken {
    // TODO: register an `Entry` under the lock and return a token that removes it.
    // Placeholder: it registers nothing, and the token cancels nothing.
    ObserverToken {}
  }

  /// How many observers are registered: lets a test (or a debug screen) spot a leak.
  public var observerCount: Int {
    // TODO: count the registered observers under the lock (placeholder: 0).
    0
  }

  func removeObserver(_ id: Int) {
    // TODO: remove the entry with this id under the lock (this empty body removes nothing).
  }
}
