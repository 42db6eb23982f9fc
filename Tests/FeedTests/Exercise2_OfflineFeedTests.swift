import Foundation
import Testing
import WorkbookTesting

@testable import Feed

/// A persistence whose `load` stops at a gate: a slow disk (a cold start, a big file) that answers
/// when the test opens the gate. `save` records the snapshot in memory.
actor SlowPersistence: FeedPersistence {
  let saved: FeedSnapshot?
  let gate: Gate
  private(set) var saves: [FeedSnapshot] = []

  init(saved: FeedSnapshot?, gate: Gate = Gate()) {
    self.saved = saved
    self.gate = gate
  }

  func load() async -> FeedSnapshot? {
    await gate.pass()
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

  /// A launch whose disk read and first-page request are both held at gates, so a test decides
  /// which answers first. Fails the test unless `launch()` has started both before either answers.
  struct HeldLaunch {
    let api: ScriptedFeedAPI
    let feed: OfflineFeed
    let network = Gate()
    let disk = Gate()
    let launch: Crowd<Void>

    init(networkFails error: (any Error)? = nil) async throws {
      api = ScriptedFeedAPI(postCount: 40)
      if let error { api.failNext(error) }
      api.holdPage(cursor: nil, at: network)
      let persistence = SlowPersistence(
        saved: FeedSnapshot(posts: Exercise2_OfflineFeedTests.savedPosts, nextCursor: nil, savedAt: Exercise2_OfflineFeedTests.savedAt),
        gate: disk)
      let feed = OfflineFeed(repository: FeedRepository(api: api, pageSize: 20), persistence: persistence)
      self.feed = feed
      let started = Crowd(1) { _ in try await feed.launch() }
      launch = started
      let asked = await network.arrivals(1) { started.allFinished }
      let reading = await disk.arrivals(1) { started.allFinished }
      try #require(
        asked && reading,
        "launch() should read the disk and ask the network for the first page at the same time (async let), and wait for both; the network was \(asked ? "" : "not ")asked and the disk was \(reading ? "" : "not ")read while the other was held, and launch() \(started.allFinished ? "had already returned or thrown" : "was still running")"
      )
    }

    /// Waits for the launch to end and returns how it ended.
    func result() async -> Result<Void, any Error> { await launch.results()[0] }
  }

  @Test func launchShowsTheSavedFeedThenTheNetworkPage() async throws {
    try await withTemporaryDirectory { directory in
      let clock = ManualClock()
      let api = ScriptedFeedAPI(postCount: 40, clock: clock, latency: .seconds(2))
      let disk = FeedDiskStore(fileURL: directory.file("feed.json"))
      try await disk.save(FeedSnapshot(posts: Self.savedPosts, nextCursor: nil, savedAt: Self.savedAt))
      let feed = OfflineFeed(repository: FeedRepository(api: api, pageSize: 20), persistence: disk)
      let launch = Crowd(1) { _ in try await feed.launch() }
      // The first page is asleep on the clock; settling lets the disk read finish meanwhile.
      await clock.waitForSleepers(1) { launch.allFinished }
      await settle()
      #expect(await feed.posts.map(\.id) == ["p90", "p91"], "while the network is slow, the saved posts should be on screen")
      #expect(await feed.status == .cached(savedAt: Self.savedAt), "the status should say the posts are the saved ones")
      await clock.advance(by: .seconds(2))
      _ = try await launch.values()
      #expect(await feed.posts.first?.id == "p0", "once the first page arrived it should replace the saved posts")
      #expect(await feed.status == .live, "after the first page, the status should be live")
      #expect(await disk.load()?.posts.count == 20, "the fresh page should be saved for the next launch")
    }
  }

  @Test("the disk answers first: the saved posts show, then the first page replaces them")
  func aFastDiskIsReplacedByTheFirstPage() async throws {
    let held = try await HeldLaunch()
    held.disk.open()
    await settle()
    #expect(await held.feed.posts.map(\.id) == ["p90", "p91"], "the disk answered and no page has arrived yet: the saved posts should be shown")
    #expect(await held.feed.status == .cached(savedAt: Self.savedAt), "the status should say the posts are the saved ones")
    held.network.open()
    try await held.result().get()
    #expect(await held.feed.posts.first?.id == "p0", "the first page arrived after the saved posts: it should replace them")
    #expect(await held.feed.status == .live, "after the first page, the status should be live")
  }

  @Test("the network answers first: the slower disk never replaces the first page")
  func aSlowDiskNeverOverwritesTheFirstPage() async throws {
    let held = try await HeldLaunch()
    held.network.open()  // the network answers first…
    await settle()
    #expect(await held.feed.posts.first?.id == "p0", "the first page arrived while the disk was still being read: it should be shown at once")
    held.disk.open()  // …then the disk
    try await held.result().get()
    #expect(
      await held.feed.posts.first?.id == "p0",
      "the first page arrived before the saved feed was read: the older saved posts must not replace it (decide in the repository's restore(_:), in one step)"
    )
    #expect(await held.feed.status == .live, "the posts are live, so the status must not go back to cached")
  }

  @Test("offline, then the disk answers: the saved posts show and the status stays offline")
  func aDiskThatAnswersAfterTheOfflineErrorKeepsTheStatusOffline() async throws {
    let held = try await HeldLaunch(networkFails: URLError(.notConnectedToInternet))
    held.network.open()  // the network fails first…
    await settle()
    #expect(await held.feed.status == .offline, "the first page failed with no connection: the status should say offline")
    held.disk.open()  // …then the disk answers
    let result = await held.result()
    #expect(throws: FeedError.offline, "launching offline should report .offline") { try result.get() }
    #expect(await held.feed.posts.map(\.id) == ["p90", "p91"], "offline, the saved posts should be shown when the disk answers")
    #expect(
      await held.feed.status == .offline,
      "the app learnt it is offline while the disk was read: after the await, re-check the status before setting .cached, or the screen claims the network may still answer"
    )
  }

  @Test func offlineKeepsTheSavedFeedAndSaysSo() async throws {
    try await withTemporaryDirectory { directory in
      let api = ScriptedFeedAPI(postCount: 40)
      api.failNext(URLError(.notConnectedToInternet))
      let network = Gate()
      api.holdPage(cursor: nil, at: network)
      let disk = FeedDiskStore(fileURL: directory.file("feed.json"))
      try await disk.save(FeedSnapshot(posts: Self.savedPosts, nextCursor: nil, savedAt: Self.savedAt))
      let feed = OfflineFeed(repository: FeedRepository(api: api, pageSize: 20), persistence: disk)
      let launch = Crowd(1) { _ in try await feed.launch() }
      // The disk answers first (the network is held until everything else has run), then the
      // network fails.
      await network.arrivals(1) { launch.allFinished }
      await settle()
      network.open()
      let result = await launch.results()[0]
      #expect(throws: FeedError.offline, "launching offline should report .offline") { try result.get() }
      #expect(await feed.posts.map(\.id) == ["p90", "p91"], "offline, the saved posts should still be shown")
      #expect(await feed.status == .offline, "the status should say the feed is offline")
    }
  }

  @Test func refreshKeepsTheOldPostsUntilTheNewPageArrives() async throws {
    let clock = ManualClock()
    let api = ScriptedFeedAPI(postCount: 40, clock: clock, latency: .seconds(1))
    let feed = OfflineFeed(repository: FeedRepository(api: api, pageSize: 20), persistence: SlowPersistence(saved: nil))
    let first = Task { try await feed.refresh() }
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(1))
    try await first.value
    api.publish([ScriptedFeedAPI.post(500)])
    let refresh = Task { try await feed.refresh() }
    await clock.waitForSleepers(1)
    await settle()
    #expect(
      await feed.posts.count == 20,
      "while the refresh is in flight the old 20 posts must stay on screen (an empty list flashes and loses the scroll position)")
    await clock.advance(by: .seconds(1))
    try await refresh.value
    #expect(await feed.posts.first?.id == "p500", "after the refresh the newest post should be first")
  }

  @Test func aFailedRefreshKeepsThePosts() async throws {
    let api = ScriptedFeedAPI(postCount: 40)
    let feed = OfflineFeed(repository: FeedRepository(api: api, pageSize: 20), persistence: SlowPersistence(saved: nil))
    try await feed.refresh()
    api.failNext(URLError(.badServerResponse))
    await #expect(throws: FeedError.self, "a failed refresh should throw") { try await feed.refresh() }
    #expect(await feed.posts.count == 20, "a failed refresh must keep the posts that were shown")
  }
}
