import Foundation
import ImageCache
import Testing
import WorkbookTesting

@testable import Feed

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The cost table promises O(lookahead) per visible-row change, however long the feed: one slice
/// of the posts, one set difference. `GrowthCheck` times a scroll of one row on a feed of 100
/// posts, then of 10,000 and 100,000, and fails when it costs more than 20× what it cost on 100:
/// a window found by walking every post (filtering all of them by index, say) grows ~1,000×.
/// Every size scrolls over the same rows, down from the top to row 80 and back, so each scroll
/// finds a full window of 10 posts on the short feed as on the long ones: the same work.
@Suite("Exercise 3 — Images ahead of the scroll (cost)", .timeLimit(.minutes(1)))
struct Exercise3_FeedImagesCostTests {
  @Test("a scroll of one row costs the same on a feed of 100 posts and on one of 100,000")
  func aScrollCostsTheSameOnALongFeed() async {
    var started: [FeedImages] = []
    let verdict = await GrowthCheck(sizes: [10_000, 100_000], unit: "posts").run { count in
      let (images, workload) = await Self.scrollWorkload(posts: count)
      started.append(images)
      return workload
    }
    for images in started { await images.handleMemoryWarning() }  // stops every prefetch
    if let failure = verdict.message(possibleCauses: [
      "a window found by walking the posts (`enumerated().filter`, a `compactMap` or `firstIndex` over every post) "
        + "where `posts[start..<end]` slices only the `lookahead` posts below the visible ones",
      "a set built from every post's URL on each scroll, where the set difference needs only the window's",
    ]) {
      Issue.record("\(failure)")
    }
  }

  /// Images for a feed of `count` posts, each with its own image URL, whose fetches never end
  /// (they sleep on a clock nobody moves), and a round of 200 scrolls of one row each. The rows
  /// shown go down from 0..<5 to 80..<85 and back, on every size: each scroll's window (the 10
  /// rows below the visible ones) lies inside the 100 posts of the shortest feed, and each call
  /// reports the rows of its window, so the check can compare the sizes' work.
  static func scrollWorkload(posts count: Int) async -> (FeedImages, GrowthCheck.Workload) {
    let clock = ManualClock()
    let fetch: ImageFetch = { _ in
      try await clock.sleep(for: .seconds(3_600))
      throw URLError(.timedOut)
    }
    let images = FeedImages(loader: ImageLoader(fetch: fetch, diskCache: nil), lookahead: 10)
    let posts = (0..<count).map(ScriptedFeedAPI.post)
    await images.visibleRowsChanged(0..<5, of: posts)
    guard await images.prefetching.count == 10 else {
      return (
        images,
        .broken(
          "rows 0..<5 of \(count) posts with a lookahead of 10 should prefetch the images of posts 5..<15; "
            + "the images tests say what is missing")
      )
    }
    var top = 0
    var step = 1
    return (
      images,
      .ready { timer in
        await timer.timeWork("a scroll of one row", calls: 200) { _ in
          top += step
          if top == 0 || top == 80 { step = -step }
          await images.visibleRowsChanged(top..<(top + 5), of: posts)
          return min(top + 15, posts.count) - min(top + 5, posts.count)  // the rows of the window
        }
      }
    )
  }
}
