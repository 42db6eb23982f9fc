#if canImport(ImageCache)
  import Foundation
  import ImageCache
  import Synchronization

  /// Chapter 4: the LRU memory cache (behind its lock, as the chapter ships it) against
  /// Foundation's `NSCache` and against a bare dictionary, the floor any cache is built on.
  ///
  /// Every case stores `n` distinct keys with the limit at n/2 entries (so half of the sets evict),
  /// then reads all `n` keys in another order (so half of the reads miss).
  ///
  /// It runs twice: with the URL keys the chapter's loader uses, and with `Int` keys, the cheapest
  /// there are. The cache's cost over the dictionary is a few nanoseconds whatever the key, so the
  /// ratio depends on what a key costs to hash and compare: small for URLs, largest for integers.
  ///
  /// Two more rows split the cache's cost into its parts: the same dictionary behind a `Mutex`
  /// (what any thread-safe cache pays before it keeps an order), and a dictionary whose generic
  /// code is never specialized (what the cache would pay if its callers could not see its bodies;
  /// the release build passes `-cross-module-optimization`, see Package.swift).
  enum ImageCacheBench {
    /// What the two dictionary baselines offer, so one function measures both.
    protocol BaselineStore<Key>: AnyObject {
      associatedtype Key: Hashable
      init()
      func get(_ key: Key) -> Int?
      func set(_ value: Int, for key: Key)
    }

    /// A dictionary behind a lock, as `MemoryCache` keeps its state: the floor for a thread-safe
    /// cache, and the difference from the bare dictionary is the price of the lock alone.
    final class LockedDictionary<Key: Hashable & Sendable>: BaselineStore, Sendable {
      private let storage = Mutex<[Key: Int]>([:])

      init() {}

      func get(_ key: Key) -> Int? { storage.withLock { $0[key] } }
      func set(_ value: Int, for key: Key) { storage.withLock { $0[key] = value } }
    }

    /// A dictionary whose generic code is never specialized: every hash and comparison goes
    /// through the key type's witness table, as in generic code compiled without its callers.
    final class GenericDictionary<Key: Hashable>: BaselineStore {
      private var storage: [Key: Int] = [:]

      init() {}

      @_semantics("optimize.sil.specialize.generic.never")
      func get(_ key: Key) -> Int? { storage[key] }

      @_semantics("optimize.sil.specialize.generic.never")
      func set(_ value: Int, for key: Key) { storage[key] = value }
    }

    /// The least an exact LRU with a linked recency list does: a dictionary from key to slot and
    /// the list's links, behind the same kind of lock, with no values, costs, statistics or TTL.
    /// A hit unlinks its slot and links it at the front, writing both neighbours; a set of a new
    /// key into a full store evicts the tail. What this costs over the locked dictionary is the
    /// floor for any such cache: no `MemoryCache` can be closer to the dictionary than this.
    final class RecencyListFloor<Key: Hashable & Sendable>: Sendable {
      private struct State {
        var index: [Key: Int] = [:]
        var keys: [Key] = []
        var previous: [Int] = []
        var next: [Int] = []
        var head = -1
        var tail = -1
      }
      private let state = Mutex(State())
      let limit: Int

      init(limit: Int) { self.limit = max(1, limit) }

      func get(_ key: Key) -> Int? {
        state.withLock { state in
          guard let slot = state.index[key] else { return nil }
          Self.moveToFront(slot, &state)
          return slot
        }
      }

      func set(_ key: Key) {
        state.withLock { state in
          if let slot = state.index[key] {
            Self.moveToFront(slot, &state)
            return
          }
          let slot: Int
          if state.keys.count < limit {
            slot = state.keys.count
            state.keys.append(key)
            state.previous.append(-1)
            state.next.append(-1)
          } else {
            slot = state.tail
            Self.unlink(slot, &state)
            state.index[state.keys[slot]] = nil
            state.keys[slot] = key
          }
          state.index[key] = slot
          Self.linkAtFront(slot, &state)
        }
      }

      private static func unlink(_ slot: Int, _ state: inout State) {
        let (before, after) = (state.previous[slot], state.next[slot])
        if before >= 0 { state.next[before] = after } else { state.head = after }
        if after >= 0 { state.previous[after] = before } else { state.tail = before }
      }

      private static func linkAtFront(_ slot: Int, _ state: inout State) {
        state.previous[slot] = -1
        state.next[slot] = state.head
        if state.head >= 0 { state.previous[state.head] = slot } else { state.tail = slot }
        state.head = slot
      }

      private static func moveToFront(_ slot: Int, _ state: inout State) {
        guard state.head != slot else { return }
        unlink(slot, &state)
        linkAtFront(slot, &state)
      }
    }

    final class Box {
      let value: Int
      init(_ value: Int) { self.value = value }
    }

    /// The keys a run stores, as the cache sees them and as `NSCache` sees them (an object).
    struct Keys<Key: Hashable & Sendable>: Sendable {
      /// What the summary calls these keys.
      var name: String
      var make: @Sendable (Int) -> Key
      var object: @Sendable (Key) -> AnyObject
    }

    /// The cheapest key there is: hashing an `Int` is a few instructions, so every other cost of
    /// the cache shows at its largest.
    static let integers = Keys<Int>(name: "Int keys", make: { $0 }, object: { NSNumber(value: $0) })

    /// The keys the chapter's `ImageLoader` uses: image URLs, hashed through their text.
    static let urls = Keys<URL>(
      name: "URL keys",
      make: { URL(string: "https://images.example.com/photos/\($0 / 100)/\($0)@2x.jpg")! },
      object: { NSURL(string: $0.absoluteString)! })

    /// Keys 0..<n in a fixed pseudo-random order (a multiplicative permutation).
    static func order(_ n: Int, salt: Int) -> [Int] {
      var stride = 7_919 + salt * 104_729
      while gcd(stride, n) != 1 { stride += 1 }
      return (0..<n).map { ($0 &* stride &+ salt) % n }
    }

    static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    struct Result {
      var set: [String: Row] = [:]
      var get: [String: Row] = [:]
    }

    static func measure<Key: Hashable & Sendable>(_ bench: Bench, n: Int, keys: Keys<Key>) -> Result {
      let all = (0..<n).map(keys.make)
      let writes = order(n, salt: 1).map { all[$0] }
      let reads = order(n, salt: 2).map { all[$0] }
      let limit = max(1, n / 2)
      var result = Result()

      // Every case is measured in the same rounds (see `Bench.interleavedMedians`), each get
      // right after its own set, whose structure it reads.
      var cases: [(label: String, set: () -> Void, get: () -> Void)] = []
      func record(_ label: String, set: @escaping () -> Void, get: @escaping () -> Void) {
        cases.append((label, set, get))
      }

      var dictionary: [Key: Int] = [:]
      record(
        "Dictionary",
        set: {
          dictionary = [:]
          for key in writes { dictionary[key] = 1 }
          blackHole(dictionary.count)
        },
        get: {
          var found = 0
          for key in reads where dictionary[key] != nil { found += 1 }
          blackHole(found)
        })

      func recordBaseline<Store: BaselineStore<Key>>(_ label: String, _: Store.Type) {
        var store = Store()
        record(
          label,
          set: {
            store = Store()
            for key in writes { store.set(1, for: key) }
            blackHole(store)
          },
          get: {
            var found = 0
            for key in reads where store.get(key) != nil { found += 1 }
            blackHole(found)
          })
      }
      recordBaseline("Dictionary behind a Mutex", LockedDictionary<Key>.self)
      recordBaseline("Dictionary (unspecialized)", GenericDictionary<Key>.self)

      var floor = RecencyListFloor<Key>(limit: limit)
      record(
        "Dictionary + recency list",
        set: {
          floor = RecencyListFloor(limit: limit)
          for key in writes { floor.set(key) }
          blackHole(floor)
        },
        get: {
          var found = 0
          for key in reads where floor.get(key) != nil { found += 1 }
          blackHole(found)
        })

      func makeCache() -> MemoryCache<Key, Int> {
        MemoryCache(configuration: .init(costLimit: limit, countLimit: limit, maximumEntryFraction: 1), cost: { _ in 1 })
      }
      var lru = makeCache()
      record(
        "MemoryCache (LRU)",
        set: {
          lru = makeCache()
          for key in writes { _ = lru.setValue(1, forKey: key) }
          blackHole(lru.count)
        },
        get: {
          var found = 0
          for key in reads where lru.value(forKey: key) != nil { found += 1 }
          blackHole(found)
        })

      // NSCache holds objects: its keys and values are made before the clock starts.
      let objectWrites = writes.map { (keys.object($0), Box(1)) }
      let objectReads = reads.map(keys.object)
      var cache = NSCache<AnyObject, Box>()
      record(
        "NSCache",
        set: {
          cache = NSCache()
          cache.countLimit = limit
          for (key, box) in objectWrites { cache.setObject(box, forKey: key) }
          blackHole(cache)
        },
        get: {
          var found = 0
          for key in objectReads where cache.object(forKey: key) != nil { found += 1 }
          blackHole(found)
        })
      // A million entries take seconds a round: three rounds still give a median.
      let rounds = n >= 1_000_000 ? min(3, bench.repetitions) : nil
      let medians = bench.interleavedMedians(cases.flatMap { [$0.set, $0.get] }, rounds: rounds)
      for (index, entry) in cases.enumerated() {
        result.set[entry.label] = Row(label: entry.label, time: medians[2 * index], operations: n)
        result.get[entry.label] = Row(label: entry.label, time: medians[2 * index + 1], operations: n)
      }
      return result
    }

    static func run(_ bench: Bench, quick: Bool) {
      var verdicts: [String] = []
      measureAll(bench, quick: quick, keys: urls, verdicts: &verdicts)
      measureAll(bench, quick: quick, keys: integers, verdicts: &verdicts)
      print("\nChapter 4 summary")
      verdicts.forEach { print($0) }
    }

    /// The chapter's targets for the LRU, against the same dictionary behind the same lock: a
    /// get does a lookup and relinks a node (1.5×); an evicting set does an insert and a remove,
    /// two hash-table operations where the dictionary does one, and relinks (2×).
    static let targets = ["get": 1.5, "set": 2.0]

    /// How much the ratio grows per tenfold size, fitted over the sizes by least squares on a log
    /// scale: 0 is flat; 0.1 would be 26 % per decade, 2× from 10³ to 10⁶.
    static func growthPerDecade(_ points: [(n: Int, ratio: Double)]) -> Double {
      let xs = points.map { log10(Double($0.n)) }
      let ys = points.map { log10($0.ratio) }
      let meanX = xs.reduce(0, +) / Double(xs.count)
      let meanY = ys.reduce(0, +) / Double(ys.count)
      let covariance = zip(xs, ys).map { ($0 - meanX) * ($1 - meanY) }.reduce(0, +)
      let variance = xs.map { ($0 - meanX) * ($0 - meanX) }.reduce(0, +)
      return variance == 0 ? 0 : covariance / variance
    }

    /// The width of a summary row's label, so the figures line up.
    static let summaryWidth = 56

    /// A summary row: its label, then one ratio per size, in the tables' format.
    static func summaryRow(_ label: String, _ ratios: [Double]) -> String {
      "    " + pad(label, summaryWidth) + ratios.map { String(format: "  %.2f×", $0) }.joined()
    }

    static func measureAll<Key: Hashable & Sendable>(
      _ bench: Bench, quick: Bool, keys: Keys<Key>, verdicts: inout [String]
    ) {
      print("\n== Chapter 4: LRU memory cache vs NSCache vs Dictionary, \(keys.name) (limit = n/2 entries)")
      let sizes = quick ? [1_000, 10_000, 100_000] : [1_000, 10_000, 100_000, 1_000_000]
      let others = [
        "Dictionary behind a Mutex", "Dictionary (unspecialized)", "Dictionary + recency list", "MemoryCache (LRU)", "NSCache",
      ]
      var overLocked: [String: [(n: Int, ratio: Double)]] = [:]
      var floorOverLocked: [String: [(n: Int, ratio: Double)]] = [:]
      var overNSCache: [String: [Double]] = [:]
      for n in sizes {
        let result = measure(bench, n: n, keys: keys)
        for (name, rows) in [("set", result.set), ("get", result.get)] {
          guard let floor = rows["Dictionary"] else { continue }
          printTable("\(name), n = \(n), \(keys.name)", baseline: floor, rows: others.compactMap { rows[$0] })
          guard let lru = rows["MemoryCache (LRU)"], let locked = rows["Dictionary behind a Mutex"],
            let nsCache = rows["NSCache"]
          else { continue }
          overLocked[name, default: []].append((n, lru.nanosecondsPerOperation / locked.nanosecondsPerOperation))
          if let list = rows["Dictionary + recency list"] {
            floorOverLocked[name, default: []].append((n, list.nanosecondsPerOperation / locked.nanosecondsPerOperation))
          }
          overNSCache[name, default: []].append(nsCache.nanosecondsPerOperation / lru.nanosecondsPerOperation)
        }
      }
      // Rows first (a label, then one figure per size), so a text can cite a figure by its row;
      // the verdicts follow in words.
      let sizesLabel = sizes.map(String.init).joined(separator: ", ")
      verdicts.append("  \(keys.name), the LRU against the same dictionary behind the same Mutex, n = \(sizesLabel):")
      for name in ["get", "set"] {
        guard let target = targets[name], let points = overLocked[name], !points.isEmpty else { continue }
        let worst = points.map(\.ratio).max() ?? 0
        let trend = growthPerDecade(points)
        verdicts.append(summaryRow("LRU over the locked dictionary, \(name), \(keys.name)", points.map(\.ratio)))
        if let floors = floorOverLocked[name], !floors.isEmpty {
          verdicts.append(summaryRow("recency list over the locked dictionary, \(name), \(keys.name)", floors.map(\.ratio)))
        }
        if let speedups = overNSCache[name], !speedups.isEmpty {
          verdicts.append(summaryRow("NSCache over the LRU, \(name), \(keys.name)", speedups))
        }
        verdicts.append("    " + pad("growth per decade, \(name), \(keys.name)", summaryWidth) + String(format: "  %+.2f", trend))
        verdicts.append(
          "    \(name): within \(String(format: "%.1f", target))× of the locked dictionary at every size: "
            + (worst <= target ? "met" : "NOT met"))
        verdicts.append(
          "    \(name): no upward trend across sizes (under +0.10 per decade on a log scale): "
            + (trend <= 0.1 ? "met" : "NOT met"))
        if let floors = floorOverLocked[name], !floors.isEmpty {
          let over = floors.filter { $0.ratio > target }.map { String($0.n) }
          verdicts.append(
            "    \(name): the floor, a dictionary and a recency list and nothing else: "
              + (over.isEmpty
                ? "within the target, so any gap is the cache's own"
                : "over the target at n = \(over.joined(separator: ", ")), where no exact linked-list LRU can meet it"))
        }
      }
    }
  }
#endif
