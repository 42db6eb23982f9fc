import Foundation
import Synchronization
import Testing
import WorkbookTesting

@testable import Feed

/// What the server says to the next page request.
enum PageAnswer: CustomStringConvertible {
  case page(FeedPage)
  /// The request fails (offline).
  case failure

  var description: String {
    switch self {
    case .page(let page): FeedStep.show(page)
    case .failure: "a failure (offline)"
    }
  }
}

/// One thing the app or the server does to a feed repository.
enum FeedStep: CustomStringConvertible {
  /// `loadNextPage()`; if it asks the server, the server answers `answer`.
  case loadNextPage(answer: PageAnswer)
  case replace(FeedPage)
  case restore(FeedPage)
  case update(Post)
  case lookUp(id: String)

  var description: String {
    switch self {
    case .loadNextPage(let answer): "loadNextPage(), the server answering \(answer) if asked"
    case .replace(let page): "replace(with: \(Self.show(page)))"
    case .restore(let page): "restore(\(Self.show(page)))"
    case .update(let post): "update(\(Self.show(post)))"
    case .lookUp(let id): "post(id: \"\(id)\")"
    }
  }

  static func show(_ post: Post) -> String { "\(post.id) (\(post.likeCount) likes)" }

  static func show(_ page: FeedPage) -> String {
    let cursor = page.nextCursor.map { "\"\($0)\"" } ?? "nil"
    return "a page of [\(page.posts.map(show).joined(separator: ", "))], next cursor \(cursor)"
  }
}

/// The feed as it should be: an array searched from the start, the cursor and whether a page
/// from the network was applied. O(n) a post, and plainly right.
struct FeedArrayModel {
  var posts: [Post] = []
  var cursor: String?
  var hasMore = true
  var networkPageApplied = false

  /// Appends the page's posts not in the feed yet, replaces the others where they stand, moves
  /// the cursor on, and returns the ids added.
  mutating func apply(_ page: FeedPage) -> [String] {
    var added: [String] = []
    for post in page.posts {
      if let index = posts.firstIndex(where: { $0.id == post.id }) {
        posts[index] = post
      } else {
        posts.append(post)
        added.append(post.id)
      }
    }
    cursor = page.nextCursor
    hasMore = page.nextCursor != nil
    return added
  }

  mutating func startOver(with page: FeedPage) {
    posts = []
    _ = apply(page)
  }
}

/// A server that answers each page request with the answer the step gave it, and records the
/// requests.
final class OneAnswerFeedAPI: FeedAPI {
  struct Request: Equatable, CustomStringConvertible {
    var cursor: String?
    var limit: Int
    var description: String { "cursor \(cursor.map { "\"\($0)\"" } ?? "nil"), limit \(limit)" }
  }
  private struct State {
    var answer: PageAnswer?
    var requests: [Request] = []
  }
  private let state = Mutex(State())

  /// The answer to the next request; a request with no answer set fails.
  func answerNext(_ answer: PageAnswer) { state.withLock { $0.answer = answer } }

  /// The requests made since the last call.
  func takeRequests() -> [Request] {
    state.withLock { state in
      defer { state.requests = [] }
      return state.requests
    }
  }

  func feedPage(cursor: String?, limit: Int) async throws -> FeedPage {
    let answer = state.withLock { state in
      state.requests.append(Request(cursor: cursor, limit: limit))
      defer { state.answer = nil }
      return state.answer
    }
    guard case .page(let page) = answer else { throw URLError(.notConnectedToInternet) }
    return page
  }

  func setLike(_ liked: Bool, postID: String) async throws -> Post { throw URLError(.unsupportedURL) }

  func postComment(_ text: String, postID: String, idempotencyKey: String) async throws -> Feed.Comment {
    throw URLError(.unsupportedURL)
  }
}

@Suite("Exercise 1 — Cursor pagination without duplicates (against a model)", .timeLimit(.minutes(1)))
struct Exercise1_FeedRepositoryModelTests {
  static let pageSize = 3

  /// A post from a pool of eight ids, so pages repeat posts, with a like count that changes, so a
  /// newer copy differs from the one it replaces.
  static func post(using random: inout SeededRandom) -> Post {
    var post = ScriptedFeedAPI.post(Int.random(in: 0..<8, using: &random))
    post.likeCount = Int.random(in: 0..<4, using: &random)
    return post
  }

  /// A page of up to one more post than the page size (servers send what they have), the same id
  /// twice now and then, and a next cursor that is often missing (the last page) or needs escaping.
  static func page(using random: inout SeededRandom) -> FeedPage {
    var posts = (0..<random.boundary(pageSize)).map { _ in post(using: &random) }
    if let first = posts.first, random.chance(15) { posts.append(first) }
    let cursor = random.chance(25) ? nil : random.pick(["c1", "c2", "after:p7", "a b&c=d/é"])
    return FeedPage(posts: posts, nextCursor: cursor)
  }

  @Test("page loads answered with pages, repeats and failures, refreshes, restores, likes and look-ups agree with an array")
  func agreesWithAModel() async {
    let check = ModelCheck<FeedStep, FeedArrayModel, (repository: FeedRepository, api: OneAnswerFeedAPI)>(
      "FeedRepository against an array searched from the start", steps: 40, replay: "make chapter-6 EXERCISE=1",
      generate: { random in
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<45: .loadNextPage(answer: random.chance(20) ? .failure : .page(Self.page(using: &random)))
        case 45..<55: .replace(Self.page(using: &random))
        case 55..<65: .restore(Self.page(using: &random))
        case 65..<85: .update(Self.post(using: &random))
        default: .lookUp(id: "p\(Int.random(in: 0..<9, using: &random))")
        }
      },
      model: { FeedArrayModel() },
      system: {
        let api = OneAnswerFeedAPI()
        return (FeedRepository(api: api, pageSize: Self.pageSize), api)
      },
      step: { step, model, world, check in
        let repository = world.repository
        switch step {
        case .loadNextPage(let answer):
          world.api.answerNext(answer)
          let asks = model.hasMore
          let expected = asks ? [OneAnswerFeedAPI.Request(cursor: model.cursor, limit: Self.pageSize)] : []
          var added: [String]?
          do { added = try await repository.loadNextPage().map(\.id) } catch {}
          check.same("the page requests \(step) made", model: expected, component: world.api.takeRequests())
          switch (asks, answer) {
          case (true, .page(let page)):
            model.networkPageApplied = true
            check.same("the ids of the posts it returned as added (nil: it threw)", model: model.apply(page), component: added)
          case (true, .failure):
            check.same("the posts it returned as added (nil: it threw, as a failed page should)", model: nil, component: added)
          case (false, _):
            check.same("the posts it returned with no page left to load (nil: it threw)", model: [], component: added)
          }
        case .replace(let page):
          await repository.replace(with: page)
          model.networkPageApplied = true
          model.startOver(with: page)
        case .restore(let page):
          let restores = !model.networkPageApplied
          if restores { model.startOver(with: page) }
          check.same("what \(step) returned", model: restores, component: await repository.restore(page))
        case .update(let post):
          await repository.update(post)
          if let index = model.posts.firstIndex(where: { $0.id == post.id }) { model.posts[index] = post }
        case .lookUp(let id):
          check.same("what \(step) returned", model: model.posts.first { $0.id == id }, component: await repository.post(id: id))
        }
        check.same("the ids of posts, in order", model: model.posts.map(\.id), component: await repository.posts.map(\.id))
        check.same("posts", model: model.posts, component: await repository.posts)
        check.same("cursor", model: model.cursor, component: await repository.cursor)
        check.same("hasMore", model: model.hasMore, component: await repository.hasMore)
        check.same(
          "contents", model: FeedPage(posts: model.posts, nextCursor: model.cursor), component: await repository.contents)
      })
    if let failure = await check.run() { Issue.record("\(failure)") }
  }
}
