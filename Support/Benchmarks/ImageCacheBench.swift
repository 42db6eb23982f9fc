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

    static func measureAll<Key: Hashable & Sendable>(
      _ bench: Bench, quick: Bool, keys: Keys<Key>, verdicts: inout [String]
    ) {
      print("\n== Chapter 4: LRU memory cache vs NSCache vs Dictionary, \(keys.name) (limit = n/2 entries)")
      let sizes = quick ? [1_000, 10_000, 100_000] : [1_000, 10_000, 100_000, 1_000_000]
      let others = ["Dictionary behind a Mutex", "Dictionary (unspecialized)", "MemoryCache (LRU)", "NSCache"]
      verdicts.append("  \(keys.name):")
      for n in sizes {
        let result = measure(bench, n: n, keys: keys)
        for (name, rows) in [("set", result.set), ("get", result.get)] {
          guard let floor = rows["Dictionary"] else { continue }
          printTable("\(name), n = \(n), \(keys.name)", baseline: floor, rows: others.compactMap { rows[$0] })
          guard let lru = rows["MemoryCache (LRU)"], let locked = rows["Dictionary behind a Mutex"],
            let nscache = rows["NSCache"]
          else { continue }
          let overNSCache = nscache.nanosecondsPerOperation / lru.nanosecondsPerOperation
          let overFloor = lru.nanosecondsPerOperation / floor.nanosecondsPerOperation
          let overLocked = lru.nanosecondsPerOperation / locked.nanosecondsPerOperation
          let lockAlone = locked.nanosecondsPerOperation / floor.nanosecondsPerOperation
          verdicts.append(
            String(
              format: "  n = %-9d %@: LRU %.1f× faster than NSCache; %.2f× the dictionary "
                + "(the lock alone: %.2f×); %.2f× the dictionary behind a Mutex",
              n, name, overNSCache, overFloor, lockAlone, overLocked))
          // Each target also gets the best any cache could do here: no cache is faster than the
          // bare dictionary it is built on, and none behind a lock is cheaper than the lock.
          if n == 100_000 {
            let target = name == "set" ? 6.0 : 4.0
            let floorOverNSCache = nscache.nanosecondsPerOperation / floor.nanosecondsPerOperation
            verdicts.append(
              "    target at 10⁵: at least \(Int(target))× faster than NSCache — "
                + (overNSCache >= target ? "met" : "NOT met")
                + String(format: " (the bare dictionary itself: %.1f×", floorOverNSCache)
                + (floorOverNSCache < target ? ", so no cache can meet it with these keys)" : ")"))
          }
          verdicts.append(
            "    target: within 1.5× of the bare dictionary — " + (overFloor <= 1.5 ? "met" : "NOT met")
              + (lockAlone > 1.5 ? " (the lock alone is over 1.5×, so no cache behind a lock can meet it)" : ""))
        }
      }
    }
  }
#endif
