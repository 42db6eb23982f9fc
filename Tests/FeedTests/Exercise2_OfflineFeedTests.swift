import Foundation
import Testing
import WorkbookTesting

@testable import Feed

/// A persistence whose `load` waits on a manual clock: a slow disk the test controls.
actor SlowPersistence: FeedPersistence {
  let saved: FeedSnapshot?
  let clock: ManualClock
  private(set) var saves: [FeedSnapshot] = []

  init(saved: FeedSnapshot?, clock: ManualClock) {
    self.saved = saved
    self.clock = clock
  }

  func load() async -> FeedSnapshot? {
    try? await clock.sleep(for: .seconds(5))
    return saved
  }

  func save(_ snapshot: FeedSnapshot) throws(FeedError) { saves.append(snapshot) }
}

@Suite("Exercise 2 — Offline first", .timeLimit(.minutes(1)))
struct Exercise2_OfflineFeedTests {
  static let savedAt = Date(timeIntervalSince1970: 1_700_000_000)
  static let savedPosts = [ScriptedFeedAPI.post(90), ScriptedFeedAPI.post(91)]

  @Test func theFeedSurvivesARelaunch() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.file("feed.json")
      let snapshot = FeedSnapshot(posts: Self.savedPosts, nextCursor: "after:p91", savedAt: Self.savedAt)
      try await FeedDiskStore(fileURL: file).save(snapshot)
      #expect(
        FileManager.default.fileExists(atPath: file.path),
        "save should write the feed to \(file.lastPathComponent): a cache that lives only in memory is gone at the next launch")
      let relaunched = FeedDiskStore(fileURL: file)
      #expect(await relaunched.load() == snapshot, "a new store on the same file should load exactly what was saved")
    }
  }

  @Test func aMissingOrCorruptFileIsAnEmptyFeed() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.file("feed.json")
      #expect(await FeedDiskStore(fileURL: file).load() == nil, "no file yet: load should return nil, not throw or crash")
      try Data("{\"version\": 1, \"posts\": [tr".utf8).write(to: file)
      #expect(await FeedDiskStore(fileURL: file).load() == nil, "a truncated file should load as nil")
      #expect(
        FileManager.default.fileExists(atPath: file.path + ".corrupt"),
        "the unreadable file should be kept aside as feed.json.corrupt, for a bug report")
    }
  }

  @Test func savesKeepOnlyTheNewestPosts() async throws {
    try await withTemporaryDirectory { directory in
      let store = FeedDiskStore(fileURL: directory.file("feed.json"), maximumPosts: 10)
      let posts = (0..<50).map(ScriptedFeedAPI.post)
      try await store.save(FeedSnapshot(posts: posts, nextCursor: "after:p49", savedAt: Self.savedAt))
      let loaded = await store.load()
      #expect(loaded?.posts.map(\.id) == (0..<10).map { "p\($0)" }, "only the newest 10 posts should be saved")
      #expect(loaded?.nextCursor == nil, "the cursor pointed after p49, which was cut: it must not be kept")
    }
  }

  @Test func launchShowsTheSavedFeedThenTheNetworkPage() async throws {
    try await withTemporaryDirectory { directory in
      let clock = ManualClock()
      let api = ScriptedFeedAPI(postCount: 40, clock: clock, latency: .seconds(2))
      let disk = FeedDiskStore(fileURL: directory.file("feed.json"))
      try await disk.save(FeedSnapshot(posts: Self.savedPosts, nextCursor: nil, savedAt: Self.savedAt))
      let feed = OfflineFeed(repository: FeedRepository(api: api, pageSize: 20), persistence: disk)
      let launch = Task { try await feed.launch() }
      await clock.waitForSleepers(1)
      var shown = await feed.posts
      for _ in 0..<1_000 where shown.isEmpty {
        await Task.yield()
        shown = await feed.posts
      }
      #expect(shown.map(\.id) == ["p90", "p91"], "while the network is slow, the saved posts should be on screen")
      #expect(await feed.status == .cached(savedAt: Self.savedAt), "the status should say the posts are the saved ones")
      await clock.advance(by: .seconds(2))
      try await launch.value
      #expect(await feed.posts.first?.id == "p0", "once the first page arrived it should replace the saved posts")
      #expect(await feed.status == .live, "after the first page, the status should be live")
      #expect(await disk.load()?.posts.count == 20, "the fresh page should be saved for the next launch")
    }
  }

  @Test func aSlowDiskNeverOverwritesTheFirstPage() async throws {
    let clock = ManualClock()
    let api = ScriptedFeedAPI(postCount: 40, clock: clock, latency: .seconds(1))
    let disk = SlowPersistence(saved: FeedSnapshot(posts: Self.savedPosts, nextCursor: nil, savedAt: Self.savedAt), clock: clock)
    let feed = OfflineFeed(repository: FeedRepository(api: api, pageSize: 20), persistence: disk)
    let launch = Task { try await feed.launch() }
    await clock.waitForSleepers(2)
    await clock.advance(by: .seconds(1))  // the network answers first
    for _ in 0..<200 { await Task.yield() }
    await clock.advance(by: .seconds(4))  // then the disk
    try await launch.value
    #expect(
      await feed.posts.first?.id == "p0",
      "the first page arrived before the saved feed was read: the older saved posts must not replace it")
    #expect(await feed.status == .live, "the posts are live, so the status must not go back to cached")
  }

  @Test func offlineKeepsTheSavedFeedAndSaysSo() async throws {
    try await withTemporaryDirectory { directory in
      let api = ScriptedFeedAPI(postCount: 40)
      api.failNext(URLError(.notConnectedToInternet))
      let disk = FeedDiskStore(fileURL: directory.file("feed.json"))
      try await disk.save(FeedSnapshot(posts: Self.savedPosts, nextCursor: nil, savedAt: Self.savedAt))
      let feed = OfflineFeed(repository: FeedRepository(api: api, pageSize: 20), persistence: disk)
      await #expect(throws: FeedError.offline, "launching offline should report .offline") {
        try await feed.launch()
      }
      #expect(await feed.posts.map(\.id) == ["p90", "p91"], "offline, the saved posts should still be shown")
      #expect(await feed.status == .offline, "the status should say the feed is offline")
    }
  }

  @Test func refreshKeepsTheOldPostsUntilTheNewPageArrives() async throws {
    let clock = ManualClock()
    let api = ScriptedFeedAPI(postCount: 40, clock: clock, latency: .seconds(1))
    let disk = SlowPersistence(saved: nil, clock: clock)
    let feed = OfflineFeed(repository: FeedRepository(api: api, pageSize: 20), persistence: disk)
    let first = Task { try await feed.refresh() }
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    try await first.value
    api.publish([ScriptedFeedAPI.post(500)])
    let refresh = Task { try await feed.refresh() }
    await clock.waitForSleepers(1)
    for _ in 0..<200 { await Task.yield() }
    #expect(
      await feed.posts.count == 20,
      "while the refresh is in flight the old 20 posts must stay on screen (an empty list flashes and loses the scroll position)")
    await clock.advance(by: .seconds(1))
    try await refresh.value
    #expect(await feed.posts.first?.id == "p500", "after the refresh the newest post should be first")
  }

  @Test func aFailedRefreshKeepsThePosts() async throws {
    let api = ScriptedFeedAPI(postCount: 40)
    let feed = OfflineFeed(repository: FeedRepository(api: api, pageSize: 20), persistence: SlowPersistence(saved: nil, clock: ManualClock()))
    try await feed.refresh()
    api.failNext(URLError(.badServerResponse))
    await #expect(throws: FeedError.self, "a failed refresh should throw") { try await feed.refresh() }
    #expect(await feed.posts.count == 20, "a failed refresh must keep the posts that were shown")
  }
}
