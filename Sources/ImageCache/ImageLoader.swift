// Exercise 6 — The loader and its policies (advanced)
//
// Put the pieces together: memory, then disk, then one coalesced network fetch. Validate before
// you cache (an HTTP 404 page or an HTML body must never become "the image"), promote disk hits
// to memory, and implement the five policies in `image(for:policy:)`. Count where every image
// came from, so the hit rate can be measured instead of guessed.
import Foundation
import Workbook

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Where an image may come from, and in which order.
public nonisolated enum LoadPolicy: Sendable, Hashable, CaseIterable {
  /// Memory, then fresh disk, then network. The default for feeds.
  case cacheFirst
  /// A cached copy at once, even expired; an expired one is refreshed in the background.
  /// An expired copy is served but never promoted to memory (memory keeps no disk expiry): if the
  /// refresh fails, the next read finds it stale on disk again and starts another refresh.
  case staleWhileRevalidate
  /// Memory or fresh disk only; a miss is `ImageLoaderError.notCached`, never a request.
  case cacheOnly
  /// Network first; when the network fails (offline, timeout), any cached copy, even expired.
  case networkFirst
  /// Always the network (the result is still cached for later).
  case networkOnly
}

/// Why an image could not be loaded.
public nonisolated enum ImageLoaderError: Error, Equatable, Sendable {
  /// `.cacheOnly` found nothing: nothing is wrong with any data, there just is none.
  case notCached
  /// The server answered with a status outside 200–299; the body was not cached.
  case httpStatus(Int)
  /// The server answered 2xx with bytes that are not an image; they were not cached.
  case invalidImage(ImageDecodingError)
  /// The request failed before a response (offline, timeout, DNS): the `URLError` code.
  case network(URLError.Code)
}

/// Where images came from since the loader was created.
public nonisolated struct ImageLoaderMetrics: Sendable, Equatable {
  /// Calls to `image(for:policy:)`.
  public var requests = 0
  public var memoryHits = 0
  public var diskHits = 0
  /// Fetches started: counted once per shared flight, when its fetch begins (before any answer,
  /// so a fetch that fails counts too). Coalesced callers share one; a background refresh of
  /// `.staleWhileRevalidate` is one.
  public var networkFetches = 0
  /// Calls that threw an `ImageLoaderError` other than `.notCached`. A cache-only miss is not a
  /// failure (nothing went wrong, there is no copy), and neither is a cancelled caller (it left).
  public var failures = 0

  public init() {}

  /// The share of requests served from memory or disk. 0 before the first request.
  public var hitRate: Double { requests == 0 ? 0 : Double(memoryHits + diskHits) / Double(requests) }
}

/// Fetches the bytes and response for a URL. `URLSession` in the app; a closure in tests that
/// must control timing.
public typealias ImageFetch = @Sendable (URL) async throws -> (Data, URLResponse)

/// Loads images through a memory cache, a disk cache and one coalesced fetch per URL.
public actor ImageLoader {
  /// The memory tier. Purge it on memory warnings with `handleMemoryWarning()`.
  public nonisolated let memoryCache: MemoryCache<URL, DecodedImage>
  /// The disk tier, if any.
  public nonisolated let diskCache: DiskCache?
  let coalescer = RequestCoalescer<URL, DecodedImage>()
  private let fetch: ImageFetch
  private let decoder: any ImageDecoder
  public private(set) var metrics = ImageLoaderMetrics()

  /// A memory cache sized for images: cost is decoded bytes, no single image above a quarter.
  public static func makeMemoryCache(costLimit: Int = 100_000_000, countLimit: Int = 500) -> MemoryCache<URL, DecodedImage> {
    MemoryCache(configuration: .init(costLimit: costLimit, countLimit: countLimit, maximumEntryFraction: 0.25)) { $0.cost }
  }

  /// A loader that fetches with `fetch`.
  public init(
    fetch: @escaping ImageFetch, diskCache: DiskCache?, memoryCache: MemoryCache<URL, DecodedImage> = ImageLoader.makeMemoryCache(),
    decoder: any ImageDecoder = HeaderImageDecoder()
  ) {
    self.fetch = fetch
    self.diskCache = diskCache
    self.memoryCache = memoryCache
    self.decoder = decoder
  }

  /// A loader that fetches with `session`.
  public init(
    session: URLSession, diskCache: DiskCache?, memoryCache: MemoryCache<URL, DecodedImage> = ImageLoader.makeMemoryCache(),
    decoder: any ImageDecoder = HeaderImageDecoder()
  ) {
    self.init(fetch: { url in try await session.data(for: URLRequest(url: url)) }, diskCache: diskCache, memoryCache: memoryCache, decoder: decoder)
  }

  /// The image for `url` under `policy`.
  ///
  /// Throws `ImageLoaderError` (`.notCached` only for `.cacheOnly`), or `CancellationError` if
  /// the caller is cancelled; other callers of the same URL are not affected by a cancellation.
  public func image(for url: URL, policy: LoadPolicy = .cacheFirst) async throws -> DecodedImage {
    // TODO: serve from memory, then disk, then one coalesced fetch, as `policy` allows.
    // Memory (`memoryCache`), then disk (`diskCache`, decode, promote), then one fetch through
    // `coalescer`: check the status, decode, and only then store on disk and in memory.
    throw NotImplemented("ImageLoader.image(for:policy:)")
  }

  // Given — it asks both caches, without counting a hit or a miss.
  /// True if `url` is in memory or fresh on disk (no hit or miss is counted).
  public func isCached(_ url: URL) async -> Bool {
    if memoryCache.contains(url) { return true }
    return await diskCache?.contains(url.absoluteString) ?? false
  }

  /// The prefetcher asks it before it starts a load of its own.
  public func isLoading(_ url: URL) async -> Bool {
    await coalescer.isInFlight(url)
  }

  /// A memory warning: drop the memory tier only. The disk tier costs no RAM and makes the
  /// next scroll cheap.
  public nonisolated func handleMemoryWarning() {
    memoryCache.handle(.memoryWarning)
  }

  /// The app went to the background: trim the memory tier.
  public nonisolated func didEnterBackground() {
    memoryCache.handle(.didEnterBackground)
  }

  /// Waits for the background refreshes started by `.staleWhileRevalidate`.
  public func waitForBackgroundRefreshes() async {
    // TODO: await every refresh started by `.staleWhileRevalidate` (returns at once for now).
  }
}
