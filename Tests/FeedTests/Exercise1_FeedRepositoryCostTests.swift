import Foundation
import Testing
import WorkbookTesting

@testable import Feed

/// The cost table promises a page of p posts appended in O(p), whatever the feed already holds,
/// and a like (`update`) in O(1): both find a post through the id → position index. `GrowthCheck`
/// times them on a feed of 100 posts, then of 10,000 and 30,000, and fails when one grows more
/// than 20×. With the index both stay within 1–3×; a duplicate check or an update that searches
/// `posts` grows with the feed, about 50× at 10,000 and 150× at 30,000. Building a feed goes
/// through the same duplicate check, so with a search a feed of 10,000 takes seconds to build
/// (and one of 100,000 would take minutes): the largest size stays at 30,000, and each large feed
/// is built once and kept for the check's attempts, where wrong code must fail about as fast as
/// right code passes. A round appends one page of 100 posts: a page load also hops to the
/// single-flight store's task, and on a busy machine that hop alone has cost a 20-post page 0.2 to
/// 1.5 ms, enough to bring a search's growth under 20×; a page five times larger costs a search
/// five times more and the hop no more. A kept feed grows by at most 2,100 posts over every
/// round of every attempt, which only makes a search dearer; the 100-post feed is built afresh
/// for each attempt.
@Suite("Exercise 1 — Cursor pagination without duplicates (cost)", .timeLimit(.minutes(1)))
struct Exercise1_FeedRepositoryCostTests {
  @Test("a page and a like cost the same on a feed of 100 posts and on one of 30,000")
  func pagesAndLikesTakeConstantTime() async {
    let check = GrowthCheck(sizes: [10_000, 30_000], unit: "posts")
    var built: [Int: FeedRepository] = [:]
    let verdict = await check.run { count in
      let (repository, workload) = await Self.feedWorkload(posts: count, reusing: built[count])
      if count > check.baselineSize { built[count] = repository }
      return workload
    }
    if let failure = verdict.message(possibleCauses: [
      "a duplicate check of each new post that walks the feed (`posts.contains(where:)`), where a dictionary "
        + "from post id to its position answers with a lookup",
      "an update that finds the liked post with `posts.firstIndex(where:)`, where the same dictionary gives its position",
    ]) {
      Issue.record("\(failure)")
    }
  }

  /// A feed of `posts` posts (one page given to `replace`, or `repository` when given, built so by
  /// an earlier attempt) whose next pages come from an `EndlessFeedAPI`, and a round of one page
  /// load (100 new posts) and 200 likes of posts of the first page, picked at random.
  static func feedWorkload(
    posts count: Int, reusing repository: FeedRepository?
  ) async -> (FeedRepository, GrowthCheck.Workload) {
    let repository = if let repository { repository } else { await Self.feed(posts: count) }
    guard await repository.posts.count >= count, await repository.post(id: "p\(count - 1)") != nil else {
      return (
        repository,
        .broken(
          "replace(with:) a page of \(count) posts should leave \(count) posts, each found by post(id:); "
            + "the pagination tests say what is missing")
      )
    }
    var random = SeededRandom(seed: UInt64(count))
    var liked = false
    return (
      repository,
      .ready { timer in
        // Each load reports the posts it appended: 100 at every size, or the sizes' work differs.
        await timer.timeWork("loadNextPage (100 new posts)", calls: 1) { _ in (try? await repository.loadNextPage())?.count ?? 0 }
        liked.toggle()
        let likes = (0..<200).map { _ in
          var post = ScriptedFeedAPI.post(Int(random.next() % UInt64(count)))
          post.likedByMe = liked
          return post
        }
        await timer.time("update (a like)", calls: likes.count) { await repository.update(likes[$0]) }
      }
    )
  }

  /// A feed of `count` posts, given to `replace` as one page, whose next pages continue the
  /// numbering.
  private static func feed(posts count: Int) async -> FeedRepository {
    let repository = FeedRepository(api: EndlessFeedAPI(firstNumber: count), pageSize: EndlessFeedAPI.pageSize)
    await repository.replace(with: FeedPage(posts: (0..<count).map(ScriptedFeedAPI.post), nextCursor: "page:0"))
    return repository
  }
}

/// A feed with no end: the page after cursor `page:N` holds the next `pageSize` posts, numbered
/// from `firstNumber`, so each page costs O(pageSize) to serve whatever came before.
final class EndlessFeedAPI: FeedAPI {
  static let pageSize = 100
  let firstNumber: Int

  init(firstNumber: Int) { self.firstNumber = firstNumber }

  func feedPage(cursor: String?, limit: Int) async throws -> FeedPage {
    let page = cursor.flatMap { Int($0.dropFirst("page:".count)) } ?? 0
    let first = firstNumber + page * limit
    return FeedPage(posts: (first..<(first + limit)).map(ScriptedFeedAPI.post), nextCursor: "page:\(page + 1)")
  }

  func setLike(_ liked: Bool, postID: String) async throws -> Post { throw URLError(.unsupportedURL) }

  func postComment(_ text: String, postID: String, idempotencyKey: String) async throws -> Feed.Comment {
    throw URLError(.unsupportedURL)
  }
}
