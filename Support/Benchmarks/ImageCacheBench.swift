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
  /// Two more rows split the cache's cost into its parts: the same dictionary behind a `Mutex`
  /// (what any thread-safe cache pays before it keeps an order), and a dictionary whose generic
  /// code is never specialized (what the cache would pay if its callers could not see its bodies;
  /// the release build passes `-cross-module-optimization`, see Package.swift).
  enum ImageCacheBench {
    /// What the two dictionary baselines offer, so one function measures both.
    protocol BaselineStore: AnyObject {
      init()
      func get(_ key: Int) -> Int?
      func set(_ value: Int, for key: Int)
    }

    /// A dictionary behind a lock, as `MemoryCache` keeps its state: the floor for a thread-safe
    /// cache, and the difference from the bare dictionary is the price of the lock alone.
    final class LockedDictionary: BaselineStore, Sendable {
      private let storage = Mutex<[Int: Int]>([:])

      init() {}

      func get(_ key: Int) -> Int? { storage.withLock { $0[key] } }
      func set(_ value: Int, for key: Int) { storage.withLock { $0[key] = value } }
    }

    /// A dictionary whose generic code is never specialized: every hash and comparison goes
    /// through the key type's witness table, as in generic code compiled without its callers.
    final class GenericDictionary<Key: Hashable, Value> {
      private var storage: [Key: Value] = [:]

      init() {}

      @_semantics("optimize.sil.specialize.generic.never")
      func get(_ key: Key) -> Value? { storage[key] }

      @_semantics("optimize.sil.specialize.generic.never")
      func set(_ value: Value, for key: Key) { storage[key] = value }
    }

    final class Box {
      let value: Int
      init(_ value: Int) { self.value = value }
    }

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

    static func measure(_ bench: Bench, n: Int) -> Result {
      let writes = order(n, salt: 1)
      let reads = order(n, salt: 2)
      let limit = max(1, n / 2)
      var result = Result()

      // Every case is measured in the same rounds (see `Bench.interleavedMedians`), each get
      // right after its own set, whose structure it reads.
      var cases: [(label: String, set: () -> Void, get: () -> Void)] = []
      func record(_ label: String, set: @escaping () -> Void, get: @escaping () -> Void) {
        cases.append((label, set, get))
      }

      var dictionary: [Int: Int] = [:]
      record(
        "Dictionary",
        set: {
          dictionary = [:]
          for key in writes { dictionary[key] = key }
          blackHole(dictionary.count)
        },
        get: {
          var found = 0
          for key in reads where dictionary[key] != nil { found += 1 }
          blackHole(found)
        })

      func recordBaseline<Store: BaselineStore>(_ label: String, _: Store.Type) {
        var store = Store()
        record(
          label,
          set: {
            store = Store()
            for key in writes { store.set(key, for: key) }
            blackHole(store)
          },
          get: {
            var found = 0
            for key in reads where store.get(key) != nil { found += 1 }
            blackHole(found)
          })
      }
      recordBaseline("Dictionary behind a Mutex", LockedDictionary.self)
      recordBaseline("Dictionary (unspecialized)", GenericDictionary<Int, Int>.self)

      var lru = MemoryCache<Int, Int>(
        configuration: .init(costLimit: limit, countLimit: limit, maximumEntryFraction: 1), cost: { _ in 1 })
      record(
        "MemoryCache (LRU)",
        set: {
          lru = MemoryCache<Int, Int>(
            configuration: .init(costLimit: limit, countLimit: limit, maximumEntryFraction: 1), cost: { _ in 1 })
          for key in writes { _ = lru.setValue(key, forKey: key) }
          blackHole(lru.count)
        },
        get: {
          var found = 0
          for key in reads where lru.value(forKey: key) != nil { found += 1 }
          blackHole(found)
        })

      let boxes = (0..<n).map { Box($0) }
      let numbers = (0..<n).map { NSNumber(value: $0) }
      var cache = NSCache<NSNumber, Box>()
      record(
        "NSCache",
        set: {
          cache = NSCache()
          cache.countLimit = limit
          for key in writes { cache.setObject(boxes[key], forKey: numbers[key]) }
          blackHole(cache)
        },
        get: {
          var found = 0
          for key in reads where cache.object(forKey: numbers[key]) != nil { found += 1 }
          blackHole(found)
        })
      let medians = bench.interleavedMedians(cases.flatMap { [$0.set, $0.get] })
      for (index, entry) in cases.enumerated() {
        result.set[entry.label] = Row(label: entry.label, time: medians[2 * index], operations: n)
        result.get[entry.label] = Row(label: entry.label, time: medians[2 * index + 1], operations: n)
      }
      return result
    }

    static func run(_ bench: Bench, quick: Bool) {
      print("\n== Chapter 4: LRU memory cache vs NSCache vs Dictionary (limit = n/2 entries)")
      let sizes = quick ? [1_000, 10_000, 100_000] : [1_000, 10_000, 100_000, 1_000_000]
      let others = ["Dictionary behind a Mutex", "Dictionary (unspecialized)", "MemoryCache (LRU)", "NSCache"]
      var verdicts: [String] = []
      for n in sizes {
        let result = measure(bench, n: n)
        for (name, rows) in [("set", result.set), ("get", result.get)] {
          guard let floor = rows["Dictionary"] else { continue }
          printTable("\(name), n = \(n)", baseline: floor, rows: others.compactMap { rows[$0] })
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
          if n == 100_000 {
            let target = name == "set" ? 6.0 : 4.0
            verdicts.append(
              "    target at 10⁵: at least \(Int(target))× faster than NSCache — "
                + (overNSCache >= target ? "met" : "NOT met"))
          }
          verdicts.append("    target: within 1.5× of the bare dictionary — " + (overFloor <= 1.5 ? "met" : "NOT met"))
        }
      }
      print("\nChapter 4 summary")
      verdicts.forEach { print($0) }
    }
  }

  extension ImageCacheBench.GenericDictionary: ImageCacheBench.BaselineStore where Key == Int, Value == Int {}
#endif
