import Foundation
import Synchronization
import Testing
import WorkbookTesting

@testable import Feed

@Suite("Exercise 4 — Optimistic actions, safe retries", .timeLimit(.minutes(1)))
struct Exercise4_FeedActionsTests {
  func loadedFeed(_ api: ScriptedFeedAPI) async throws -> FeedRepository {
    let repository = FeedRepository(api: api, pageSize: 20)
    try await repository.loadNextPage()
    return repository
  }

  @Test func aLikeShowsAtOnceAndIsConfirmed() async throws {
    let clock = ManualClock()
    let api = ScriptedFeedAPI(postCount: 20)
    let repository = try await loadedFeed(api)
    let slow = ScriptedFeedAPI(postCount: 20, clock: clock)
    let actions = FeedActions(api: slow, repository: repository)
    let before = try #require(await repository.post(id: "p1"))
    let like = Task { try await actions.toggleLike(postID: "p1") }
    await clock.waitForSleepers(1)
    let optimistic = try #require(await repository.post(id: "p1"))
    #expect(optimistic.likedByMe, "the heart should turn red before the server answers")
    #expect(optimistic.likeCount == before.likeCount + 1, "the count should go up by one at once")
    await clock.advance(by: .seconds(1))
    let confirmed = try await like.value
    #expect(confirmed.likedByMe, "the server's copy should be liked")
    #expect(await repository.post(id: "p1") == confirmed, "the feed should hold the server's copy after the answer")
  }

  @Test func aFailedLikeRollsBackAndReports() async throws {
    let api = ScriptedFeedAPI(postCount: 20)
    let repository = try await loadedFeed(api)
    let before = try #require(await repository.post(id: "p2"))
    api.setLikeFailure(URLError(.badServerResponse))
    let actions = FeedActions(api: api, repository: repository)
    await #expect(throws: FeedError.self, "the failure should be reported to the caller (the screen shows it)") {
      try await actions.toggleLike(postID: "p2")
    }
    #expect(
      await repository.post(id: "p2") == before,
      "the server refused the like: the post must go back to exactly what it was, or the user sees a like that does not exist")
  }

  @Test("a like that fails after a newer change leaves the newer change in place")
  func aRollBackLeavesANewerChangeAlone() async throws {
    let clock = ManualClock()
    let repository = try await loadedFeed(ScriptedFeedAPI(postCount: 20))
    let slow = ScriptedFeedAPI(postCount: 20, clock: clock)
    slow.setLikeFailure(URLError(.badServerResponse))
    let actions = FeedActions(api: slow, repository: repository)
    let like = Task { try await actions.toggleLike(postID: "p4") }
    await clock.waitForSleepers(1)
    // While the like is in flight, a refresh brings a newer copy of the post.
    var newer = try #require(await repository.post(id: "p4"))
    newer.text = "edited by its author"
    newer.likeCount = 40
    await repository.update(newer)
    await clock.advance(by: .seconds(1))
    await #expect(throws: FeedError.self, "the refused like is still reported") { try await like.value }
    let now = await repository.post(id: "p4")
    #expect(
      now == newer,
      "the like failed, but a newer copy had replaced the optimistic one meanwhile: that copy owns the post now, and rolling back over it loses the edit; found \(String(describing: now))"
    )
  }

  @Test("a like refused while offline is reported as .offline")
  func aLikeWhileOfflineIsReportedAsOffline() async throws {
    let api = ScriptedFeedAPI(postCount: 20)
    let repository = try await loadedFeed(api)
    api.setLikeFailure(URLError(.notConnectedToInternet))
    let actions = FeedActions(api: api, repository: repository)
    await #expect(throws: FeedError.offline, "no connection should reach the screen as .offline (map errors with FeedError(error))") {
      try await actions.toggleLike(postID: "p5")
    }
  }

  @Test func unlikingALikedPostCountsDown() async throws {
    let api = ScriptedFeedAPI(postCount: 20)
    let repository = try await loadedFeed(api)
    let actions = FeedActions(api: api, repository: repository)
    let start = try #require(await repository.post(id: "p3"))
    try await actions.toggleLike(postID: "p3")
    let unliked = try await actions.toggleLike(postID: "p3")
    #expect(!unliked.likedByMe && unliked.likeCount == start.likeCount, "like then unlike should end where it started")
  }

  @Test func aRetriedCommentIsPostedOnce() async throws {
    let api = ScriptedFeedAPI(postCount: 20)
    let repository = try await loadedFeed(api)
    api.loseCommentResponses(2)
    let keys = Counter()
    let actions = FeedActions(api: api, repository: repository, maximumCommentAttempts: 3) { "key-\(keys.increment())" }
    let comment = try await actions.comment("nice!", on: "p4")
    #expect(api.commentKeys.count == 3, "two answers were lost, so the comment should have been sent 3 times")
    #expect(
      Set(api.commentKeys).count == 1,
      "every retry must reuse the comment's idempotency key, or the server posts it again; keys sent: \(api.commentKeys)")
    #expect(api.storedComments == 1, "the server should hold exactly one comment")
    #expect(comment.text == "nice!", "the comment the server returned should be the one posted")
    #expect(await repository.post(id: "p4")?.commentCount == 1, "the post's comment count should go up by one")
  }

  @Test func commentsGiveUpAfterTheLastAttempt() async throws {
    let api = ScriptedFeedAPI(postCount: 20)
    let repository = try await loadedFeed(api)
    api.loseCommentResponses(5)
    let actions = FeedActions(api: api, repository: repository, maximumCommentAttempts: 3)
    await #expect(throws: FeedError.self, "after 3 failed attempts the error should reach the caller") {
      try await actions.comment("hello", on: "p5")
    }
    #expect(api.commentKeys.count == 3, "maximumCommentAttempts is 3: expected 3 attempts, got \(api.commentKeys.count)")
    #expect(await repository.post(id: "p5")?.commentCount == 0, "a comment that failed must not be counted")
  }

  @Test("a comment made offline is tried once: the next attempt would fail the same way")
  func anOfflineCommentIsNotRetried() async throws {
    let api = ScriptedFeedAPI(postCount: 20)
    let repository = try await loadedFeed(api)
    api.failComments(with: URLError(.notConnectedToInternet))
    let actions = FeedActions(api: api, repository: repository, maximumCommentAttempts: 3)
    await #expect(throws: FeedError.offline, "the comment should fail as .offline") {
      try await actions.comment("hello", on: "p6")
    }
    #expect(api.commentKeys.count == 1, "being offline is not retried; the API saw \(api.commentKeys.count) attempts")
    #expect(await repository.post(id: "p6")?.commentCount == 0, "a comment that was never accepted must not be counted")
  }

  @Test func twoCommentsGetTwoKeys() async throws {
    let api = ScriptedFeedAPI(postCount: 20)
    let repository = try await loadedFeed(api)
    let actions = FeedActions(api: api, repository: repository)
    _ = try await actions.comment("first", on: "p6")
    _ = try await actions.comment("first", on: "p6")
    #expect(api.storedComments == 2, "two taps on Send are two comments: each needs its own key")
  }

  @Test func aLikeOnAPostNotInTheFeedSendsNothing() async throws {
    let api = ScriptedFeedAPI(postCount: 20)
    let actions = FeedActions(api: api, repository: try await loadedFeed(api))
    do {
      try await actions.toggleLike(postID: "p999")
      Issue.record("a like on a post that is not in the feed should throw .failed(reason:)")
    } catch {
      if case .failed = error {} else { Issue.record("a like on a post that is not in the feed should throw .failed(reason:), threw \(error)") }
    }
    #expect(api.likeRequestCount == 0, "there is nothing to flip on screen and nothing to roll back: no request is sent")
  }

  @Test func anUnlikeNeverCountsBelowZero() async throws {
    let clock = ManualClock()
    let repository = try await loadedFeed(ScriptedFeedAPI(postCount: 20))
    // The server's count lags: the post is liked by me, yet counted at 0.
    var lagging = try #require(await repository.post(id: "p0"))
    lagging.likedByMe = true
    lagging.likeCount = 0
    await repository.update(lagging)
    let actions = FeedActions(api: ScriptedFeedAPI(postCount: 20, clock: clock), repository: repository)
    let unlike = Task { try await actions.toggleLike(postID: "p0") }
    await clock.waitForSleepers(1)
    let optimistic = await repository.post(id: "p0")
    #expect(optimistic?.likedByMe == false, "the unlike shows at once")
    #expect(
      optimistic?.likeCount == 0,
      "a like count is never negative: an unlike at 0 stays at 0; the feed shows \(optimistic.map { String($0.likeCount) } ?? "no p0")")
    await clock.advance(by: .seconds(1))
    _ = try await unlike.value
  }

  @Test("the server's answer to a like is stored even over a newer local change")
  func theServersCopyIsStoredOnSuccess() async throws {
    let clock = ManualClock()
    let repository = try await loadedFeed(ScriptedFeedAPI(postCount: 20))
    let actions = FeedActions(api: ScriptedFeedAPI(postCount: 20, clock: clock), repository: repository)
    let like = Task { try await actions.toggleLike(postID: "p4") }
    await clock.waitForSleepers(1)
    var local = try #require(await repository.post(id: "p4"))
    local.text = "a copy made on the device meanwhile"
    await repository.update(local)
    await clock.advance(by: .seconds(1))
    let confirmed = try await like.value
    #expect(
      await repository.post(id: "p4") == confirmed,
      "on success the server's copy is the newest word on the post: it is stored whatever the app changed meanwhile")
  }

  @Test func failuresAreMappedToFeedErrors() async throws {
    let api = ScriptedFeedAPI(postCount: 20)
    let actions = FeedActions(api: api, repository: try await loadedFeed(api), maximumCommentAttempts: 2)
    let expected = FeedError(URLError(.badServerResponse))
    if case .network = expected {} else { Issue.record("FeedError(_:) should map a bad server response to .network, got \(expected)") }
    api.setLikeFailure(URLError(.badServerResponse))
    await #expect(throws: expected, "a refused like reports the error mapped with FeedError(_:), not a reason of your own") {
      try await actions.toggleLike(postID: "p1")
    }
    api.failComments(with: URLError(.badServerResponse))
    await #expect(throws: expected, "a comment that failed every attempt reports the error mapped with FeedError(_:)") {
      try await actions.comment("hi", on: "p1")
    }
  }

  @Test("a cancelled comment is not retried")
  func aCancelledCommentIsNotRetried() async throws {
    let clock = ManualClock()
    let api = ScriptedFeedAPI(postCount: 20, clock: clock)
    let repository = FeedRepository(api: api, pageSize: 20)
    let actions = FeedActions(api: api, repository: repository, maximumCommentAttempts: 3)
    let send = Task { try await actions.comment("hello", on: "p2") }
    await clock.waitForSleepers(1)
    send.cancel()
    let result = await send.result
    #expect(throws: (any Error).self, "a comment whose task was cancelled reports the failure") { try result.get() }
    #expect(
      api.commentAttempts == 1,
      "the user left while the first attempt was in flight: no further attempt starts (each would fail at once, cancelled); the API saw \(api.commentAttempts)"
    )
    #expect(api.storedComments == 0, "the cancelled attempt never reached the server")
  }

  @Test func aCommentOnAPostNotInTheFeedIsStillSent() async throws {
    let api = ScriptedFeedAPI(postCount: 20)
    let repository = try await loadedFeed(api)
    let actions = FeedActions(api: api, repository: repository)
    let before = await repository.posts
    let comment = try await actions.comment("still here?", on: "p77")
    #expect(comment.postID == "p77" && api.storedComments == 1, "the comment is sent even though a refresh dropped its post from the feed")
    #expect(await repository.posts == before, "with no such post in the feed there is no count to move, and nothing else changes")
  }

  @Test(
    "after any taps, applied and answered by the server in any order, the screen and the server agree",
    arguments: 1...12 as ClosedRange<UInt64>)
  func tapsInAnyServerOrderEndInAgreement(seed: UInt64) async throws {
    let server = TwoPhaseLikeServer(posts: (0..<2).map(ScriptedFeedAPI.post))
    let repository = FeedRepository(api: server, pageSize: 20)
    try await repository.loadNextPage()
    let actions = FeedActions(api: server, repository: repository)
    var random = SeededRandom(seed: seed)
    var taps: [String: Int] = [:]
    let finished = Counter()
    for _ in 0..<60 {
      let steps = server.steps
      if steps.isEmpty || random.next() % 2 == 0 {
        let postID = "p\(random.next() % 2)"
        taps[postID, default: 0] += 1
        Task {
          _ = try? await actions.toggleLike(postID: postID)
          _ = finished.increment()
        }
      } else {
        server.take(steps[Int(random.next() % UInt64(steps.count))])
      }
      await settle()  // every tap has shown itself and sent whatever it sends
    }
    while case let steps = server.steps, !steps.isEmpty {  // no more taps: the server catches up
      server.take(steps[Int(random.next() % UInt64(steps.count))])
      await settle()
    }
    let tapCount = taps.values.reduce(0, +)
    try #require(
      finished.value == tapCount,
      "seed \(seed): \(tapCount - finished.value) of \(tapCount) taps never returned once the server had answered every request")
    for number in 0..<2 {
      let postID = "p\(number)"
      let wanted = ScriptedFeedAPI.post(number).likedByMe != (taps[postID, default: 0] % 2 == 1)
      let onServer = server.post(id: postID)
      let onScreen = await repository.post(id: postID)
      #expect(
        onServer?.likedByMe == wanted && onScreen == onServer,
        """
        seed \(seed): after \(taps[postID, default: 0]) taps on \(postID) the user wants it \(wanted ? "liked" : "not liked"); \
        the server holds \(Self.describe(onServer)) and the screen shows \(Self.describe(onScreen)). With a like and an \
        unlike of one post in flight together, the server may apply them in one order and answer in the other: keep \
        one request per post in flight and send the latest wish when it returns
        """)
    }
  }

  static func describe(_ post: Post?) -> String {
    post.map { "\($0.likedByMe ? "liked" : "not liked"), \($0.likeCount) likes" } ?? "no post"
  }

  @Test("no connection, a host that cannot be found or reached and a lost connection are .offline; a FeedError passes through")
  func everyWayOfBeingUnreachableIsOffline() {
    let unreachable: [URLError.Code] = [.notConnectedToInternet, .cannotConnectToHost, .cannotFindHost, .networkConnectionLost]
    for code in unreachable {
      let mapped = FeedError(URLError(code))
      #expect(
        mapped == .offline,
        "URLError code \(code.rawValue) says the server cannot be reached from here: the screen shows the saved posts as offline; mapped to \(mapped)"
      )
    }
    for error in [FeedError.offline, .storage(reason: "disk full"), .failed(reason: "no post p9")] {
      let mapped = FeedError(error)
      #expect(mapped == error, "a FeedError is in the feed's terms already and passes through unchanged: \(error) became \(mapped)")
    }
    let refused = FeedError(URLError(.badServerResponse))
    #expect(refused == .network(.transport(.badServerResponse)), "a failure that is not about the connection stays .network; got \(refused)")
    #expect(FeedError.offline.networkError == .offline, "offline is chapter 3's .offline too")
    let local = FeedError.storage(reason: "disk full").networkError
    #expect(local == .transport(.unknown), "a failure that never reached the network is no connection problem: expected .transport(.unknown), got \(local)")
  }

  @Test("a comment is sent at least once, however few attempts it is given")
  func aCommentIsSentAtLeastOnce() async throws {
    let api = ScriptedFeedAPI(postCount: 20)
    let repository = try await loadedFeed(api)
    api.loseCommentResponses(5)
    let actions = FeedActions(api: api, repository: repository, maximumCommentAttempts: 0)
    #expect(actions.maximumCommentAttempts == 1, "maximumCommentAttempts is at least 1: given 0, it is \(actions.maximumCommentAttempts)")
    await #expect(throws: FeedError.self, "the one attempt failed: the error reaches the caller") {
      try await actions.comment("hello", on: "p5")
    }
    #expect(api.commentKeys.count == 1, "given 0 attempts, the comment is still sent once; the API saw \(api.commentKeys.count)")
  }
}

/// A server whose like requests wait for the test twice: once to be applied, once to be answered.
/// Between the two, other requests may be applied or answered, so two requests for one post can
/// be applied in one order and answered in the other, as on a real server with several workers.
final class TwoPhaseLikeServer: FeedAPI {
  /// What the test can let happen next: apply request `number`, or answer it.
  enum Step: Equatable {
    case apply(Int)
    case answer(Int)
  }

  private struct Request {
    let liked: Bool
    let postID: String
    let reply: CheckedContinuation<Post, any Error>
    /// The server's copy once the request is applied; nil before.
    var answer: Post?
  }

  private struct State {
    var posts: [Post]
    var requests: [Int: Request] = [:]
    var nextNumber = 0
  }

  private let state: Mutex<State>

  init(posts: [Post]) {
    Quiescence.install()
    state = Mutex(State(posts: posts))
  }

  /// The steps open now, in request order.
  var steps: [Step] {
    state.withLock { state in
      state.requests.keys.sorted().map { number in state.requests[number]?.answer == nil ? .apply(number) : .answer(number) }
    }
  }

  func post(id: String) -> Post? { state.withLock { state in state.posts.first { $0.id == id } } }

  func take(_ step: Step) {
    let reply = state.withLock { state -> (CheckedContinuation<Post, any Error>, Post)? in
      switch step {
      case .apply(let number):
        guard let request = state.requests[number],
          let index = state.posts.firstIndex(where: { $0.id == request.postID })
        else { return nil }
        if state.posts[index].likedByMe != request.liked {
          state.posts[index].likedByMe = request.liked
          state.posts[index].likeCount += request.liked ? 1 : -1
        }
        state.requests[number]?.answer = state.posts[index]
        return nil
      case .answer(let number):
        guard let request = state.requests.removeValue(forKey: number), let answer = request.answer else { return nil }
        return (request.reply, answer)
      }
    }
    if let (continuation, answer) = reply { continuation.resume(returning: answer) }
  }

  func feedPage(cursor: String?, limit: Int) async throws -> FeedPage {
    FeedPage(posts: cursor == nil ? state.withLock { Array($0.posts.prefix(limit)) } : [], nextCursor: nil)
  }

  func setLike(_ liked: Bool, postID: String) async throws -> Post {
    try await withCheckedThrowingContinuation { continuation in
      state.withLock { state in
        state.requests[state.nextNumber] = Request(liked: liked, postID: postID, reply: continuation)
        state.nextNumber += 1
      }
    }
  }

  func postComment(_ text: String, postID: String, idempotencyKey: String) async throws -> Feed.Comment {
    throw URLError(.unsupportedURL)
  }
}
