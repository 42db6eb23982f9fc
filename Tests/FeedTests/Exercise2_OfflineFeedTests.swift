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

/// A persistence whose every save fails, as on a full disk.
actor FullDisk: FeedPersistence {
  private(set) var attempts = 0
  func load() async -> FeedSnapshot? { nil }
  func save(_ snapshot: FeedSnapshot) throws(FeedError) {
    attempts += 1
    throw .storage(reason: "no space left on the device")
  }
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
    // Waits for the event (the saved posts on screen), or for everything under test to rest.
    _ = await eventually { await held.feed.status == .cached(savedAt: Self.savedAt) }
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
    _ = await eventually { await held.feed.posts.first?.id == "p0" }
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
    _ = await eventually { await held.feed.status == .offline }
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

  @Test func savesKeepTheTopOfTheFeedInItsOrder() async throws {
    try await withTemporaryDirectory { directory in
      let store = FeedDiskStore(fileURL: directory.file("feed.json"), maximumPosts: 10)
      // A ranked feed: p49 (the oldest post) is at the top.
      let posts = (0..<50).reversed().map(ScriptedFeedAPI.post)
      try await store.save(FeedSnapshot(posts: posts, nextCursor: nil, savedAt: Self.savedAt))
      let ids = await store.load()?.posts.map(\.id)
      #expect(
        ids == (40..<50).reversed().map { "p\($0)" },
        "the first 10 posts of the feed, in the feed's order, are kept (p49…p40), not the 10 with the latest dates: the next launch opens on what the user saw at the top; kept \(ids ?? [])"
      )
    }
  }

  @Test func exactlyTheLimitKeepsTheCursor() async throws {
    try await withTemporaryDirectory { directory in
      let store = FeedDiskStore(fileURL: directory.file("feed.json"), maximumPosts: 10)
      let posts = (0..<10).map(ScriptedFeedAPI.post)
      try await store.save(FeedSnapshot(posts: posts, nextCursor: "after:p9", savedAt: Self.savedAt))
      let loaded = await store.load()
      #expect(loaded?.posts.count == 10, "10 posts with a limit of 10: all are kept")
      #expect(
        loaded?.nextCursor == "after:p9",
        "10 posts with a limit of 10 cuts nothing, so the cursor still points after the last post kept and must be kept; loaded \(String(describing: loaded?.nextCursor))"
      )
    }
  }

  @Test func aFileFromAnotherVersionIsSetAside() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.file("feed.json")
      let store = FeedDiskStore(fileURL: file)
      try await store.save(FeedSnapshot(posts: Self.savedPosts, nextCursor: nil, savedAt: Self.savedAt, version: FeedSnapshot.currentVersion + 1))
      #expect(
        await store.load() == nil,
        "a file written by another version of the app decodes, but its fields may mean something else: load must return nil for it")
      #expect(
        FileManager.default.fileExists(atPath: file.path + ".corrupt"),
        "a file of another version is kept aside as feed.json.corrupt, like an unreadable one")
      #expect(!FileManager.default.fileExists(atPath: file.path), "feed.json is moved aside, not left for the next load to read again")
    }
  }

  @Test func aSecondCorruptFileReplacesTheFirstAside() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.file("feed.json")
      let store = FeedDiskStore(fileURL: file)
      try Data("first broken file".utf8).write(to: file)
      #expect(await store.load() == nil, "an unreadable file loads as nil")
      try Data("second broken file".utf8).write(to: file)
      #expect(await store.load() == nil, "a second unreadable file loads as nil too")
      let aside = try? String(contentsOf: file.appendingPathExtension("corrupt"), encoding: .utf8)
      #expect(
        aside == "second broken file",
        "feed.json.corrupt already existed: the latest bad file replaces it (moving onto an existing file fails, so remove the old copy first); it holds \(aside ?? "nothing")"
      )
      #expect(!FileManager.default.fileExists(atPath: file.path), "the bad feed.json must not stay in place")
    }
  }

  @Test func saveCreatesTheDirectory() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.file("Feed/v1/feed.json")
      let snapshot = FeedSnapshot(posts: Self.savedPosts, nextCursor: "after:p91", savedAt: Self.savedAt)
      await #expect(throws: Never.self, "the store's folder does not exist yet on a first launch: save must create it") {
        try await FeedDiskStore(fileURL: file).save(snapshot)
      }
      #expect(await FeedDiskStore(fileURL: file).load() == snapshot, "the feed saved into the new folder loads back")
    }
  }

  @Test func aFolderRemovedWhileTheAppRunsIsMadeAgain() async throws {
    try await withTemporaryDirectory { directory in
      let folder = directory.file("Feed")
      let file = folder.appendingPathComponent("feed.json")
      let store = FeedDiskStore(fileURL: file)
      try await store.save(FeedSnapshot(posts: Self.savedPosts, nextCursor: nil, savedAt: Self.savedAt))
      try FileManager.default.removeItem(at: folder)  // the user or the system cleared it
      #expect(await store.load() == nil, "the folder went with the saved feed: load is nil, no error, no crash")
      let newer = FeedSnapshot(posts: [ScriptedFeedAPI.post(92)], nextCursor: "after:p92", savedAt: Self.savedAt)
      await #expect(throws: Never.self, "the folder was removed while the app ran: the next save must make it again, not fail until relaunch") {
        try await store.save(newer)
      }
      #expect(await FeedDiskStore(fileURL: file).load() == newer, "the feed saved into the new folder loads at the next launch")
    }
  }

  @Test func aFullDiskKeepsThePreviousSaveWhole() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.file("feed.json")
      let disk = FaultyDisk()
      let store = FeedDiskStore(fileURL: file, files: disk)
      let saved = FeedSnapshot(posts: Self.savedPosts, nextCursor: "after:p91", savedAt: Self.savedAt)
      try await store.save(saved)
      disk.freeBytes = 40  // room for the start of the next file, not all of it
      let newer = FeedSnapshot(posts: (0..<20).map(ScriptedFeedAPI.post), nextCursor: "after:p19", savedAt: Self.savedAt)
      do {
        try await store.save(newer)
        Issue.record("the disk is full (ENOSPC): save should throw FeedError.storage")
      } catch FeedError.storage {
        // Expected.
      } catch {
        Issue.record("a full disk should throw FeedError.storage, not \(error)")
      }
      disk.freeBytes = nil
      #expect(
        await FeedDiskStore(fileURL: file).load() == saved,
        "the disk filled up during a save, so the next launch must still find the previous feed: write a temporary file and rename it, never the file itself in place, and never remove the old file first"
      )
    }
  }

  @Test func aFileWhereTheFolderShouldBeIsLeftAlone() async throws {
    try await withTemporaryDirectory { directory in
      let folder = directory.file("Feed")
      try Data("not a folder".utf8).write(to: folder)
      let store = FeedDiskStore(fileURL: folder.appendingPathComponent("feed.json"))
      #expect(await store.load() == nil, "nothing can be saved under a file: load is nil, no error, no crash")
      do {
        try await store.save(FeedSnapshot(posts: Self.savedPosts, nextCursor: nil, savedAt: Self.savedAt))
        Issue.record("a file stands where the feed's folder should be: save should throw FeedError.storage")
      } catch FeedError.storage {
        // Expected.
      } catch {
        Issue.record("a file where the folder should be should throw FeedError.storage, not \(error)")
      }
      #expect(
        (try? Data(contentsOf: folder)) == Data("not a folder".utf8),
        "the file in the folder's place is not the store's: it must be left as it was, not removed to make room")
    }
  }

  @Test func anUnreadableFileIsNoFeedAndStaysWhereItIs() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.file("feed.json")
      let saved = FeedSnapshot(posts: Self.savedPosts, nextCursor: "after:p91", savedAt: Self.savedAt)
      try await FeedDiskStore(fileURL: file).save(saved)
      let bytes = try Data(contentsOf: file)
      try Data("an older bad file".utf8).write(to: file.appendingPathExtension("corrupt"))
      let disk = FaultyDisk()
      disk.makeUnreadable(file)  // EIO on every read, as a failing flash block gives
      #expect(await FeedDiskStore(fileURL: file, files: disk).load() == nil, "a file that cannot be read is no feed: nil, no crash")
      #expect(
        (try? Data(contentsOf: file)) == bytes,
        "the unreadable file must stay where it is: its bytes were never read, so nothing says they are corrupt, and they may read at the next launch"
      )
      #expect(
        (try? String(contentsOf: file.appendingPathExtension("corrupt"), encoding: .utf8)) == "an older bad file",
        "nothing is moved aside: the copy kept for a bug report is still the last file that really did not decode")
      #expect(await FeedDiskStore(fileURL: file).load() == saved, "once the disk reads again, the saved feed loads")
    }
  }

  @Test func eraseDeletesTheFileAndItsCorruptCopy() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.file("feed.json")
      let store = FeedDiskStore(fileURL: file)
      try Data("broken".utf8).write(to: file)
      _ = await store.load()  // moved aside to feed.json.corrupt
      try await store.save(FeedSnapshot(posts: Self.savedPosts, nextCursor: nil, savedAt: Self.savedAt))
      await store.erase()
      #expect(await store.load() == nil, "after erase there is no saved feed")
      #expect(
        directory.contents().isEmpty,
        "at logout both feed.json and feed.json.corrupt go: each holds the user's posts; left \(directory.contents())")
      await store.erase()  // nothing left to delete: no error, no crash
    }
  }

  @Test func eraseWithNoFileStillDeletesTheCorruptCopy() async throws {
    try await withTemporaryDirectory { directory in
      let file = directory.file("feed.json")
      let store = FeedDiskStore(fileURL: file)
      try Data("broken".utf8).write(to: file)
      _ = await store.load()  // moved aside: feed.json.corrupt, and nothing at feed.json
      await store.erase()
      #expect(
        directory.contents().isEmpty,
        "with no feed.json to delete, erase still deletes feed.json.corrupt (it holds the user's posts); left \(directory.contents())"
      )
    }
  }

  @Test("a failure that is not offline leaves the status as it was")
  func aServerErrorLeavesTheStatusAlone() async throws {
    let api = ScriptedFeedAPI(postCount: 40)
    let feed = OfflineFeed(repository: FeedRepository(api: api, pageSize: 20), persistence: SlowPersistence(saved: nil))
    try await feed.refresh()
    api.failNext(URLError(.badServerResponse))
    await #expect(throws: FeedError(URLError(.badServerResponse)), "the error is mapped with FeedError(_:)") { try await feed.refresh() }
    let status = await feed.status
    #expect(
      status == .live,
      "a server error says nothing about the connection: the posts are still the live ones, so the status stays .live, not .offline; it is \(status)"
    )
  }

  @Test func aNextPageTellsWhetherTheNetworkIsBack() async throws {
    let api = ScriptedFeedAPI(postCount: 60)
    let feed = OfflineFeed(repository: FeedRepository(api: api, pageSize: 20), persistence: SlowPersistence(saved: nil))
    try await feed.refresh()
    api.failNext(URLError(.notConnectedToInternet))
    await #expect(throws: FeedError.offline, "a next page with no connection fails as .offline") { try await feed.loadNextPage() }
    #expect(await feed.status == .offline, "the next page failed offline: the status should say offline")
    try await feed.loadNextPage()
    #expect(await feed.status == .live, "a next page arrived and added posts: the network is back, so offline becomes live")

    let short = ScriptedFeedAPI(postCount: 10)
    let ended = OfflineFeed(repository: FeedRepository(api: short, pageSize: 20), persistence: SlowPersistence(saved: nil))
    try await ended.refresh()  // one page, no cursor: no more pages
    short.failNext(URLError(.notConnectedToInternet))
    await #expect(throws: FeedError.offline) { try await ended.refresh() }
    try await ended.loadNextPage()
    #expect(short.pageRequests.count == 2, "past the last page loadNextPage sends nothing; requests: \(short.pageRequests)")
    let status = await ended.status
    #expect(
      status == .offline, "no request went out, so nothing says the network is back: the status stays offline; it is \(status)")
  }

  @Test("a next page before any launch or refresh: .empty becomes .live or stays .empty, never cached or offline")
  func aNextPageOnAnEmptyFeed() async throws {
    let api = ScriptedFeedAPI(postCount: 60)
    let feed = OfflineFeed(repository: FeedRepository(api: api, pageSize: 20), persistence: SlowPersistence(saved: nil))
    try await feed.loadNextPage()
    #expect(await feed.posts.count == 20, "the first call of loadNextPage on a new feed fetches the first page")
    let status = await feed.status
    #expect(
      status == .empty || status == .live,
      "a page from the network is on screen: .empty may become .live or stay .empty (your choice), but nothing was read from disk and the network answered, so neither .cached nor .offline; it is \(status)"
    )
  }

  @Test func aSavedFeedWithNoPostsIsNothingToShow() async throws {
    let gate = Gate()
    gate.open()
    let persistence = SlowPersistence(saved: FeedSnapshot(posts: [], nextCursor: "after:p5", savedAt: Self.savedAt), gate: gate)
    let repository = FeedRepository(api: ScriptedFeedAPI(postCount: 40), pageSize: 20)
    let feed = OfflineFeed(repository: repository, persistence: persistence)
    await feed.restoreSaved()
    #expect(await feed.status == .empty, "a saved feed with no posts has nothing to show: the status stays .empty, not .cached")
    #expect(await repository.cursor == nil, "a saved feed with no posts is not restored: the repository keeps its state (no saved cursor)")
  }

  @Test func eachPageIsSavedWithItsCursorAndTheInjectedTime() async throws {
    let now = Date(timeIntervalSince1970: 1_750_000_000)
    let persistence = SlowPersistence(saved: nil)
    let feed = OfflineFeed(
      repository: FeedRepository(api: ScriptedFeedAPI(postCount: 60), pageSize: 20), persistence: persistence, now: { now })
    try await feed.refresh()
    let first = await persistence.saves.last
    #expect(
      first == FeedSnapshot(posts: (0..<20).map(ScriptedFeedAPI.post), nextCursor: "after:p19", savedAt: now),
      "after a refresh the save holds the 20 posts, the repository's cursor and savedAt from the injected now(); saved \(String(describing: first.map { ($0.posts.count, $0.nextCursor, $0.savedAt) }))"
    )
    try await feed.loadNextPage()
    let second = await persistence.saves.last
    #expect(
      second?.posts.count == 40 && second?.nextCursor == "after:p39" && second?.savedAt == now,
      "after the next page the save holds all 40 posts and the cursor after:p39, at now(); saved \(String(describing: second.map { ($0.posts.count, $0.nextCursor, $0.savedAt) }))"
    )
  }

  /// Steps another row's next page in after each job of the feed in turn, while the feed loads
  /// and saves its own next page: at every moment the feed gives its actor up, a page can land.
  /// Every save must pair its posts with their own cursor, or the next launch restores the posts
  /// and asks for the page after one it never saved.
  @Test("a page lands while the feed is saved: the save's cursor is the one after its last post")
  func aSaveReadsThePostsAndTheirCursorInOneStep() async throws {
    var moment = 1
    while true {
      let intruder = Intruder(at: moment)
      let repository = FeedRepository(api: ScriptedFeedAPI(postCount: 100), pageSize: 10)
      let persistence = SlowPersistence(saved: nil)
      let feed = OfflineFeed(repository: repository, persistence: persistence, afterJob: intruder.afterUnlock)
      try await feed.refresh()
      intruder.arm {
        // Another caller's next page, applied to the repository between two of the feed's jobs.
        // Its task is queued behind the feed's read of the repository if one is queued already.
        let applied = DispatchSemaphore(value: 0)
        Task(priority: .background) {
          _ = try? await repository.loadNextPage()
          applied.signal()
        }
        applied.wait()
      }
      try await feed.loadNextPage()
      intruder.disarm()
      #expect(!intruder.gotStuck, "the other page could not land after the feed's job \(moment): it waited for the feed")
      for save in await persistence.saves {
        let expected = save.posts.last.map { "after:\($0.id)" }
        #expect(
          save.nextCursor == expected,
          "with another page applied after the feed's job \(moment), a save held \(save.posts.count) posts ending at \(save.posts.last?.id ?? "none") and the cursor \(save.nextCursor ?? "nil"), not \(expected ?? "nil"): the posts and the cursor were read in two calls to the repository, and the page landed between them (read both in one call, `repository.contents`), so the next launch skips the posts in between"
        )
      }
      if !intruder.intruded { break }
      moment += 1
    }
  }

  @Test func aFailedSaveDoesNotFailThePage() async throws {
    let disk = FullDisk()
    let feed = OfflineFeed(repository: FeedRepository(api: ScriptedFeedAPI(postCount: 60), pageSize: 20), persistence: disk)
    await #expect(throws: Never.self, "the page arrived; a full disk must not turn it into an error") { try await feed.refresh() }
    await #expect(throws: Never.self, "the next page arrived; a full disk must not turn it into an error") { try await feed.loadNextPage() }
    #expect(await feed.posts.count == 40, "both pages are on screen")
    #expect(await feed.status == .live, "the posts are live")
    #expect(await disk.attempts >= 2, "each page is still saved (and the failure ignored)")
  }
}
