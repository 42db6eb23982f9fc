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
    if let failure = verdict.message(
      advice: """
        The window is `posts[start..<end]` for the `lookahead` posts below the visible ones: \
        slice the array, never walk it (`enumerated().filter`, `compactMap` over every post, \
        `firstIndex`); the set difference with the window before is O(lookahead) too.
        """)
    {
      Issue.record("\(failure)")
    }
  }

  /// Images for a feed of `count` posts, each with its own image URL, whose fetches never end
  /// (they sleep on a clock nobody moves), and a round of 200 scrolls of one row each.
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
    return (
      images,
      .ready { timer in
        await timer.time("a scroll of one row", calls: 200) { _ in
          top = (top + 1) % 1_000
          await images.visibleRowsChanged(top..<(top + 5), of: posts)
        }
      }
    )
  }
}
