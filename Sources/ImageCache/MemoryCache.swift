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

  // TODO: add your state: a dictionary from key to node, the doubly linked list (head = most
  // recently used, tail = least), the total cost and the statistics, all inside one `Mutex`.
  // Tip: keep nodes in an array and link them by index, reusing freed slots.

  public let configuration: Configuration
  private let cost: @Sendable (Value) -> Int
  private let now: @Sendable () -> Duration

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

  // Given — the injected clock as a closure the cache can keep.
  private static func elapsedTime<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
    let origin = clock.now
    return { origin.duration(to: clock.now) }
  }

  /// The value for `key`, marking it most recently used; nil (a miss) if absent or expired. O(1).
  public func value(forKey key: Key) -> Value? {
    // TODO: look up, drop it if expired, move it to the head, count the hit or miss (placeholder: nil).
    nil
  }

  /// Stores `value` as the most recently used entry, then evicts from the least recently used
  /// end until both limits hold. O(1) amortized (each eviction removes an entry that was added).
  ///
  /// - Returns: false when the value was not stored because it costs more than
  ///   `maximumEntryFraction` of the cost limit (an older value for `key` is removed then, so the
  ///   cache never serves a stale one).
  @discardableResult
  public func setValue(_ value: Value, forKey key: Key) -> Bool {
    // TODO: store at the head, then evict from the tail while over a limit (placeholder: false).
    false
  }

  /// Removes and returns the value for `key`. O(1).
  @discardableResult
  public func removeValue(forKey key: Key) -> Value? {
    // TODO: unlink the node and return its value (placeholder: nil).
    nil
  }

  /// Empties the cache (statistics are kept). O(n).
  public func removeAll() {
    // TODO: drop every entry, keep the statistics (this empty body drops nothing).
  }

  /// Reacts to a memory warning (purge everything) or to going to the background (trim to half
  /// the cost limit, least recently used first).
  public func handle(_ event: MemoryEvent) {
    // TODO: purge on a warning, trim to half the cost limit in the background (does nothing yet).
  }

  /// Evicts least recently used entries until the total cost is at most `cost`.
  public func trim(toCost cost: Int) {
    // TODO: evict from the tail until the total cost fits (this empty body evicts nothing).
  }

  // TODO: the number of entries, read under the lock (placeholder: 0).
  public var count: Int { 0 }
  // TODO: the sum of the entries' costs, read under the lock (placeholder: 0).
  public var totalCost: Int { 0 }
  // TODO: the hits, misses and evictions, read under the lock (placeholder: all zero).
  public var statistics: Statistics { Statistics() }

  /// Whether `key` is stored, without counting a hit or a miss and without touching recency.
  /// An expired entry still counts until a read finds it expired and removes it.
  // TODO: look the key up without touching recency or statistics (placeholder: false).
  public func contains(_ key: Key) -> Bool { false }

  /// The keys from most to least recently used. O(n); for tests and debugging.
  // TODO: walk the list from head to tail (placeholder: empty).
  public var keysByRecency: [Key] { [] }
}
