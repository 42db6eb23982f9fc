import Foundation
import Testing
import WorkbookTesting

@testable import Feed

/// The view model runs on the main actor, once for every row that scrolls in and every tap on a
/// heart, so the text promises both O(1) however long the feed: the row is found through an id →
/// position index, and a like changes one post of the state in place. `GrowthCheck` times 200
/// rows appearing and 200 likes on a feed of 100 posts, then of 10,000 and 30,000, and fails
/// when either costs more than 20× what it cost on 100. Each feed is built through exercise 1's
/// repository, whose duplicate check a wrong answer may make O(n) a post (mutant 41, which
/// `pagesAndLikesTakeConstantTime` fails): at 100,000 that build alone took minutes, at 30,000
/// it takes seconds, and a search or a copy still grows 300× there. The rows and the liked posts lie in the
/// second half of the feed and never within `prefetchDistance` of its end, so no call loads a
/// page and every size does the same work; a search with `firstIndex(where:)` walks three
/// quarters of the feed on average, and a like that copies the posts copies all of them. Rows
/// appear ten to a main-actor turn, so the hop to the main actor is not what is timed.
@Suite("Exercise 5 — The screen's view model (cost)", .timeLimit(.minutes(1)))
struct Exercise5_FeedViewModelCostTests {
  @Test("a row that appears and a like cost the same on a feed of 100 posts and on one of 30,000")
  func rowsAndLikesCostTheSameOnALongFeed() async {
    let verdict = await GrowthCheck(sizes: [10_000, 30_000], unit: "posts").run { count in
      await Self.workload(posts: count)
    }
    if let failure = verdict.message(possibleCauses: [
      "a row found with `posts.firstIndex(where:)`, which walks the feed, where a dictionary from post id to "
        + "its row answers with a lookup (rebuilt only when a page or a refresh replaced the posts)",
      "a like that takes the posts out of `state` (`var posts = state.value`), changes one and puts them back: "
        + "while `state` still holds the array, changing it copies all of it (copy on write)",
      "a like that shows the repository's whole array afterwards instead of the one post it changed",
    ]) {
      Issue.record("\(failure)")
    }
  }

  @Test("a like changes the shown posts in place: after the first, likes leave them in the same storage")
  func aLikeChangesThePostsInPlace() async throws {
    let places = StorageLog()
    let api = InstantFeedAPI(posts: 1_000) { await places.record() }
    let repository = FeedRepository(api: api, pageSize: 1_000)
    let model = await FeedViewModel(
      feed: OfflineFeed(repository: repository, persistence: NoFeedPersistence()),
      actions: FeedActions(api: api, repository: repository))
    await places.watch(model)
    await model.onAppear()
    let liked = try await Self.posts(at: [500, 600, 700, 800], of: model)
    // The first like may copy the posts once (the repository may share them); each later one
    // changes one post where it is, before its request (the like shows at once) and after.
    await model.toggleLike(liked[0])
    await places.clear()
    for post in liked.dropFirst() {
      await places.record()
      await model.toggleLike(post)
      await places.record()
    }
    let seen = await places.places
    #expect(
      seen.count == 9 && Set(seen).count == 1,
      """
      before, during and after each of 3 likes (after a first), the shown posts should stay in the same storage: a like \
      changes one post in place; they were in \(Set(seen).count) places over \(seen.count) readings. A like that copies \
      all 1,000 posts does that, as one does when it changes the posts while `state` still holds them (copy on write), \
      and so does `posts` building a new array each time it is read
      """)
  }

  /// The posts at `indices` of what `model` shows, read without keeping the array alive (a copy
  /// held here would make the next like copy the posts, in any answer).
  @MainActor
  static func posts(at indices: [Int], of model: FeedViewModel) throws -> [Post] {
    let posts = model.posts
    try #require(posts.count == 1_000, "onAppear with a first page of 1,000 posts should show 1,000, showed \(posts.count)")
    return indices.map { posts[$0] }
  }

  /// A view model showing a feed of `count` posts (one page, from a server that answers at once),
  /// and a round of 200 rows appearing (in turns of 10) and 200 likes, in the feed's second half.
  static func workload(posts count: Int) async -> GrowthCheck.Workload {
    let api = InstantFeedAPI(posts: count)
    let repository = FeedRepository(api: api, pageSize: count)
    let model = await FeedViewModel(
      feed: OfflineFeed(repository: repository, persistence: NoFeedPersistence()),
      actions: FeedActions(api: api, repository: repository))
    await model.onAppear()
    let posts = await model.posts
    guard posts.count == count else {
      return .broken(
        "onAppear with a first page of \(count) posts should show \(count) posts, showed \(posts.count); "
          + "the view model's tests say what is missing")
    }
    let half = count / 2
    let span = half - 2 * (await model.prefetchDistance)
    let rows = (0..<200).map { posts[half + ($0 * 7_919 + 13) % span] }
    return .ready { timer in
      await timer.time("rowAppeared", calls: rows.count / 10, units: 10) { turn in
        await Self.appear(rows[(turn * 10)..<(turn * 10 + 10)], on: model)
      }
      await timer.time("toggleLike", calls: rows.count) { await model.toggleLike(rows[$0]) }
    }
  }

  /// Rows appearing one after another in one main-actor turn, as a fling shows them.
  @MainActor
  static func appear(_ rows: ArraySlice<Post>, on model: FeedViewModel) async {
    for row in rows { await model.rowAppeared(row) }
  }
}

/// A server that answers at once: a first page of every post, and a like in O(1). `onLike` runs
/// while a like's request is at the server.
final class InstantFeedAPI: FeedAPI {
  let posts: [Post]
  let positions: [String: Int]
  let onLike: @Sendable () async -> Void

  init(posts count: Int, onLike: @escaping @Sendable () async -> Void = {}) {
    posts = (0..<count).map(ScriptedFeedAPI.post)
    positions = Dictionary(uniqueKeysWithValues: posts.enumerated().map { ($1.id, $0) })
    self.onLike = onLike
  }

  func feedPage(cursor: String?, limit: Int) async throws -> FeedPage {
    FeedPage(posts: cursor == nil ? Array(posts.prefix(limit)) : [], nextCursor: nil)
  }

  func setLike(_ like: Bool, postID: String) async throws -> Post {
    await onLike()
    guard let index = positions[postID] else { throw URLError(.badServerResponse) }
    var post = posts[index]
    post.likedByMe = like
    post.likeCount += like ? 1 : 0
    return post
  }

  func postComment(_ text: String, postID: String, idempotencyKey: String) async throws -> Feed.Comment {
    throw URLError(.unsupportedURL)
  }
}

/// Saves nothing and has nothing saved: the cost check times the screen, not the disk.
struct NoFeedPersistence: FeedPersistence {
  func load() async -> FeedSnapshot? { nil }
  func save(_ snapshot: FeedSnapshot) async throws(FeedError) {}
}

/// Where a view model's shown posts are stored, read at the moments a test asks.
@MainActor
final class StorageLog {
  private weak var model: FeedViewModel?
  private(set) var places: [UInt] = []

  func watch(_ model: FeedViewModel) { self.model = model }
  func clear() { places = [] }

  /// Reads where the posts' elements are, without keeping the array.
  func record() {
    guard let model else { return }
    places.append(model.posts.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) })
  }
}
