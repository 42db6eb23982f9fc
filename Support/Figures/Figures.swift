import WorkbookTesting

#if canImport(ImageCache)
  import ImageCache
#endif
#if canImport(Networking)
  import Networking
#endif

/// One chart and where it goes.
struct Figure {
  let chapter: String
  let name: String
  let chart: LineChart
}

/// Every figure whose chapter is part of this build.
func allFigures() -> [Figure] {
  var figures: [Figure] = []
  #if canImport(Networking)
    figures.append(thunderingHerdFigure())
  #endif
  #if canImport(ImageCache)
    figures.append(hitRateFigure())
  #endif
  #if canImport(Downloads)
    figures.append(agingFigure())
  #endif
  return figures
}

#if canImport(ImageCache)
  /// The LRU hit rate of the chapter's `MemoryCache` on `requests`, with room for `capacity` keys.
  func memoryCacheHitRate(_ requests: [Int], capacity: Int) -> Double {
    let cache = MemoryCache<Int, Int>(
      configuration: .init(costLimit: capacity * 2, countLimit: capacity, maximumEntryFraction: 1),
      cost: { _ in 1 })
    for key in requests where cache.value(forKey: key) == nil {
      cache.setValue(key, forKey: key)
    }
    return cache.statistics.hitRate
  }

  /// Chapter 4: hit rate against cache size for LRU (the chapter's `MemoryCache`), FIFO, random,
  /// SIEVE and Belady's optimal policy, on 200,000 requests over 10,000 keys with Zipf popularity
  /// (exponent 0.9), solid; dashed, the same requests with a scan of 2,500 keys seen once every
  /// 20,000 requests (a feed scrolled to the bottom), for LRU, SIEVE and Belady. `make figures`
  /// also prints every point, for the chapter's text.
  func hitRateFigure() -> Figure {
    let keys = 10_000
    let workload = ZipfWorkload(keys: keys, exponent: 0.9)
    let requests = workload.requests(count: 200_000, seed: 2_026)
    let scanned = workload.requestsWithScans(count: 200_000, seed: 2_026, period: 20_000, length: 2_500)
    let percents = [1, 2, 5, 10, 15, 20, 30, 40, 50]
    var points: [String: [(x: Double, y: Double)]] = [:]
    for percent in percents {
      let capacity = keys * percent / 100
      let x = Double(percent)
      let rates: [(String, Double)] = [
        ("LRU", memoryCacheHitRate(requests, capacity: capacity)),
        ("FIFO", SimpleCache.fifoHitRate(requests, capacity: capacity)),
        ("random", SimpleCache.randomHitRate(requests, capacity: capacity, seed: 7)),
        ("SIEVE", SimpleCache.sieveHitRate(requests, capacity: capacity)),
        ("Belady", SimpleCache.beladyHitRate(requests, capacity: capacity)),
        ("LRU, scans", memoryCacheHitRate(scanned, capacity: capacity)),
        ("SIEVE, scans", SimpleCache.sieveHitRate(scanned, capacity: capacity)),
        ("Belady, scans", SimpleCache.beladyHitRate(scanned, capacity: capacity)),
      ]
      for (name, rate) in rates { points[name, default: []].append((x, rate * 100)) }
      print(
        "hit rate at \(percent) % of the keys: "
          + rates.map { "\($0.0) \(fixed($0.1 * 100)) %" }.joined(separator: ", "))
    }
    let chart = LineChart(
      title: "Hit rate against cache size (Zipf 0.9, 10,000 keys)",
      xLabel: "cache size, % of the keys", yLabel: "hit rate, %",
      series: [
        .init(name: "Belady (optimal)", color: "#000000", points: points["Belady"] ?? []),
        .init(name: "SIEVE", color: "#9467bd", points: points["SIEVE"] ?? []),
        .init(name: "LRU (MemoryCache)", color: "#1f77b4", points: points["LRU"] ?? []),
        .init(name: "FIFO", color: "#ff7f0e", points: points["FIFO"] ?? []),
        .init(name: "random", color: "#2ca02c", points: points["random"] ?? []),
        .init(name: "Belady, scans", color: "#000000", points: points["Belady, scans"] ?? [], dash: "6 4"),
        .init(name: "SIEVE, scans", color: "#9467bd", points: points["SIEVE, scans"] ?? [], dash: "6 4"),
        .init(name: "LRU, scans", color: "#1f77b4", points: points["LRU, scans"] ?? [], dash: "6 4"),
      ], yMaximum: 100, xMaximum: 50)
    return Figure(chapter: "04-image-cache", name: "hit-rate-by-policy", chart: chart)
  }
#endif

#if canImport(Networking)
  /// Chapter 3: 1,000 clients retrying through a 4 s outage, with the chapter's exponential
  /// schedule (`RetryPolicy`, 0.5 s base, doubling, capped at 8 s) and three kinds of jitter.
  func thunderingHerdFigure() -> Figure {
    let policy = RetryPolicy(maxAttempts: 8, baseDelay: .milliseconds(500), maxDelay: .seconds(8), jitter: .zero)
    let noRandom = RandomSource(SeededRandom(seed: 0))
    func exponential(_ retry: Int) -> Double {
      let wait = policy.backoff(beforeRetry: retry, random: noRandom)
      let (seconds, attoseconds) = wait.components
      return Double(seconds) + Double(attoseconds) / 1e18
    }
    let herd = ThunderingHerd()
    let none = herd.requestsPerBucket(seed: 1) { retry, _ in exponential(retry) }
    let equal = herd.requestsPerBucket(seed: 1) { retry, random in
      let wait = exponential(retry)
      return wait / 2 + random.unit() * wait / 2
    }
    let full = herd.requestsPerBucket(seed: 1) { retry, random in random.unit() * exponential(retry) }
    func points(_ counts: [Double]) -> [(x: Double, y: Double)] {
      counts.enumerated().map { (Double($0.offset) * herd.bucket, $0.element) }
    }
    let chart = LineChart(
      title: "1,000 clients retrying through a 4 s outage",
      xLabel: "time, s", yLabel: "requests per 100 ms",
      series: [
        .init(name: "no jitter", color: "#d62728", points: points(none)),
        .init(name: "equal jitter", color: "#ff7f0e", points: points(equal)),
        .init(name: "full jitter", color: "#1f77b4", points: points(full)),
      ], xMaximum: herd.horizon)
    return Figure(chapter: "03-network", name: "thundering-herd", chart: chart)
  }
#endif
