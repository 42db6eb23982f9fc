import Foundation
import ImageCache
import Synchronization
import Testing
import WorkbookTesting

@testable import Feed

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Exercise 3 — Images ahead of the scroll", .timeLimit(.minutes(1)))
struct Exercise3_FeedImagesTests {
  /// A fake image server: records every URL fetched; with a clock, each fetch waits a second.
  final class ImageServer: Sendable {
    let fetched = Mutex<[URL]>([])
    let cancellations = Counter()
    let clock: ManualClock?

    init(clock: ManualClock? = nil) { self.clock = clock }

    var urls: [URL] { fetched.withLock { $0 } }

    func fetch() -> ImageFetch {
      { [self] url in
        fetched.withLock { $0.append(url) }
        if let clock {
          do {
            try await clock.sleep(for: .seconds(1))
          } catch {
            cancellations.increment()
            throw error
          }
        }
        let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "image/png"])!
        return (SampleImages.png(width: 4, height: 4), response)
      }
    }
  }

  static func posts(_ count: Int, withoutImage: Set<Int> = []) -> [Post] {
    (0..<count).map { number in
      var post = ScriptedFeedAPI.post(number)
      if withoutImage.contains(number) { post.imageUrl = nil }
      return post
    }
  }

  @Test func prefetchesTheNextPostsNearestFirst() async throws {
    let server = ImageServer()
    let images = FeedImages(loader: ImageLoader(fetch: server.fetch(), diskCache: nil), lookahead: 5)
    let posts = Self.posts(30)
    await images.visibleRowsChanged(0..<3, of: posts)
    let expected = posts[3..<8].compactMap(\.imageUrl)
    #expect(await images.prefetching == expected, "rows 0–2 are visible: the next 5 posts (3–7) should be prefetched, nearest first")
    // The fetches answer at once: once everything has run, what was fetched is final.
    await settle()
    #expect(
      Set(server.urls) == Set(expected), "the images of posts 3–7 should be fetched, and nothing else; fetched \(server.urls.map(\.lastPathComponent))")
  }

  @Test func postsWithoutAnImageAreSkipped() async throws {
    let server = ImageServer()
    let images = FeedImages(loader: ImageLoader(fetch: server.fetch(), diskCache: nil), lookahead: 4)
    let posts = Self.posts(10, withoutImage: [1, 2])
    await images.visibleRowsChanged(0..<1, of: posts)
    #expect(
      await images.prefetching.map(\.lastPathComponent) == ["p3.png", "p4.png"],
      "the 4 posts after row 0 are 1–4; posts 1 and 2 have no image, so only 3 and 4 are prefetched")
    #expect(try await images.image(for: posts[1]) == nil, "a post without an image has no image to load")
  }

  @Test func theWindowStopsAtTheEndOfTheFeed() async throws {
    let images = FeedImages(loader: ImageLoader(fetch: ImageServer().fetch(), diskCache: nil), lookahead: 10)
    let posts = Self.posts(12)
    await images.visibleRowsChanged(8..<10, of: posts)
    #expect(await images.prefetching.count == 2, "only posts 10 and 11 are below row 9: the window must stop at the end")
    await images.visibleRowsChanged(10..<12, of: posts)
    #expect(await images.prefetching.isEmpty, "at the end of the feed there is nothing ahead to prefetch")
  }

  @Test func scrollingAwayCancelsWhatIsNoLongerAhead() async throws {
    let clock = ManualClock()
    let server = ImageServer(clock: clock)
    let images = FeedImages(loader: ImageLoader(fetch: server.fetch(), diskCache: nil), lookahead: 5, maxConcurrentPrefetches: 2)
    let posts = Self.posts(100)
    await images.visibleRowsChanged(0..<3, of: posts)
    await clock.waitForSleepers(2)
    await settle()
    #expect(await images.prefetcher.runningCount == 2, "prefetches run at most 2 at a time")
    // A fling: rows 50–52 are now visible.
    await images.visibleRowsChanged(50..<53, of: posts)
    let cancelled = await eventually { server.cancellations.value == 2 }
    #expect(cancelled, "the 2 running prefetches of rows 3–7 are no longer ahead: both should be cancelled, saw \(server.cancellations.value)")
    #expect(
      await images.prefetching == posts[53..<58].compactMap(\.imageUrl),
      "after the fling, the window should be rows 53–57")
    #expect(await images.prefetcher.pendingCount <= 3, "the old window's queued prefetches must be dropped, not left in the queue")
    await images.prefetcher.stop()
  }

  @Test("a memory warning stops prefetching and forgets the window")
  func aMemoryWarningStopsPrefetching() async throws {
    let clock = ManualClock()
    let server = ImageServer(clock: clock)
    let images = FeedImages(loader: ImageLoader(fetch: server.fetch(), diskCache: nil), lookahead: 5, maxConcurrentPrefetches: 2)
    await images.visibleRowsChanged(0..<1, of: Self.posts(10, withoutImage: []))
    let started = await clock.waitForSleepers(2)
    try #require(started, "rows 1–5 are ahead of row 0: their prefetches should start, 2 at a time, before the warning")
    await settle()
    await images.handleMemoryWarning()
    #expect(await images.prefetching.isEmpty, "after a memory warning nothing is ahead any more: forget the window")
    let pending = await images.prefetcher.pendingCount
    let running = await images.prefetcher.runningCount
    #expect(
      pending == 0 && running == 0,
      "a memory warning must stop the prefetcher too (the app is short of memory: this is no time to load images nobody sees); \(pending) queued, \(running) running"
    )
    // Play every sleep out: nothing the prefetcher had queued may start after the warning.
    await clock.run()
    #expect(
      server.urls.count == 2,
      "after the memory warning no further image should be fetched; fetched \(server.urls.map(\.lastPathComponent))")
  }

  @Test func aMemoryWarningPurgesMemoryOnly() async throws {
    try await withTemporaryDirectory { directory in
      let server = ImageServer()
      let disk = try DiskCache(directory: directory.url)
      let loader = ImageLoader(fetch: server.fetch(), diskCache: disk)
      let images = FeedImages(loader: loader, lookahead: 3)
      let post = ScriptedFeedAPI.post(7)
      _ = try await images.image(for: post)
      #expect(loader.memoryCache.count == 1, "the visible image should be in memory after it loaded")
      await images.handleMemoryWarning()
      #expect(loader.memoryCache.count == 0, "a memory warning must empty the memory tier")
      #expect(await disk.count == 1, "a memory warning must keep the disk tier: it costs no memory")
      _ = try await images.image(for: post)
      #expect(server.urls.count == 1, "after the warning the image should come back from disk, not from the network")
    }
  }

  @Test func aWindowPastTheEndIsEmpty() async throws {
    let images = FeedImages(loader: ImageLoader(fetch: ImageServer().fetch(), diskCache: nil), lookahead: 10)
    // After a refresh the feed can be shorter than the rows the screen last reported.
    await images.visibleRowsChanged(15..<20, of: Self.posts(12))
    #expect(await images.prefetching.isEmpty, "rows 15–19 of a 12-post feed: nothing is ahead (clamp the window to the feed, never a crash)")
  }

  @Test func theNextScrollAfterAMemoryWarningPrefetchesAgain() async throws {
    let server = ImageServer()
    let images = FeedImages(loader: ImageLoader(fetch: server.fetch(), diskCache: nil), lookahead: 3)
    let posts = Self.posts(30)
    await images.visibleRowsChanged(0..<1, of: posts)
    await settle()
    await images.handleMemoryWarning()
    await images.visibleRowsChanged(10..<11, of: posts)
    let expected = posts[11..<14].compactMap(\.imageUrl)
    #expect(
      await images.prefetching == expected,
      "a memory warning stops what was queued, not prefetching itself: the next scroll asks for rows 11–13")
    await settle()
    #expect(
      Set(expected).isSubset(of: Set(server.urls)),
      "the images ahead of the new window should be fetched after the warning; fetched \(server.urls.map(\.lastPathComponent))")
  }

  @Test("a post without an image has none, and asks nothing of the network; a post with one gets the loader's image")
  func aPostWithoutAnImageHasNone() async throws {
    let server = ImageServer()
    let images = FeedImages(loader: ImageLoader(fetch: server.fetch(), diskCache: nil), lookahead: 3)
    let bare = Self.posts(3, withoutImage: [2])[2]
    let none = try await images.image(for: bare)
    #expect(none == nil, "a post without an image URL has no image: nil, not an error")
    #expect(server.urls.isEmpty, "a post without an image asks nothing of the network; fetched \(server.urls.map(\.lastPathComponent))")
    let post = ScriptedFeedAPI.post(4)
    let image = try await images.image(for: post)
    #expect(image != nil, "a post with an image URL gets the loader's image")
    #expect(server.urls == [post.imageUrl].compactMap { $0 }, "the image comes from its URL, once; fetched \(server.urls)")
  }
}
