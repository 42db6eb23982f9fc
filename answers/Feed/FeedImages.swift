// Exercise 3 — Images ahead of the scroll (intermediate)
//
// When rows scroll into view their images should already be in memory. Tell chapter 4's
// prefetcher about the images of the next `lookahead` posts below the visible rows, nearest
// first: the posts at `visible.upperBound ..< visible.upperBound + lookahead`, clamped to the
// feed. A post in that window without an image adds nothing (the window does not grow to make
// up for it). Cancel the prefetches of posts that are no longer ahead, so a fast fling does
// not leave a queue of images nobody will see. The prefetcher already bounds its concurrency
// and skips what is cached or loading: do not re-implement that.
//
// On a memory warning, purge the memory tier only and stop prefetching: the disk tier costs no
// RAM, and it is what makes the next scroll cheap.
import Foundation
import ImageCache
import Workbook

/// The feed's images: loads for visible cells, prefetches for the rows ahead.
public actor FeedImages {
  public nonisolated let loader: ImageLoader
  public nonisolated let prefetcher: ImagePrefetcher
  /// How many posts below the visible ones have their images prefetched.
  public nonisolated let lookahead: Int
  /// The image URLs currently asked of the prefetcher, nearest first.
  public private(set) var prefetching: [URL] = []

  public init(loader: ImageLoader, lookahead: Int = 10, maxConcurrentPrefetches: Int = 2) {
    self.loader = loader
    self.lookahead = max(0, lookahead)
    self.prefetcher = ImagePrefetcher(loader: loader, maxConcurrent: maxConcurrentPrefetches)
  }

  /// The image of a visible post (memory, then disk, then the network); nil if it has none.
  public func image(for post: Post) async throws -> DecodedImage? {
    guard let url = post.imageUrl else { return nil }
    return try await loader.image(for: url)
  }

  /// The user now sees `visible` (indices into `posts`): prefetch the images of the next
  /// `lookahead` posts and cancel the prefetches that are no longer ahead. O(lookahead).
  ///
  /// A `visible` range at or past the end of `posts` (the feed shrank after a refresh) leaves
  /// nothing ahead: the window is empty, never a crash. Yours to choose: whether a URL that two
  /// posts of the window share appears once or twice in `prefetching`, and whether you hand the
  /// prefetcher the whole window or only what is new in it (it queues a URL once either way).
  public func visibleRowsChanged(_ visible: Range<Int>, of posts: [Post]) async {
    let start = min(max(visible.upperBound, 0), posts.count)
    let end = min(start + lookahead, posts.count)
    let wanted = posts[start..<end].compactMap(\.imageUrl)
    let wantedSet = Set(wanted)
    let stale = prefetching.filter { !wantedSet.contains($0) }
    if !stale.isEmpty { await prefetcher.cancelPrefetching(stale) }
    prefetching = wanted
    await prefetcher.prefetch(wanted)
  }

  /// A memory warning: drop decoded images from memory and stop prefetching. Disk stays.
  ///
  /// The warning stops what is queued and running now, not the feature: the next
  /// `visibleRowsChanged` starts a new window and prefetches again.
  public func handleMemoryWarning() async {
    loader.handleMemoryWarning()
    prefetching = []
    await prefetcher.stop()
  }
}
