import Foundation
import Synchronization
import WorkbookTesting

@testable import Feed

/// A `FeedAPI` double: a fixed list of posts served in pages, with optional latency on a manual
/// clock, page requests held at a `Gate` until the test lets them through, scripted failures, and
/// a record of every request.
final class ScriptedFeedAPI: FeedAPI {
  struct State {
    var posts: [Post]
    var pageRequests: [String?] = []
    var failures: [any Error] = []
    var likeFailure: (any Error)?
    var likeRequests: [(liked: Bool, postID: String)] = []
    var comments: [String: Comment] = [:]
    var commentKeys: [String] = []
    /// Every comment request, counted as it arrives (before the latency, so a cancelled one counts).
    var commentAttempts = 0
    /// The next n comment requests are stored but answered with a lost connection.
    var lostCommentResponses = 0
    /// Every comment request fails with this, before anything is stored.
    var commentFailure: (any Error)?
    /// Page requests for these cursors (nil: the first page) stop at the gate once recorded.
    var heldPages: [String?: Gate] = [:]
  }

  let state: Mutex<State>
  let clock: ManualClock?
  let latency: Duration

  init(postCount: Int = 100, clock: ManualClock? = nil, latency: Duration = .seconds(1)) {
    state = Mutex(State(posts: (0..<postCount).map(Self.post)))
    self.clock = clock
    self.latency = latency
  }

  static func post(_ number: Int) -> Post {
    Post(
      id: "p\(number)", author: "author\(number % 7)", text: "post number \(number)",
      createdAt: Date(timeIntervalSince1970: 1_800_000_000 - Double(number) * 60), likeCount: number % 5,
      imageUrl: URL(string: "https://images.example/p\(number).png"))
  }

  var pageRequests: [String?] { state.withLock { $0.pageRequests } }
  var commentKeys: [String] { state.withLock { $0.commentKeys } }
  var storedComments: Int { state.withLock { $0.comments.count } }
  var commentAttempts: Int { state.withLock { $0.commentAttempts } }
  var likeRequestCount: Int { state.withLock { $0.likeRequests.count } }

  func failNext(_ error: any Error) { state.withLock { $0.failures.append(error) } }
  func setLikeFailure(_ error: (any Error)?) { state.withLock { $0.likeFailure = error } }
  func loseCommentResponses(_ count: Int) { state.withLock { $0.lostCommentResponses = count } }
  func failComments(with error: (any Error)?) { state.withLock { $0.commentFailure = error } }
  /// Holds every request for the page after `cursor` (nil: the first page) at `gate`: the request
  /// is recorded, then waits there until the test opens the gate or releases it, and only then
  /// reads the posts (and sleeps its latency, with a clock). `gate.arrivals(n)` tells the test the
  /// request is in flight.
  func holdPage(cursor: String?, at gate: Gate) { state.withLock { $0.heldPages[cursor] = gate } }
  /// Puts `posts` at the top of the feed, as if they were just published.
  func publish(_ posts: [Post]) { state.withLock { $0.posts.insert(contentsOf: posts, at: 0) } }

  private func wait() async throws {
    if let clock { try await clock.sleep(for: latency) }
  }

  func feedPage(cursor: String?, limit: Int) async throws -> FeedPage {
    let (failure, gate) = state.withLock { state -> ((any Error)?, Gate?) in
      state.pageRequests.append(cursor)
      return (state.failures.isEmpty ? nil : state.failures.removeFirst(), state.heldPages[cursor])
    }
    await gate?.pass()
    try await wait()
    if let failure { throw failure }
    return state.withLock { state in
      var start = 0
      if let cursor, cursor.hasPrefix("after:") {
        let id = String(cursor.dropFirst("after:".count))
        start = (state.posts.firstIndex { $0.id == id } ?? state.posts.count - 1) + 1
      }
      let slice = Array(state.posts[min(start, state.posts.count)..<min(start + limit, state.posts.count)])
      let next = start + limit < state.posts.count ? slice.last.map { "after:\($0.id)" } : nil
      return FeedPage(posts: slice, nextCursor: next)
    }
  }

  func setLike(_ liked: Bool, postID: String) async throws -> Post {
    let failure = state.withLock { state -> (any Error)? in
      state.likeRequests.append((liked, postID))
      return state.likeFailure
    }
    try await wait()
    if let failure { throw failure }
    return try state.withLock { state in
      guard let index = state.posts.firstIndex(where: { $0.id == postID }) else { throw URLError(.badServerResponse) }
      if state.posts[index].likedByMe != liked {
        state.posts[index].likedByMe = liked
        state.posts[index].likeCount += liked ? 1 : -1
      }
      return state.posts[index]
    }
  }

  func postComment(_ text: String, postID: String, idempotencyKey: String) async throws -> Comment {
    state.withLock { $0.commentAttempts += 1 }
    try await wait()
    return try state.withLock { state in
      state.commentKeys.append(idempotencyKey)
      if let failure = state.commentFailure { throw failure }
      let comment = state.comments[idempotencyKey] ?? Comment(id: "c\(state.comments.count + 1)", postID: postID, text: text)
      state.comments[idempotencyKey] = comment
      if state.lostCommentResponses > 0 {
        state.lostCommentResponses -= 1
        throw URLError(.timedOut)
      }
      return comment
    }
  }
}
