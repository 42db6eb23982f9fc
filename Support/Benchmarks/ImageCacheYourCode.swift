#if canImport(ImageCache)
  import Foundation
  import ImageCache

  /// `make bench-4`: the learner's `MemoryCache` next to the answer's, a dictionary behind the same
  /// kind of lock, and `NSCache`, on the workload of `make bench` (n keys stored with the limit at
  /// n/2, then all n read in another order), with URL and `Int` keys.
  extension ImageCacheBench {
    static func learnerSizes(quick: Bool) -> [Int] { quick ? [1_000, 10_000] : [1_000, 10_000, 100_000] }

    /// One round of every row, printed as `--emit` lines (see `YourCode`).
    /// `withNSCache`: also time `NSCache`, the slowest row, which one of the two copies is enough
    /// to measure (the driver asks the answer's).
    static func emitLearnerRound(quick: Bool, withNSCache: Bool) {
      emitLearnerRound(keys: urls, tag: "URL", sizes: learnerSizes(quick: quick), withNSCache: withNSCache)
      emitLearnerRound(keys: integers, tag: "Int", sizes: learnerSizes(quick: quick), withNSCache: withNSCache)
    }

    /// Whether the cache stores and returns a value at all: the starter does neither.
    static func cacheWorks<Key: Hashable & Sendable>(_ keys: Keys<Key>) -> Bool {
      let cache = MemoryCache<Key, Int>(configuration: .init(costLimit: 2, countLimit: 2, maximumEntryFraction: 1), cost: { _ in 1 })
      let stored = cache.setValue(7, forKey: keys.make(0))
      return stored && cache.value(forKey: keys.make(0)) == 7
    }

    static func emitLearnerRound<Key: Hashable & Sendable>(keys: Keys<Key>, tag: String, sizes: [Int], withNSCache: Bool) {
      let works = cacheWorks(keys)
      let clock = ContinuousClock()
      func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
      }
      /// `count` calls of `body`, stopped once they have taken `budget` seconds: an O(n) cache
      /// at 100,000 entries would otherwise take many minutes. (The answer's slowest row takes
      /// about 0.2 s.)
      func timed(_ count: Int, budget: Double = 2, _ body: (Int) -> Void) -> YourCode.Outcome {
        let start = clock.now
        for index in 0..<count {
          body(index)
          if index & 255 == 255 {
            let elapsed = nanoseconds(start.duration(to: clock.now))
            if elapsed > budget * 1e9 { return .tooSlow(elapsed / Double(index + 1)) }
          }
        }
        return .nanoseconds(nanoseconds(start.duration(to: clock.now)) / Double(max(count, 1)))
      }
      for n in sizes {
        let all = (0..<n).map(keys.make)
        let writes = order(n, salt: 1).map { all[$0] }
        let reads = order(n, salt: 2).map { all[$0] }
        let limit = max(1, n / 2)
        func id(_ what: String, _ operation: String) -> String { "\(what).\(operation).\(tag).\(n)" }

        // Each case runs twice on a fresh structure and keeps its faster run: the first run of a
        // process also pays for page faults and cold caches that the second does not. The
        // dictionary and the LRU run first, in the same order in both copies, so the two LRUs are
        // timed in the same state; NSCache runs last, once, in one copy: it takes longer than
        // everything else together, and its objects would change the state of the process.
        var lockedSet = YourCode.Outcome.tooSlow(.infinity)
        var lockedGet = lockedSet
        for _ in 0..<2 {
          let locked = LockedDictionary<Key>()
          lockedSet = YourCode.faster(lockedSet, timed(n) { locked.set(1, for: writes[$0]) })
          var found = 0
          lockedGet = YourCode.faster(lockedGet, timed(n) { if locked.get(reads[$0]) != nil { found += 1 } })
          blackHole(found)
        }
        YourCode.emit(id("locked", "set"), lockedSet)
        YourCode.emit(id("locked", "get"), lockedGet)

        if works {
          var set = YourCode.Outcome.tooSlow(.infinity)
          var get = set
          for run in 0..<2 {
            let cache = MemoryCache<Key, Int>(
              configuration: .init(costLimit: limit, countLimit: limit, maximumEntryFraction: 1), cost: { _ in 1 })
            var thisSet = timed(n) { _ = cache.setValue(1, forKey: writes[$0]) }
            if thisSet.value != nil, cache.count != limit {
              thisSet = .wrong("\(cache.count) entries after \(n) sets with a count limit of \(limit)")
            }
            set = run == 0 ? thisSet : YourCode.faster(set, thisSet)
            guard thisSet.value != nil else {
              get = .wrong("not measured: the sets did not finish")
              break
            }
            var found = 0
            var thisGet = timed(n) { if cache.value(forKey: reads[$0]) != nil { found += 1 } }
            if thisGet.value != nil, found != limit {
              thisGet = .wrong("\(found) hits where the last \(limit) keys stored should all be found")
            }
            get = run == 0 ? thisGet : YourCode.faster(get, thisGet)
            guard thisGet.value != nil else { break }
          }
          YourCode.emit(id("lru", "set"), set)
          YourCode.emit(id("lru", "get"), get)
        } else {
          YourCode.emit(id("lru", "set"), .notImplemented)
          YourCode.emit(id("lru", "get"), .notImplemented)
        }

        if withNSCache {
          let objectWrites = writes.map { (keys.object($0), Box(1)) }
          let objectReads = reads.map(keys.object)
          let nsCache = NSCache<AnyObject, Box>()
          nsCache.countLimit = limit
          YourCode.emit(id("nscache", "set"), timed(n) { nsCache.setObject(objectWrites[$0].1, forKey: objectWrites[$0].0) })
          var found = 0
          YourCode.emit(id("nscache", "get"), timed(n) { if nsCache.object(forKey: objectReads[$0]) != nil { found += 1 } })
          blackHole(found)
        }
      }
    }

    /// The table of `make bench-4` and its verdict.
    static func printComparison(yours: YourCode.Collected, answer: YourCode.Collected) {
      func platform(_ id: String) -> YourCode.Outcome? {
        let values = [yours.outcomes[id], answer.outcomes[id]].compactMap { $0?.value }
        return values.min().map { .nanoseconds($0) } ?? answer.outcomes[id] ?? yours.outcomes[id]
      }
      func cell(_ outcome: YourCode.Outcome?) -> String {
        guard let outcome else { return "missing" }
        return outcome.words
      }
      func ratio(_ a: YourCode.Outcome?, _ b: YourCode.Outcome?) -> String {
        guard let a = a?.value, let b = b?.value else { return "—" }
        return String(format: "%.2f×", a / b)
      }
      var ratios: [String: [Double]] = [:]
      var problems: [String: YourCode.Outcome] = [:]
      let sizes = Set(answer.order.compactMap { $0.split(separator: ".").last.flatMap { Int($0) } }).sorted()
      print("\nns per operation (n keys stored with the limit at n/2, then all n read: half the gets miss;")
      print("NSCache, reported and not a target, is the fastest of the first two rounds only)")
      print(
        "  " + pad("", 20) + pad("yours", 22) + pad("answer", 10) + pad("Dict+Mutex", 12) + pad("NSCache", 10)
          + pad("yours/answer", 14) + "yours/Dict+Mutex")
      for operation in ["get", "set"] {
        for tag in ["URL", "Int"] {
          for n in sizes {
            let key = "\(operation).\(tag).\(n)"
            let mine = yours.outcomes["lru.\(key)"]
            let theirs = answer.outcomes["lru.\(key)"]
            let locked = platform("locked.\(key)")
            let nsCache = platform("nscache.\(key)")
            let label = "\(operation) \(tag) n=\(n)"
            print(
              "  " + pad(label, 20) + pad(cell(mine), 22) + pad(cell(theirs), 10) + pad(cell(locked), 12)
                + pad(cell(nsCache), 10) + pad(ratio(mine, theirs), 14) + ratio(mine, locked))
            if let mine = mine?.value, let theirs = theirs?.value {
              ratios[operation, default: []].append(mine / theirs)
            } else if problems[operation] == nil {
              problems[operation] = mine ?? .wrong("no figure: see above")
            }
          }
        }
      }
      print("\nVerdict")
      for operation in ["get", "set"] {
        if let problem = problems[operation] {
          switch problem {
          case .notImplemented:
            print("  your \(operation): not implemented yet (make chapter-4 EXERCISE=2 grades it)")
          case .tooSlow:
            print("  your \(operation): too slow to measure at the larger sizes: is it O(1)? (make chapter-4 EXERCISE=2)")
          default:
            print("  your \(operation): \(problem.words); make chapter-4 EXERCISE=2 shows what is wrong")
          }
          continue
        }
        let values = ratios[operation] ?? []
        guard !values.isEmpty else { continue }
        let mean = exp(values.map(log).reduce(0, +) / Double(values.count))
        print(
          String(
            format: "  your %@ is %.2f× the answer's (geometric mean of %d sizes and keys; %.2f× to %.2f×)",
            operation, mean, values.count, values.min()!, values.max()!))
      }
      print("  Ratios under about 1.2× either way are noise on a shared machine; run it again before you trust one.")
    }
  }
#endif
