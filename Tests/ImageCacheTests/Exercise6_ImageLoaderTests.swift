import Foundation
import Testing
import WorkbookTesting

@testable import ImageCache

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Exercise 6 — The loader and its policies", .timeLimit(.minutes(1)))
struct Exercise6_ImageLoaderTests {
  let url = URL(string: "https://images.example.com/avatars/42.png")!
  let start = Date(timeIntervalSince1970: 1_800_000_000)

  /// A stub server whose answer a test can change, counting the requests it receives.
  final class Server: Sendable {
    let requests = Counter()
    private let answer = Answer()

    /// What the server answers; an `NSLock` guards it because the stub reads it on
    /// URLSession's threads.
    final class Answer: @unchecked Sendable {
      private let lock = NSLock()
      private var current: (status: Int, body: Data, offline: Bool) = (200, SampleImages.png(width: 2, height: 3), false)

      var value: (status: Int, body: Data, offline: Bool) {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
      }
    }

    func set(status: Int = 200, body: Data = SampleImages.png(width: 2, height: 3), offline: Bool = false) {
      answer.value = (status, body, offline)
    }

    /// A real `URLSession` answered by the stub.
    func fetch() -> ImageFetch {
      let session = StubURLProtocol.session { [requests, answer] request in
        requests.increment()
        let current = answer.value
        if current.offline { throw URLError(.notConnectedToInternet) }
        return (StubURLProtocol.response(for: request, status: current.status), current.body)
      }
      return { url in try await session.data(from: url) }
    }
  }

  /// A disk cache holding a 1 × 1 copy of `url` that has expired: stored, then 8 days on, past
  /// the 7-day TTL.
  func diskWithAnExpiredCopy(in directory: TemporaryDirectory) async throws -> DiskCache {
    let time = ManualClock()
    let disk = try DiskCache(directory: directory.url, clock: time, startDate: start)
    try await disk.store(SampleImages.png(width: 1, height: 1), forKey: url.absoluteString)
    await time.advance(by: .seconds(8 * 24 * 3_600))
    return disk
  }

  /// A loader over `disk` whose fetches are counted, then sleep on `network` until the test lets
  /// them answer with a fresh 5 × 5 image.
  func refreshingLoader(_ disk: DiskCache, fetchesAsleepOn network: ManualClock, counting fetches: Counter) -> ImageLoader {
    ImageLoader(
      fetch: { url in
        fetches.increment()
        try await network.sleep(for: .seconds(1))
        return (SampleImages.png(width: 5, height: 5), StubURLProtocol.response(for: URLRequest(url: url)))
      }, diskCache: disk)
  }

  func makeLoader(_ server: Server, in directory: TemporaryDirectory, clock: ManualClock = ManualClock()) throws -> ImageLoader {
    let disk = try DiskCache(directory: directory.url, clock: clock, startDate: start)
    return ImageLoader(fetch: server.fetch(), diskCache: disk)
  }

  @Test("cache-first: network once, then memory; a new loader finds the disk copy and promotes it")
  func cacheFirst() async throws {
    try await withTemporaryDirectory("loader") { directory in
      let server = Server()
      let loader = try makeLoader(server, in: directory)
      let first = try await loader.image(for: url)
      #expect(first.width == 2 && first.height == 3, "the decoded image should be 2 × 3")
      _ = try await loader.image(for: url)
      #expect(server.requests.value == 1, "the second load should come from memory, without a request")

      try await loader.diskCache?.flush()  // as the app does when it goes to the background
      let relaunched = try makeLoader(server, in: directory)
      let fromDisk = try await relaunched.image(for: url)
      #expect(fromDisk == first, "after a relaunch the image should come from disk")
      #expect(server.requests.value == 1, "a disk hit must not send a request")
      #expect(relaunched.memoryCache.contains(url), "a disk hit should be promoted to memory")
      _ = try await relaunched.image(for: url)
      let metrics = await relaunched.metrics
      #expect(
        metrics.diskHits == 1 && metrics.memoryHits == 1 && metrics.networkFetches == 0,
        "one disk hit, then one memory hit; got \(metrics)")
      #expect(metrics.hitRate == 1, "both requests were served from a cache")
    }
  }

  @Test("an HTTP 404 is an error and its body is never cached")
  func errorStatusIsNotCached() async throws {
    try await withTemporaryDirectory("loader") { directory in
      let server = Server()
      server.set(status: 404)  // an error page that happens to be a valid image
      let loader = try makeLoader(server, in: directory)
      await #expect(throws: ImageLoaderError.httpStatus(404), "a 404 must surface as .httpStatus(404)") {
        try await loader.image(for: url)
      }
      #expect(await loader.diskCache?.count == 0, "the body of a 404 must not be written to disk")
      #expect(!loader.memoryCache.contains(url), "the body of a 404 must not be kept in memory")
      server.set(status: 200)
      _ = try await loader.image(for: url)
      #expect(server.requests.value == 2, "after a 404 the next load should ask the server again")
    }
  }

  @Test("a 200 whose body is not an image is .invalidImage and is not cached")
  func invalidContentIsNotCached() async throws {
    try await withTemporaryDirectory("loader") { directory in
      let server = Server()
      server.set(body: Data("<html>captive portal</html>".utf8))
      let loader = try makeLoader(server, in: directory)
      await #expect(throws: ImageLoaderError.invalidImage(.notAnImage), "HTML instead of an image must be .invalidImage") {
        try await loader.image(for: url)
      }
      #expect(await loader.diskCache?.count == 0, "bytes that do not decode must never be cached")
    }
  }

  @Test("cache-only: a miss is .notCached and sends no request")
  func cacheOnlyMiss() async throws {
    try await withTemporaryDirectory("loader") { directory in
      let server = Server()
      let loader = try makeLoader(server, in: directory)
      await #expect(throws: ImageLoaderError.notCached, "a cache-only miss is .notCached: no data was bad, there was none") {
        try await loader.image(for: url, policy: .cacheOnly)
      }
      #expect(server.requests.value == 0, "cache-only must never touch the network")
      _ = try await loader.image(for: url)
      let cached = try await loader.image(for: url, policy: .cacheOnly)
      #expect(cached.width == 2, "once cached, cache-only returns the image")
    }
  }

  @Test("network-first: fresh data online, the cached copy when offline")
  func networkFirst() async throws {
    try await withTemporaryDirectory("loader") { directory in
      let server = Server()
      let loader = try makeLoader(server, in: directory)
      _ = try await loader.image(for: url)
      server.set(body: SampleImages.png(width: 8, height: 8))
      let online = try await loader.image(for: url, policy: .networkFirst)
      #expect(online.width == 8, "online, network-first must fetch even though a copy is cached")
      server.set(offline: true)
      let offline = try await loader.image(for: url, policy: .networkFirst)
      #expect(offline.width == 8, "offline, network-first should fall back to the cached copy")
      let other = URL(string: "https://images.example.com/never-seen.png")!
      await #expect(throws: ImageLoaderError.network(.notConnectedToInternet), "offline with nothing cached: the network error") {
        try await loader.image(for: other, policy: .networkFirst)
      }
    }
  }

  @Test("network-only always asks the server")
  func networkOnly() async throws {
    try await withTemporaryDirectory("loader") { directory in
      let server = Server()
      let loader = try makeLoader(server, in: directory)
      _ = try await loader.image(for: url, policy: .networkOnly)
      _ = try await loader.image(for: url, policy: .networkOnly)
      #expect(server.requests.value == 2, "network-only must not read the cache")
    }
  }

  @Test("stale-while-revalidate: the stale copy at once, one refresh in the background")
  func staleWhileRevalidate() async throws {
    try await withTemporaryDirectory("loader") { directory in
      let network = ManualClock()
      let fetches = Counter()
      let disk = try await diskWithAnExpiredCopy(in: directory)
      let loader = refreshingLoader(disk, fetchesAsleepOn: network, counting: fetches)
      let stale = try await loader.image(for: url, policy: .staleWhileRevalidate)
      #expect(stale.width == 1, "the expired copy should be returned at once, not after the network")
      let again = try await loader.image(for: url, policy: .staleWhileRevalidate)
      #expect(again.width == 1, "while the refresh runs, the stale copy is still served")
      // The background refresh runs on a task of its own: once everything is parked, every
      // refresh the two reads started is asleep in its fetch.
      await settle()
      #expect(
        fetches.value == 1 && network.sleepers == 1,
        "two stale reads should start exactly one background refresh, not \(fetches.value) (keep the refresh task by URL)")
      await network.run()  // the refresh's fetch answers
      await loader.waitForBackgroundRefreshes()
      #expect(fetches.value == 1, "two stale reads should start exactly one background refresh, not \(fetches.value)")
      let fresh = try await loader.image(for: url, policy: .staleWhileRevalidate)
      #expect(fresh.width == 5, "after the refresh the new image is served")
      #expect(await disk.contains(url.absoluteString), "the refresh should store a fresh copy on disk")
    }
  }

  @Test("stale-while-revalidate: a visible load during the background refresh joins its fetch")
  func aLoadDuringTheBackgroundRefreshJoinsIt() async throws {
    try await withTemporaryDirectory("loader") { directory in
      let network = ManualClock()
      let fetches = Counter()
      let disk = try await diskWithAnExpiredCopy(in: directory)
      let loader = refreshingLoader(disk, fetchesAsleepOn: network, counting: fetches)
      let stale = try await loader.image(for: url, policy: .staleWhileRevalidate)
      #expect(stale.width == 1, "the expired copy should be returned at once, not after the network")
      await network.waitForSleepers(1)  // the background refresh is asleep in its fetch
      let visible = Task { try await loader.image(for: url, policy: .networkOnly) }
      // Once everything is parked, the visible load has either joined the refresh's flight or
      // sent a request of its own.
      await settle()
      #expect(
        fetches.value == 1 && network.sleepers == 1,
        "a visible load made while the background refresh is in flight should join its fetch, not send its own: \(fetches.value) fetches (the refresh must go through the coalescer)"
      )
      await network.run()  // the one fetch answers
      let fresh = try await visible.value
      #expect(fresh.width == 5, "the visible load should get the refreshed image")
      await loader.waitForBackgroundRefreshes()
      #expect(fetches.value == 1, "one refresh and one visible load of the same URL should make one fetch, not \(fetches.value)")
    }
  }

  @Test("stale-while-revalidate: a failed refresh leaves the stale copy stale, so the next read tries again")
  func failedRefreshKeepsTheCopyStale() async throws {
    try await withTemporaryDirectory("loader") { directory in
      let fetches = Counter()
      let disk = try await diskWithAnExpiredCopy(in: directory)
      let loader = ImageLoader(
        fetch: { _ in
          fetches.increment()
          throw URLError(.notConnectedToInternet)
        }, diskCache: disk)
      let stale = try await loader.image(for: url, policy: .staleWhileRevalidate)
      #expect(stale.width == 1, "the expired copy should be returned at once")
      await loader.waitForBackgroundRefreshes()
      #expect(fetches.value == 1, "the stale read should start one background refresh, saw \(fetches.value)")
      #expect(
        !loader.memoryCache.contains(url),
        "the refresh failed, so the copy is still expired: it must not sit in memory, where no TTL would ever make it stale again")
      let again = try await loader.image(for: url, policy: .staleWhileRevalidate)
      #expect(again.width == 1, "offline, the stale copy is still served")
      await loader.waitForBackgroundRefreshes()
      #expect(
        fetches.value == 2,
        "after a failed refresh the next stale read should try again (a stale copy served from memory never would); \(fetches.value) fetches")
      await #expect(throws: ImageLoaderError.network(.notConnectedToInternet), "cache-first must not take an expired copy for a fresh one") {
        try await loader.image(for: url, policy: .cacheFirst)
      }
    }
  }

  @Test("metrics: a cache-only miss and a cancelled caller are not failures; a failed fetch is one, and a fetch")
  func metricsCountWhatWentWrong() async throws {
    let url = self.url
    let network = ManualClock()
    let loader = ImageLoader(
      fetch: { url in
        if url.lastPathComponent == "offline.png" { throw URLError(.notConnectedToInternet) }
        try await network.sleep(for: .seconds(1))
        return (SampleImages.png(width: 1, height: 1), StubURLProtocol.response(for: URLRequest(url: url)))
      }, diskCache: nil)
    await #expect(throws: ImageLoaderError.notCached, "nothing is cached") { try await loader.image(for: url, policy: .cacheOnly) }
    var metrics = await loader.metrics
    #expect(
      metrics.requests == 1 && metrics.failures == 0 && metrics.networkFetches == 0,
      "a cache-only miss is a request but not a failure (nothing went wrong, there is no copy) and sends nothing; got \(metrics)")
    let offline = URL(string: "https://images.example.com/offline.png")!
    await #expect(throws: ImageLoaderError.network(.notConnectedToInternet), "the fetch fails") { try await loader.image(for: offline) }
    metrics = await loader.metrics
    #expect(
      metrics.failures == 1 && metrics.networkFetches == 1,
      "a fetch that fails is one failure, and it counts as a fetch, since it was started; got \(metrics)")
    let ended = Counter()
    let leaving = Task {
      defer { _ = ended.increment() }
      return try await loader.image(for: url)
    }
    await network.waitForSleepers(1) { ended.value > 0 }
    leaving.cancel()
    let result = await leaving.result
    #expect(isCancellation(result), "the cancelled caller gets CancellationError, got \(result)")
    metrics = await loader.metrics
    #expect(
      metrics.requests == 3 && metrics.failures == 1 && metrics.networkFetches == 2,
      "a caller that cancelled left; that is not a failure of the loader (its fetch was still started and counts); got \(metrics)")
  }

  /// Decodes like `HeaderImageDecoder`, but the first decode blocks its thread until the test
  /// opens it: a synchronous decode that takes long, as a big image's does.
  final class BlockingDecoder: ImageDecoder, @unchecked Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let exit = DispatchSemaphore(value: 0)
    private let calls = Counter()

    func decode(_ data: Data) throws -> DecodedImage {
      if calls.increment() == 1 {
        entered.signal()
        exit.wait()
      }
      return try HeaderImageDecoder().decode(data)
    }

    /// Whether the first decode has begun (it then stays blocked until `open()`).
    var hasEntered: Bool {
      guard entered.wait(timeout: .now()) == .success else { return false }
      entered.signal()
      return true
    }

    func open() { exit.signal() }
  }

  @Test("decoding a disk hit happens off the loader: a decode that blocks its thread leaves the loader free")
  func decodingADiskHitLeavesTheLoaderFree() async throws {
    try await withTemporaryDirectory("loader") { directory in
      let disk = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      try await disk.store(SampleImages.png(width: 3, height: 3), forKey: url.absoluteString)
      let decoder = BlockingDecoder()
      let loader = ImageLoader(fetch: { _ in throw URLError(.notConnectedToInternet) }, diskCache: disk, decoder: decoder)
      let url = self.url
      let hitEnded = Counter()
      let hit = Task {
        defer { _ = hitEnded.increment() }
        return try await loader.image(for: url)
      }
      defer { decoder.open() }
      await eventually(.threads, giveUp: { hitEnded.value > 0 }) { decoder.hasEntered }
      guard decoder.hasEntered else {
        Issue.record("a disk hit should be decoded with the loader's decoder; the load ended first: \(await hit.result)")
        return
      }
      // The decode now blocks a thread. If it blocked the loader's, this call could not start.
      let other = Task { await loader.isLoading(URL(string: "https://images.example.com/other.png")!) }
      let finished = Counter()
      Task {
        _ = await other.value
        _ = finished.increment()
      }
      await eventually(.threads) { finished.value == 1 }
      #expect(
        finished.value == 1,
        "while a disk hit is decoded, other calls on the loader must go on: decode in a @concurrent function, not on the actor (a plain nonisolated async function runs on its caller's actor under SE-0461)"
      )
      decoder.open()
      #expect(try await hit.value.width == 3, "the disk hit is served once its decode ends")
    }
  }

  @Test("a memory warning purges memory only; the disk copy still saves a request")
  func memoryWarningKeepsDisk() async throws {
    try await withTemporaryDirectory("loader") { directory in
      let server = Server()
      let loader = try makeLoader(server, in: directory)
      _ = try await loader.image(for: url)
      loader.handleMemoryWarning()
      #expect(loader.memoryCache.count == 0, "a memory warning must empty the memory tier")
      #expect(await loader.diskCache?.contains(url.absoluteString) == true, "a memory warning must not touch the disk tier")
      _ = try await loader.image(for: url)
      #expect(server.requests.value == 1, "after a memory warning the image should come back from disk, not the network")
    }
  }

  @Test("a disk entry that no longer decodes is dropped and fetched again")
  func damagedDiskEntryIsRefetched() async throws {
    try await withTemporaryDirectory("loader") { directory in
      let server = Server()
      let loader = try makeLoader(server, in: directory)
      try await loader.diskCache?.store(Data("not an image".utf8), forKey: url.absoluteString)
      let image = try await loader.image(for: url)
      #expect(image.width == 2, "a damaged disk entry should be treated as a miss and the image fetched")
      #expect(server.requests.value == 1, "the damaged entry should cost exactly one request")
      let stored = await loader.diskCache?.data(forKey: url.absoluteString)
      #expect(stored == SampleImages.png(width: 2, height: 3), "the damaged entry should be replaced by the fetched image")
    }
  }

  @Test("1,000 concurrent loads of one URL make exactly one fetch")
  func thousandLoadsOneFetch() async throws {
    let network = ManualClock()
    let fetches = Counter()
    let loader = ImageLoader(
      fetch: { url in
        fetches.increment()
        try await network.sleep(for: .seconds(1))
        return (SampleImages.jpeg(width: 4, height: 4), StubURLProtocol.response(for: URLRequest(url: url)))
      }, diskCache: nil)
    let url = self.url
    let crowd = await joined(1_000, on: loader.coalescer, key: url) { _ in try await loader.image(for: url) }
    await network.waitForSleepers(1) { crowd.allFinished }
    await settle()
    #expect(fetches.value == 1, "1,000 loads wait while the fetch sleeps: it should have started once, not \(fetches.value) times")
    await network.advance(by: .seconds(1))
    for task in crowd.tasks {
      #expect(try await task.value.width == 4, "every caller gets the image")
    }
    #expect(fetches.value == 1, "1,000 concurrent loads of one URL should fetch once, not \(fetches.value) times")
    let metrics = await loader.metrics
    #expect(metrics.requests == 1_000 && metrics.networkFetches == 1, "1,000 requests, one fetch: \(metrics)")
  }

  @Test("isCached counts no hit, miss or request; going to the background trims the memory tier to half")
  func isCachedCountsNothingAndBackgroundTrims() async throws {
    let loader = ImageLoader(fetch: Server().fetch(), diskCache: nil, memoryCache: ImageLoader.makeMemoryCache(costLimit: 400))
    let urls = (0..<4).map { URL(string: "https://images.example.com/\($0).png")! }
    // 5 × 5 pixels decode to 100 bytes: four of them fill the 400-byte tier.
    for url in urls { loader.memoryCache.setValue(DecodedImage(format: .png, width: 5, height: 5, bytes: Data()), forKey: url) }
    let cached = await loader.isCached(urls[0])
    #expect(cached, "an image in the memory tier is cached")
    let (statistics, requests) = (loader.memoryCache.statistics, await loader.metrics.requests)
    #expect(
      statistics == MemoryCache<URL, DecodedImage>.Statistics() && requests == 0,
      "isCached is a question, not a lookup: no hit, miss or request may be counted; statistics \(statistics), requests \(requests)")
    loader.didEnterBackground()
    let left = loader.memoryCache.keysByRecency
    #expect(
      left == [urls[3], urls[2]],
      "going to the background trims the memory tier to half its cost limit (200 of 400 bytes), keeping the two newest images; left: \(left)")
  }
}

extension Exercise6_ImageLoaderTests {
  @Test("network-only keeps what it fetched: the next cache-only load finds it")
  func networkOnlyKeepsItsResult() async throws {
    try await withTemporaryDirectory("loader") { directory in
      let server = Server()
      let loader = try makeLoader(server, in: directory)
      _ = try await loader.image(for: url, policy: .networkOnly)
      #expect(loader.memoryCache.contains(url), "network-only reads no cache, but the image it fetched is kept in memory")
      #expect(await loader.diskCache?.contains(url.absoluteString) == true, "and on disk, for the loads after it")
      let cached = try await loader.image(for: url, policy: .cacheOnly)
      #expect(cached.width == 2 && server.requests.value == 1, "a cache-only load after it is served without a request")
    }
  }

  @Test("waitForBackgroundRefreshes returns once the refresh has ended, not while its fetch runs")
  func waitingForRefreshesWaitsForTheirFetch() async throws {
    try await withTemporaryDirectory("loader") { directory in
      let network = ManualClock()
      let disk = try await diskWithAnExpiredCopy(in: directory)
      let loader = ImageLoader(
        fetch: { url in
          try await network.sleep(for: .seconds(1))
          return (SampleImages.png(width: 5, height: 5), StubURLProtocol.response(for: URLRequest(url: url)))
        }, diskCache: disk)
      _ = try await loader.image(for: url, policy: .staleWhileRevalidate)  // starts the refresh
      let fetching = await network.waitForSleepers(1)
      #expect(fetching, "a stale read should start a refresh whose fetch is now asleep")
      let returned = Counter()
      let waiting = Task {
        await loader.waitForBackgroundRefreshes()
        returned.increment()
      }
      await settle()  // everything is parked: a wait that was going to return has returned
      #expect(returned.value == 0, "waitForBackgroundRefreshes returned while the refresh's fetch was still asleep")
      await network.run()  // the fetch answers
      await waiting.value
      #expect(
        await disk.contains(url.absoluteString),
        "when waitForBackgroundRefreshes returns, the refresh has ended and stored its fresh copy on disk")
    }
  }

  @Test("the hit rate is 0 before the first request")
  func hitRateBeforeTheFirstRequest() async {
    let loader = ImageLoader(fetch: Server().fetch(), diskCache: nil)
    let rate = await loader.metrics.hitRate
    #expect(rate == 0, "no request has been made, so none was served from a cache: the rate should be 0, got \(rate)")
  }

  @Test("the loader's memory tier costs an image its decoded bytes and refuses one over a quarter of its limit")
  func theImageTierRefusesAnImageOverAQuarter() {
    let tier = ImageLoader.makeMemoryCache(costLimit: 400)
    let other = URL(string: "https://images.example.com/banner.png")!
    let quarter = DecodedImage(format: .png, width: 5, height: 5, bytes: Data())  // 100 bytes decoded
    let over = DecodedImage(format: .png, width: 6, height: 5, bytes: Data())  // 120 bytes decoded
    #expect(tier.setValue(quarter, forKey: url), "5 × 5 pixels decode to 100 bytes, a quarter of 400: stored")
    #expect(!tier.setValue(over, forKey: other), "6 × 5 pixels decode to 120 bytes, over a quarter of 400: refused")
    #expect(tier.totalCost == 100, "only the 100-byte image is held; the total is \(tier.totalCost)")
  }
}
