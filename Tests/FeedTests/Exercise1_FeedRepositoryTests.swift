import Foundation
import Testing
import WorkbookTesting

@testable import Feed

@Suite("Exercise 1 — Cursor pagination without duplicates", .timeLimit(.minutes(1)))
struct Exercise1_FeedRepositoryTests {
  @Test func pagesFollowTheCursorInOrder() async throws {
    let api = ScriptedFeedAPI(postCount: 50)
    let repository = FeedRepository(api: api, pageSize: 20)
    let first = try await repository.loadNextPage()
    #expect(first.map(\.id) == (0..<20).map { "p\($0)" }, "the first page should return posts p0…p19, newest first")
    try await repository.loadNextPage()
    #expect(await repository.posts.count == 40, "two pages of 20 should give 40 posts")
    #expect(
      api.pageRequests == [nil, "after:p19"],
      "the first request has no cursor, the second uses the cursor the first page returned; got \(api.pageRequests)")
  }

  @Test func stopsWhenThereIsNoNextCursor() async throws {
    let api = ScriptedFeedAPI(postCount: 30)
    let repository = FeedRepository(api: api, pageSize: 20)
    try await repository.loadNextPage()
    try await repository.loadNextPage()
    #expect(await repository.hasMore == false, "the second page had no next cursor, so hasMore should be false")
    let more = try await repository.loadNextPage()
    #expect(more.isEmpty, "past the last page, loadNextPage should return nothing")
    #expect(api.pageRequests.count == 2, "past the last page there is nothing to ask for: expected 2 requests, got \(api.pageRequests.count)")
  }

  @Test func concurrentCallsFetchEachCursorOnce() async throws {
    let clock = ManualClock()
    let api = ScriptedFeedAPI(postCount: 100, clock: clock)
    let repository = FeedRepository(api: api, pageSize: 20)
    let callers = Crowd(10) { _ in try await repository.loadNextPage() }
    // The first request is asleep on the clock; settling lets every other caller get as far as it
    // can (joined that request, or sent its own), so the page is answered only after all 10 asked.
    await clock.waitForSleepers(1) { callers.allFinished }
    await settle()
    await clock.advance(by: .seconds(1))
    let added = try await callers.values().reduce(0) { $0 + $1.count }
    #expect(
      api.pageRequests.count == 1,
      "10 callers asked for the next page while the first request was in flight: they must share it (1 request), got \(api.pageRequests.count)")
    #expect(added == 20, "the 20 posts of the page should be added once in total across callers, got \(added)")
    #expect(await repository.posts.count == 20, "the page's 20 posts should be in the feed once")
  }

  @Test("a page that was in flight when a refresh replaced the feed is not appended to the new feed")
  func aPageInFlightDuringARefreshIsDropped() async throws {
    let api = ScriptedFeedAPI(postCount: 60)
    let repository = FeedRepository(api: api, pageSize: 20)
    try await repository.loadNextPage()
    let gate = Gate()
    api.holdPage(cursor: "after:p19", at: gate)
    let scroll = Crowd(1) { _ in try await repository.loadNextPage() }
    let inFlight = await gate.arrivals(1) { scroll.allFinished }
    try #require(inFlight, "the scroll should ask for the page after p19 (held in flight by the test); requests: \(api.pageRequests)")
    // Pull-to-refresh while that page is in flight. The new first page ends at the same post, so
    // its cursor is again "after:p19": the cursor alone cannot tell the old page from a new one.
    await repository.replace(with: FeedPage(posts: (0..<20).map(ScriptedFeedAPI.post), nextCursor: "after:p19"))
    gate.open()
    let stale = await scroll.results()[0]
    if case .success(let added) = stale {
      #expect(added.isEmpty, "the page was fetched for the feed the refresh replaced: it adds nothing; it returned \(added.count) posts")
    }
    let shown = await repository.posts.count
    #expect(
      shown == 20,
      "a page that was in flight when the refresh replaced the feed belongs to the old feed (the server may have changed since): it must not be appended to the refreshed 20 posts; the feed has \(shown)"
    )
    let fresh = try await repository.loadNextPage()
    #expect(fresh.count == 20, "the next scroll after the refresh fetches the page after p19 again and adds its 20 posts; added \(fresh.count)")
    #expect(
      api.pageRequests == [nil, "after:p19", "after:p19"],
      "the page after p19 is requested once before the refresh and once after it; got \(api.pageRequests)")
  }

  @Test func overlappingPagesDoNotDuplicatePosts() async throws {
    let api = ScriptedFeedAPI(postCount: 60)
    let repository = FeedRepository(api: api, pageSize: 20)
    try await repository.loadNextPage()
    // Two new posts arrive at the top; the cursor still points after p19, so nothing shifts.
    // But a server that paginates by offset would now repeat p18 and p19: simulate that page.
    await repository.replace(with: FeedPage(posts: Array((await repository.posts).prefix(20)), nextCursor: "after:p17"))
    // Meanwhile p18 was liked by others: the page brings a newer copy of it.
    api.state.withLock { $0.posts[18].likeCount = 99 }
    let added = try await repository.loadNextPage()
    let ids = await repository.posts.map(\.id)
    #expect(Set(ids).count == ids.count, "every post should appear once; duplicates: \(ids.filter { id in ids.filter { $0 == id }.count > 1 })")
    #expect(!added.contains { $0.id == "p18" || $0.id == "p19" }, "p18 and p19 were already in the feed: they are not new")
    let p18 = await repository.post(id: "p18")
    #expect(
      p18?.likeCount == 99,
      "a post seen twice keeps its place and takes the newer copy: the page says p18 has 99 likes, the feed shows \(p18.map { String($0.likeCount) } ?? "no p18")"
    )
  }

  @Test func updateReplacesOnePostAndIgnoresUnknownIDs() async throws {
    let repository = FeedRepository(api: ScriptedFeedAPI(postCount: 20), pageSize: 20)
    try await repository.loadNextPage()
    var liked = try #require(await repository.post(id: "p3"))
    liked.likedByMe = true
    liked.likeCount += 1
    await repository.update(liked)
    #expect(await repository.post(id: "p3") == liked, "update should replace the stored copy of p3")
    #expect(await repository.posts.map(\.id) == (0..<20).map { "p\($0)" }, "update changes a post in place, never the order or the count")
    await repository.update(ScriptedFeedAPI.post(500))
    #expect(await repository.posts.count == 20, "update of a post that is not in the feed is ignored, not appended")
  }

  @Test func aFailedPageIsRetriedWithTheSameCursor() async throws {
    let api = ScriptedFeedAPI(postCount: 60)
    let repository = FeedRepository(api: api, pageSize: 20)
    try await repository.loadNextPage()
    api.failNext(URLError(.timedOut))
    await #expect(throws: (any Error).self, "the failure of the page request should reach the caller") {
      try await repository.loadNextPage()
    }
    #expect(await repository.posts.count == 20, "a failed page must not change the feed")
    try await repository.loadNextPage()
    #expect(
      api.pageRequests == [nil, "after:p19", "after:p19"],
      "after a failure, the next call should ask for the same cursor again; got \(api.pageRequests)")
    #expect(await repository.posts.count == 40, "the retried page should be added")
  }

  @Test("after a refresh, a page fetched for the old feed is fetched again, not reused")
  func replaceForgetsTheOldPages() async throws {
    let api = ScriptedFeedAPI(postCount: 60)
    let repository = FeedRepository(api: api, pageSize: 20)
    try await repository.loadNextPage()
    try await repository.loadNextPage()
    // Pull-to-refresh brings the same first page, whose cursor is again "after:p19".
    await repository.replace(with: FeedPage(posts: (0..<20).map(ScriptedFeedAPI.post), nextCursor: "after:p19"))
    let added = try await repository.loadNextPage()
    #expect(
      api.pageRequests == [nil, "after:p19", "after:p19"],
      "after replace(with:), the page after p19 must be requested again (the copy from before the refresh may be stale); got \(api.pageRequests)"
    )
    #expect(added.count == 20, "the refetched page's 20 posts are new to the refreshed feed; got \(added.count)")
  }

  @Test func savedPostsNeverReplaceANetworkPage() async throws {
    let api = ScriptedFeedAPI(postCount: 40)
    let repository = FeedRepository(api: api, pageSize: 20)
    try await repository.loadNextPage()
    let saved = FeedPage(posts: [ScriptedFeedAPI.post(99)], nextCursor: nil)
    let restored = await repository.restore(saved)
    #expect(!restored, "a network page was already applied: restoring older saved posts must be refused")
    #expect(await repository.posts.count == 20, "the network page must still be shown")
  }

  @Test func savedPostsAreShownBeforeAnyNetworkPage() async throws {
    let repository = FeedRepository(api: ScriptedFeedAPI(postCount: 40), pageSize: 20)
    let restored = await repository.restore(FeedPage(posts: [ScriptedFeedAPI.post(3)], nextCursor: "after:p3"))
    #expect(restored, "nothing came from the network yet, so the saved posts should be shown")
    #expect(await repository.posts.map(\.id) == ["p3"], "the saved post should be in the feed")
  }

  @Test("a post seen again keeps its place and is not returned as added; one id twice in a page is one post")
  func aPostSeenAgainKeepsItsPlace() async throws {
    let api = ScriptedFeedAPI(postCount: 60)
    let repository = FeedRepository(api: api, pageSize: 20)
    try await repository.loadNextPage()
    // The next page starts at p18 (as an offset-paginated server would after two new posts), so
    // p18 and p19 come again, p18 with a newer like count.
    await repository.replace(with: FeedPage(posts: (0..<20).map(ScriptedFeedAPI.post), nextCursor: "after:p17"))
    api.state.withLock { $0.posts[18].likeCount = 99 }
    let added = try await repository.loadNextPage()
    let ids = await repository.posts.map(\.id)
    #expect(
      ids == (0..<38).map { "p\($0)" },
      "p18 and p19 were already at rows 18 and 19: their newer copies replace them there, so the feed reads p0…p37 in order; got \(ids)"
    )
    #expect(
      added.map(\.id) == (20..<38).map { "p\($0)" },
      "loadNextPage returns the posts it added: p20…p37, not p18 and p19, which were only updated; got \(added.map(\.id))")
    var newer = ScriptedFeedAPI.post(0)
    newer.likeCount = 77
    await repository.replace(with: FeedPage(posts: [ScriptedFeedAPI.post(0), ScriptedFeedAPI.post(1), newer], nextCursor: nil))
    let twice = await repository.posts.map(\.id)
    #expect(twice == ["p0", "p1"], "a page that lists p0 twice still holds one post p0, at its first place; got \(twice)")
    #expect(await repository.post(id: "p0")?.likeCount == 77, "of two copies of p0 in one page, the later one wins")
  }

  @Test("a restored feed continues from its saved cursor, and a saved feed without one has no more pages")
  func aRestoredFeedContinuesFromItsSavedCursor() async throws {
    let api = ScriptedFeedAPI(postCount: 60)
    let repository = FeedRepository(api: api, pageSize: 20)
    await repository.restore(FeedPage(posts: [ScriptedFeedAPI.post(3)], nextCursor: "after:p3"))
    let added = try await repository.loadNextPage()
    #expect(
      api.pageRequests == ["after:p3"],
      "the saved feed ends at p3 with the cursor after:p3: the next page continues from there, like after any page; requests: \(api.pageRequests)"
    )
    #expect(added.first?.id == "p4" && added.count == 20, "the page after p3 adds p4…p23; added \(added.map(\.id))")

    let ended = ScriptedFeedAPI(postCount: 60)
    let cut = FeedRepository(api: ended, pageSize: 20)
    await cut.restore(FeedPage(posts: [ScriptedFeedAPI.post(3)], nextCursor: nil))
    #expect(await cut.hasMore == false, "a saved feed without a cursor has no next page (the disk store dropped it, or the feed ended)")
    let more = try await cut.loadNextPage()
    #expect(
      more.isEmpty && ended.pageRequests.isEmpty,
      "with no saved cursor there is no next page to ask for until a refresh: loadNextPage returns nothing and sends nothing; requests: \(ended.pageRequests)"
    )
  }

  @Test func aRefreshCountsAsANetworkPage() async throws {
    let repository = FeedRepository(api: ScriptedFeedAPI(postCount: 40), pageSize: 20)
    await repository.replace(with: FeedPage(posts: (0..<20).map(ScriptedFeedAPI.post), nextCursor: "after:p19"))
    let restored = await repository.restore(FeedPage(posts: [ScriptedFeedAPI.post(90)], nextCursor: nil))
    #expect(!restored, "replace(with:) applies a page from the network (a refresh): older saved posts must not replace it")
    #expect(await repository.posts.count == 20, "the refreshed page must still be shown")
  }

  @Test func theCursorIsNilBeforeTheFirstPageAndAfterTheLast() async throws {
    let repository = FeedRepository(api: ScriptedFeedAPI(postCount: 30), pageSize: 20)
    #expect(await repository.cursor == nil, "before the first page there is no cursor yet")
    try await repository.loadNextPage()
    #expect(await repository.cursor == "after:p19", "after the first page the cursor is the one the page returned")
    try await repository.loadNextPage()
    let last = await repository.cursor
    #expect(
      last == nil,
      "the last page came without a cursor: the repository's cursor is nil (saved with the feed, an old one would send the next launch past the end); it is \(last ?? "nil")"
    )
  }
}
