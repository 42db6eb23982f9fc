import Foundation
import ImageCache
import Networking
import Testing
import WorkbookTesting

@testable import Feed

@MainActor
@Suite("Exercise 5 — The screen's view model", .timeLimit(.minutes(1)))
struct Exercise5_FeedViewModelTests {
  static let savedAt = Date(timeIntervalSince1970: 1_700_000_000)

  func model(
    _ api: ScriptedFeedAPI, saved: [Post]? = nil, directory: TemporaryDirectory
  ) async throws -> FeedViewModel {
    let disk = FeedDiskStore(fileURL: directory.file("feed.json"))
    if let saved { try await disk.save(FeedSnapshot(posts: saved, nextCursor: nil, savedAt: Self.savedAt)) }
    let repository = FeedRepository(api: api, pageSize: 20)
    return FeedViewModel(
      feed: OfflineFeed(repository: repository, persistence: disk), actions: FeedActions(api: api, repository: repository))
  }

  @Test func launchGoesFromSavedPostsToTheFirstPage() async throws {
    let directory = try TemporaryDirectory("feed")
    defer { directory.remove() }
    let clock = ManualClock()
    let api = ScriptedFeedAPI(postCount: 40, clock: clock)
    let saved = [ScriptedFeedAPI.post(90), ScriptedFeedAPI.post(91)]
    let model = try await model(api, saved: saved, directory: directory)
    #expect(model.state == .idle, "before it appears, the screen is idle")
    let appeared = Counter()
    let appear = Task {
      await model.onAppear()
      appeared.increment()
    }
    // The first page is held on the clock: the wait ends when the saved posts are shown, when
    // everything is parked without showing them, or when onAppear has returned.
    let showedSaved = await eventually(giveUp: { appeared.value == 1 }) { model.state == .loading(previous: saved) }
    #expect(
      showedSaved,
      "while the network is slow the saved posts should be on screen, still loading; state is \(model.state)")
    #expect(model.status == .cached(savedAt: Self.savedAt), "the status should say the posts are the saved ones")
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    await appear.value
    #expect(model.posts.count == 20 && model.posts.first?.id == "p0", "after the first page the posts are the network's 20")
    #expect(model.state.isLoading == false && model.state.error == nil, "after the first page the state is loaded: \(model.state)")
    #expect(model.status == .live, "after the first page the status is live")
  }

  @Test func offlineWithSavedPostsIsNotAnErrorScreen() async throws {
    let directory = try TemporaryDirectory("feed")
    defer { directory.remove() }
    let api = ScriptedFeedAPI(postCount: 40)
    api.failNext(URLError(.notConnectedToInternet))
    let saved = [ScriptedFeedAPI.post(90)]
    let model = try await model(api, saved: saved, directory: directory)
    await model.onAppear()
    #expect(model.state == .loaded(saved), "offline with saved posts, the saved posts are the content: state should be loaded, is \(model.state)")
    #expect(model.status == .offline, "the status should say the app is offline")
    #expect(model.message != nil, "a message should tell the user they are offline")
  }

  @Test func offlineWithNothingSavedFails() async throws {
    let directory = try TemporaryDirectory("feed")
    defer { directory.remove() }
    let api = ScriptedFeedAPI(postCount: 40)
    api.failNext(URLError(.notConnectedToInternet))
    let model = try await model(api, directory: directory)
    await model.onAppear()
    #expect(model.state.error == .offline, "with nothing saved, an offline launch is a failure with .offline: state is \(model.state)")
  }

  @Test func refreshKeepsThePostsWhileLoading() async throws {
    let directory = try TemporaryDirectory("feed")
    defer { directory.remove() }
    let clock = ManualClock()
    let api = ScriptedFeedAPI(postCount: 40, clock: clock)
    let model = try await model(api, directory: directory)
    let appear = Task { await model.onAppear() }
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    await appear.value
    let before = model.posts
    let refresh = Task { await model.refresh() }
    await clock.waitForSleepers(1)
    #expect(model.state == .loading(previous: before), "during a refresh the old posts stay on screen, marked loading; state is \(model.state)")
    await clock.advance(by: .seconds(1))
    await refresh.value
    #expect(model.state == .loaded(before), "after the refresh the state is loaded again")
  }

  @Test func aFailedRefreshKeepsThePostsOnScreen() async throws {
    let directory = try TemporaryDirectory("feed")
    defer { directory.remove() }
    let api = ScriptedFeedAPI(postCount: 40)
    let model = try await model(api, directory: directory)
    await model.onAppear()
    let before = model.posts
    try #require(before.count == 20, "the first page should show 20 posts")
    api.failNext(URLError(.badServerResponse))
    await model.refresh()
    #expect(model.state.error != nil, "the refresh failed: the state should say so")
    #expect(model.state.value == before, "a failed refresh must keep the 20 posts on screen, not replace them with an error screen")
  }

  @Test func aFailedLikeShowsThenRollsBack() async throws {
    let directory = try TemporaryDirectory("feed")
    defer { directory.remove() }
    let api = ScriptedFeedAPI(postCount: 40)
    let model = try await model(api, directory: directory)
    await model.onAppear()
    let post = try #require(model.posts.first)
    api.setLikeFailure(URLError(.badServerResponse))
    await model.toggleLike(post)
    #expect(model.posts.first == post, "the server refused the like: the post must be back as it was")
    #expect(model.message != nil, "the failure should be reported in the message")
  }

  @Test func aLikeIsShownAtOnce() async throws {
    let directory = try TemporaryDirectory("feed")
    defer { directory.remove() }
    let clock = ManualClock()
    let api = ScriptedFeedAPI(postCount: 40)
    let model = try await model(api, directory: directory)
    await model.onAppear()
    let post = try #require(model.posts.first)
    // A slow server for the like only.
    let slow = ScriptedFeedAPI(postCount: 40, clock: clock)
    let actions = FeedActions(api: slow, repository: model.actions.repository)
    let slowModel = FeedViewModel(feed: model.feed, actions: actions)
    await slowModel.onAppear()
    let like = Task { await slowModel.toggleLike(post) }
    await clock.waitForSleepers(1)
    #expect(slowModel.posts.first?.likedByMe == true, "the heart should be red before the server answers")
    await clock.advance(by: .seconds(1))
    await like.value
    #expect(slowModel.posts.first?.likedByMe == true, "after the server confirmed, the post stays liked")
  }

  @Test func nearTheEndTheNextPageLoads() async throws {
    let directory = try TemporaryDirectory("feed")
    defer { directory.remove() }
    let api = ScriptedFeedAPI(postCount: 60)
    let model = try await model(api, directory: directory)
    await model.onAppear()
    try #require(model.posts.count == 20, "the first page should show 20 posts before scrolling")
    await model.rowAppeared(model.posts[5])
    #expect(model.posts.count == 20, "row 5 of 20 is far from the end: no page should load yet")
    await model.rowAppeared(model.posts[17])
    #expect(model.posts.count == 40, "row 17 of 20 is within 5 of the end: the next page should load")
    #expect(model.isLoadingMore == false, "the bottom spinner should be gone after the page arrived")
  }

  @Test("a next page that arrives shows the feed loaded; a row that appears while it is in flight asks for nothing and waits for nothing")
  func aRowWhileAPageIsInFlightLoadsNothing() async throws {
    let directory = try TemporaryDirectory("feed")
    defer { directory.remove() }
    let api = ScriptedFeedAPI(postCount: 60)
    let model = try await model(api, directory: directory)
    await model.onAppear()
    try #require(model.posts.count == 20, "the first page should show 20 posts before scrolling")
    let rows = model.posts
    let gate = Gate()
    api.holdPage(cursor: "after:p19", at: gate)
    let first = Crowd(1) { _ in await model.rowAppeared(rows[19]) }
    let inFlight = await eventually(giveUp: { first.allFinished }) { gate.waiting >= 1 }
    try #require(inFlight, "row 19 should ask for the page after p19 (held in flight by the test); requests: \(api.pageRequests)")
    #expect(model.isLoadingMore, "while the next page is in flight the bottom spinner shows")
    let second = Crowd(1) { _ in await model.rowAppeared(rows[18]) }
    let returned = await eventually { second.allFinished }
    #expect(
      returned,
      "a row that appears while a next page is in flight returns at once (isLoadingMore is set): it must not wait for the page in flight"
    )
    #expect(api.pageRequests == [nil, "after:p19"], "and it sends no request of its own; requests: \(api.pageRequests)")
    gate.open()
    _ = await first.results()
    _ = await second.results()
    #expect(model.posts.count == 40, "the page that arrived is on screen: 40 posts; there are \(model.posts.count)")
    #expect(model.state == .loaded(await model.feed.posts), "a next page that arrived leaves the screen .loaded with the feed's posts; state is \(model.state)")
    #expect(model.status == .live, "the status is the feed's afterwards: live")
    #expect(model.isLoadingMore == false, "the spinner is gone once the call that loaded returns")
  }

  @Test func appearingAgainLoadsNothing() async throws {
    let directory = try TemporaryDirectory("feed")
    defer { directory.remove() }
    let api = ScriptedFeedAPI(postCount: 40)
    let model = try await model(api, directory: directory)
    await model.onAppear()
    await model.onAppear()  // back from a detail screen
    #expect(
      api.pageRequests.count == 1,
      "onAppear runs once: the second appearance finds the state no longer .idle and asks for nothing; requests: \(api.pageRequests)")
    #expect(model.state == .loaded(await model.feed.posts), "the screen stays loaded")
  }

  @Test("the last prefetchDistance rows load the next page, the row before them does not")
  func theLastFiveRowsLoadTheNextPage() async throws {
    let directory = try TemporaryDirectory("feed")
    defer { directory.remove() }
    let api = ScriptedFeedAPI(postCount: 60)
    let model = try await model(api, directory: directory)
    await model.onAppear()
    try #require(model.posts.count == 20, "the first page should show 20 posts before scrolling")
    let rows = model.posts
    await model.rowAppeared(rows[14])
    #expect(
      api.pageRequests.count == 1 && model.posts.count == 20,
      "with 20 posts and prefetchDistance 5, rows 15–19 are near the end; row 14 is not and loads nothing; requests: \(api.pageRequests)")
    await model.rowAppeared(rows[15])
    #expect(model.posts.count == 40, "row 15 is one of the last 5 rows: the next page should load")
  }

  @Test func anOfflineRefreshKeepsThePostsAndSaysSo() async throws {
    let directory = try TemporaryDirectory("feed")
    defer { directory.remove() }
    let api = ScriptedFeedAPI(postCount: 40)
    let model = try await model(api, directory: directory)
    await model.onAppear()
    let before = model.posts
    #expect(model.message == nil, "a launch that succeeded leaves no message")
    api.failNext(URLError(.notConnectedToInternet))
    await model.refresh()
    #expect(
      model.state == .loaded(before),
      "offline with posts on screen, a refresh ends like an offline launch: loaded with the same posts, not an error screen; state is \(model.state)")
    #expect(model.status == .offline, "the status should say the app is offline")
    #expect(model.message != nil, "a message should say the refresh could not reach the network")
    await model.refresh()
    #expect(model.message == nil, "a refresh that succeeded clears the message: the problem is over")
    #expect(model.status == .live, "after a refresh that succeeded the status is live")
    api.failNext(URLError(.badServerResponse))
    await model.refresh()
    #expect(model.message != nil, "a refresh that failed sets the message, next to the failed state")
  }

  @Test func aFailedNextPageKeepsThePostsAndSaysWhy() async throws {
    let directory = try TemporaryDirectory("feed")
    defer { directory.remove() }
    let api = ScriptedFeedAPI(postCount: 60)
    let model = try await model(api, directory: directory)
    await model.onAppear()
    try #require(model.posts.count == 20, "the first page should show 20 posts before scrolling")
    let before = model.state
    api.failNext(URLError(.notConnectedToInternet))
    await model.rowAppeared(model.posts[19])
    #expect(model.state == before, "a failed next page changes neither the posts nor the state; state is \(model.state)")
    #expect(model.message != nil, "the failure of the next page is reported in the message")
    #expect(model.status == .offline, "the page failed offline: the status is the feed's, offline")
    #expect(model.isLoadingMore == false, "the bottom spinner is gone once the call returns, failed or not")
  }

  @Test func aRowMovesTheImageWindowBelowIt() async throws {
    let directory = try TemporaryDirectory("feed")
    defer { directory.remove() }
    let api = ScriptedFeedAPI(postCount: 40)
    let repository = FeedRepository(api: api, pageSize: 20)
    let images = FeedImages(
      loader: ImageLoader(fetch: Exercise3_FeedImagesTests.ImageServer().fetch(), diskCache: nil), lookahead: 3)
    let model = FeedViewModel(
      feed: OfflineFeed(repository: repository, persistence: FeedDiskStore(fileURL: directory.file("feed.json"))),
      actions: FeedActions(api: api, repository: repository), images: images)
    await model.onAppear()
    try #require(model.posts.count == 20, "the first page should show 20 posts before scrolling")
    let rows = model.posts
    await model.rowAppeared(rows[3])
    let window = await images.prefetching
    #expect(
      window == rows[4..<7].compactMap(\.imageUrl),
      "row 3 appeared: the 3 posts below it (rows 4–6) are the window to prefetch; prefetching \(window.map(\.lastPathComponent))")
    await images.prefetcher.stop()
  }

  @Test("a next page that lands during a pull-to-refresh leaves the refresh's loading state to the refresh")
  func aNextPageDuringARefreshKeepsItLoading() async throws {
    let directory = try TemporaryDirectory("feed")
    defer { directory.remove() }
    let api = ScriptedFeedAPI(postCount: 60)
    let model = try await model(api, directory: directory)
    await model.onAppear()
    try #require(model.posts.count == 20, "the first page should show 20 posts")
    let last = model.posts[19]
    // The refresh's first page waits at a gate; the next page answers at once.
    let refreshPage = Gate()
    api.holdPage(cursor: nil, at: refreshPage)
    let refresh = Task { await model.refresh() }
    let refreshing = await refreshPage.arrivals(1)
    try #require(refreshing && model.state.isLoading, "the refresh should be in flight, loading; state is \(Self.kind(of: model.state))")
    await model.rowAppeared(last)
    #expect(
      api.pageRequests.contains("after:p19"),
      "the last row appeared: the next page should be asked for, refresh or not; asked for \(api.pageRequests)")
    #expect(
      model.state.isLoading,
      "the next page landed while the refresh's first page is still coming: the page may show, but the state stays loading until the refresh ends it (the spinner must not stop early); state is \(Self.kind(of: model.state))"
    )
    refreshPage.open()
    await refresh.value
    #expect(
      !model.state.isLoading && model.state.error == nil && model.posts.first?.id == "p0",
      "once the refresh's page has arrived the refresh ends the loading, with its first page on top: state is \(Self.kind(of: model.state)), first post \(model.posts.first?.id ?? "none")"
    )
  }

  /// The kind of a state and how many posts it holds, for a failure message that fits on a line.
  static func kind(of state: LoadingState<[Post]>) -> String {
    switch state {
    case .idle: "idle"
    case .loading(let posts): "loading with \(posts.map { "\($0.count) posts" } ?? "nothing")"
    case .loaded(let posts): "loaded with \(posts.count) posts"
    case .failed(let error, let posts): "failed (\(error)) with \(posts.map { "\($0.count) posts" } ?? "nothing")"
    }
  }

  @Test("a like during a refresh keeps it loading, and after a failed refresh keeps the error")
  func aLikeKeepsTheKindOfState() async throws {
    let directory = try TemporaryDirectory("feed")
    defer { directory.remove() }
    let clock = ManualClock()
    let api = ScriptedFeedAPI(postCount: 40, clock: clock)
    let repository = FeedRepository(api: api, pageSize: 20)
    let feed = OfflineFeed(repository: repository, persistence: FeedDiskStore(fileURL: directory.file("feed.json")))
    // Pages are slow (on the clock); likes answer at once.
    let model = FeedViewModel(feed: feed, actions: FeedActions(api: ScriptedFeedAPI(postCount: 40), repository: repository))
    let appear = Task { await model.onAppear() }
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    await appear.value
    try #require(model.posts.count == 20, "the first page should show 20 posts")
    let post = model.posts[0]
    let refresh = Task { await model.refresh() }
    await clock.waitForSleepers(1)
    await model.toggleLike(post)
    #expect(model.posts.first?.likedByMe == true, "the like shows at once, refresh or not")
    #expect(
      model.state.isLoading,
      "the refresh is still in flight: a like changes the posts, not the state, so the screen keeps its refresh spinner; state is \(model.state)")
    await clock.advance(by: .seconds(1))
    await refresh.value
    api.failNext(URLError(.badServerResponse))
    let failing = Task { await model.refresh() }
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    await failing.value
    try #require(model.state.error != nil, "the second refresh failed: the state says so")
    let next = try #require(model.posts.dropFirst().first)
    await model.toggleLike(next)
    #expect(
      model.state.error != nil && model.posts.dropFirst().first?.likedByMe == true,
      "a like after a failed refresh shows, and the failure stays on screen next to the posts; state is \(model.state)")
  }
}
