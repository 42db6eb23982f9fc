// Exercise 2 — An LRU memory cache (intermediate)
//
// Build a least-recently-used cache with O(1) get, set and remove: a dictionary from key to a
// node, and a doubly linked list of nodes from most to least recently used. A read moves the
// node to the front; when the cost or count limit is exceeded, nodes leave from the back.
// The API is synchronous and thread-safe: keep all state inside one `Mutex`.
import Synchronization
import Workbook

/// A thread-safe, least-recently-used memory cache with cost and count limits.
///
/// Unlike `NSCache`, whose eviction order is unspecified (and on Linux follows cost, not use),
/// this cache always evicts the entry that was used longest ago, so a scrolling feed keeps what
/// is on screen. Every operation is O(1): a dictionary lookup plus a few pointer moves.
public nonisolated final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  public struct Configuration: Sendable {
    /// Total cost the cache may hold (for images: decoded bytes).
    public var costLimit: Int
    /// Number of entries the cache may hold.
    public var countLimit: Int
    /// An entry that costs more than this fraction of `costLimit` is not stored at all: one
    /// huge image must not flush a screenful of small ones.
    public var maximumEntryFraction: Double
    /// How long an entry stays valid after it was stored, measured on the injected clock: it has
    /// expired once `ttl` has elapsed (at exactly `ttl`, too). nil keeps entries until evicted.
    public var ttl: Duration?

    public init(costLimit: Int, countLimit: Int, maximumEntryFraction: Double = 0.25, ttl: Duration? = nil) {
      self.costLimit = costLimit
      self.countLimit = countLimit
      self.maximumEntryFraction = maximumEntryFraction
      self.ttl = ttl
    }
  }

  /// Hit and miss counters, for the loader's metrics and for tuning the limits.
  public struct Statistics: Sendable, Equatable {
    public var hits = 0
    public var misses = 0
    /// Entries removed to keep within a limit: by `setValue`, `trim` and backgrounding. Removals
    /// asked for (`removeValue`, a memory warning) and expired entries are not evictions.
    public var evictions = 0

    public init(hits: Int = 0, misses: Int = 0, evictions: Int = 0) {
      self.hits = hits
      self.misses = misses
      self.evictions = evictions
    }

    /// hits / (hits + misses), 0 before the first lookup.
    public var hitRate: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }
  }

  /// What the app tells the cache about its situation.
  public enum MemoryEvent: Sendable {
    /// The system is short of memory (`didReceiveMemoryWarningNotification`): drop everything.
    case memoryWarning
    /// The app went to the background: shrink to half the cost limit, so the app is less likely
    /// to be killed while suspended, and keep the most recently used half.
    case didEnterBackground
  }

  /// Everything about an entry lives in arrays indexed by its slot, split by when it is needed: a
  /// read touches the key and value and the links; the cost and the expiry only when storing or
  /// evicting (and the expiry when a TTL is set). Moving an entry to the front rewrites a few
  /// `Link`s (two integers each, four to a cache line) and never copies a key or a value. Freed
  /// slots are reused, so a long-running cache does not grow the arrays.
  private struct State {
    var index: [Key: Int] = [:]
    /// nil marks a free slot, so a removed value is released at once.
    var entries: [Entry?] = []
    var costs: [Int] = []
    var expiries: [Duration?] = []
    var links: [Link] = []
    var free: [Int] = []
    var head = none  // most recently used
    var tail = none  // least recently used
    var totalCost = 0
    var statistics = Statistics()
  }

  private struct Entry {
    let key: Key
    let value: Value
  }

  /// Neighbours in recency order; `none` marks an end of the list.
  private struct Link {
    var previous: Int
    var next: Int
  }

  private static var none: Int { -1 }

  public let configuration: Configuration
  private let cost: @Sendable (Value) -> Int
  private let now: @Sendable () -> Duration
  private let state = Mutex(State())

  /// - Parameters:
  ///   - cost: the cost of one value, for images `\.cost` (decoded bytes).
  ///   - clock: the clock TTLs are measured on; tests pass a `ManualClock`.
  public init(
    configuration: Configuration, clock: any Clock<Duration> = ContinuousClock(),
    cost: @escaping @Sendable (Value) -> Int
  ) {
    self.configuration = configuration
    self.cost = cost
    self.now = Self.elapsedTime(on: clock)
  }

  private static func elapsedTime<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
    let origin = clock.now
    return { origin.duration(to: clock.now) }
  }

  /// The value for `key`, marking it most recently used; nil (a miss) if absent or expired. O(1).
  public func value(forKey key: Key) -> Value? {
    let time = configuration.ttl == nil ? nil : now()
    return state.withLock { state in
      guard let slot = state.index[key] else {
        state.statistics.misses += 1
        return nil
      }
      if let time, let expiry = state.expiries[slot], time >= expiry {
        Self.remove(slot: slot, from: &state)
        state.statistics.misses += 1
        return nil
      }
      Self.moveToFront(slot, in: &state)
      state.statistics.hits += 1
      return state.entries[slot]?.value
    }
  }

  /// Stores `value` as the most recently used entry, then evicts from the least recently used
  /// end until both limits hold. O(1) amortized (each eviction removes an entry that was added).
  ///
  /// - Returns: false when the value was not stored because it costs more than
  ///   `maximumEntryFraction` of the cost limit (an older value for `key` is removed then, so the
  ///   cache never serves a stale one).
  @discardableResult
  public func setValue(_ value: Value, forKey key: Key) -> Bool {
    let valueCost = max(0, cost(value))
    let expiry = configuration.ttl.map { now() + $0 }
    let limit = configuration
    return state.withLock { state in
      guard Double(valueCost) <= Double(limit.costLimit) * limit.maximumEntryFraction, limit.countLimit > 0 else {
        if let slot = state.index[key] { Self.remove(slot: slot, from: &state) }
        return false
      }
      let slot = Self.occupy(Entry(key: key, value: value), cost: valueCost, expiry: expiry, in: &state)
      // One probe of the hash table stores the new slot and hands back the replaced one, if any.
      if let replaced = state.index.updateValue(slot, forKey: key) { Self.release(replaced, in: &state) }
      Self.linkAtFront(slot, in: &state)
      state.totalCost += valueCost
      Self.evict(in: &state, costLimit: limit.costLimit, countLimit: limit.countLimit)
      return true
    }
  }

  /// Removes and returns the value for `key`. O(1).
  @discardableResult
  public func removeValue(forKey key: Key) -> Value? {
    state.withLock { state in
      guard let slot = state.index[key] else { return nil }
      return Self.remove(slot: slot, from: &state)
    }
  }

  /// Empties the cache (statistics are kept). O(n).
  public func removeAll() {
    state.withLock { state in
      let statistics = state.statistics
      state = State()
      state.statistics = statistics
    }
  }

  /// Reacts to a memory warning (purge everything) or to going to the background (trim to half
  /// the cost limit, least recently used first).
  public func handle(_ event: MemoryEvent) {
    switch event {
    case .memoryWarning: removeAll()
    case .didEnterBackground: trim(toCost: configuration.costLimit / 2)
    }
  }

  /// Evicts least recently used entries until the total cost is at most `cost`.
  public func trim(toCost cost: Int) {
    let countLimit = configuration.countLimit
    state.withLock { Self.evict(in: &$0, costLimit: cost, countLimit: countLimit) }
  }

  public var count: Int { state.withLock { $0.index.count } }
  public var totalCost: Int { state.withLock { $0.totalCost } }
  public var statistics: Statistics { state.withLock { $0.statistics } }

  /// Whether `key` is stored, without counting a hit or a miss and without touching recency.
  /// An expired entry still counts until a read finds it expired and removes it.
  public func contains(_ key: Key) -> Bool { state.withLock { $0.index[key] != nil } }

  /// The keys from most to least recently used. O(n); for tests and debugging.
  public var keysByRecency: [Key] {
    state.withLock { state in
      var keys: [Key] = []
      var slot = state.head
      while slot != Self.none {
        if let key = state.entries[slot]?.key { keys.append(key) }
        slot = state.links[slot].next
      }
      return keys
    }
  }

  // MARK: - List surgery (always called inside the lock)

  /// Puts `entry` in a free slot, or a new one, and returns the slot; the caller links it.
  private static func occupy(_ entry: Entry, cost: Int, expiry: Duration?, in state: inout State) -> Int {
    if let slot = state.free.popLast() {
      state.entries[slot] = entry
      state.costs[slot] = cost
      state.expiries[slot] = expiry
      return slot
    }
    state.entries.append(entry)
    state.costs.append(cost)
    state.expiries.append(expiry)
    state.links.append(Link(previous: none, next: none))
    return state.entries.count - 1
  }

  private static func unlink(_ slot: Int, in state: inout State) {
    let link = state.links[slot]
    if link.previous != none { state.links[link.previous].next = link.next } else { state.head = link.next }
    if link.next != none { state.links[link.next].previous = link.previous } else { state.tail = link.previous }
  }

  private static func linkAtFront(_ slot: Int, in state: inout State) {
    state.links[slot] = Link(previous: none, next: state.head)
    if state.head != none { state.links[state.head].previous = slot } else { state.tail = slot }
    state.head = slot
  }

  private static func moveToFront(_ slot: Int, in state: inout State) {
    guard state.head != slot else { return }
    unlink(slot, in: &state)
    linkAtFront(slot, in: &state)
  }

  /// Removes the entry in `slot` from the index, the list and the totals.
  @discardableResult
  private static func remove(slot: Int, from state: inout State) -> Value? {
    guard let entry = state.entries[slot] else { return nil }
    state.index[entry.key] = nil
    release(slot, in: &state)
    return entry.value
  }

  /// Unlinks and frees `slot` without touching the index (whose entry is gone or reassigned).
  private static func release(_ slot: Int, in state: inout State) {
    unlink(slot, in: &state)
    state.totalCost -= state.costs[slot]
    state.costs[slot] = 0
    state.entries[slot] = nil
    state.free.append(slot)
  }

  private static func evict(in state: inout State, costLimit: Int, countLimit: Int) {
    while state.totalCost > costLimit || state.index.count > countLimit, state.tail != none {
      remove(slot: state.tail, from: &state)
      state.statistics.evictions += 1
    }
  }
}
