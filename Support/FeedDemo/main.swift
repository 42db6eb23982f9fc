// `make demo`: the capstone's feed against the practice server on 127.0.0.1, built from the
// learner's chapters 1, 3, 4 and 6 (or the reference answers of those named in REFERENCE=). It
// scrolls, loads images, survives chaos (503s with Retry-After, expired tokens, a memory
// warning), relaunches offline from the saved feed, and counts what happened. `make demo` runs
// the same script a second time with a build of the reference answers and prints the two sets
// of counts side by side. Each run takes a few seconds; the server stops when the run ends.
//
//   feed-demo                     one run with the dashboard, then its counts
//   feed-demo --counters FILE     the same, and the counts written to FILE
//   feed-demo --quiet --compare FILE
//                                 one line per phase, then a table of FILE's counts beside these
import Feed
import Foundation
import ImageCache
import Networking
import PracticeServer
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  return arguments[index + 1]
}
let countersFile = option("--counters")
let compareFile = option("--compare")
let quiet = arguments.contains("--quiet")

/// Code that never returns (a continuation never resumed, a lock never released) would leave the
/// demo hanging: after `limit` in one phase, it says which phase and stops.
final class Watchdog: Sendable {
  let limit: Duration
  private let current = Mutex<(name: String, start: ContinuousClock.Instant)?>(nil)

  init(limit: Duration) {
    self.limit = limit
    Thread.detachNewThread { [self] in
      while true {
        Thread.sleep(forTimeInterval: 0.5)
        guard let phase = current.withLock({ $0 }), phase.start.duration(to: .now) > limit else { continue }
        FileHandle.standardError.write(
          Data(
            ("\nfeed-demo (\(BuiltFrom.name)): phase \"\(phase.name)\" has not finished after \(limit.components.seconds) s (the "
              + "reference needs a few): something in the code under it waits forever. `make chapter-6` grades the feed.\n").utf8))
        exit(3)
      }
    }
  }

  func enter(_ name: String?) {
    current.withLock { $0 = name.map { ($0, .now) } }
  }
}

let clock = ContinuousClock()
let demoStart = clock.now
var limits = PracticeServer.Limits()
// The counts come from the request log: keep every request of the run.
limits.requestLogEntries = 100_000
limits.requestLogBytes = 256 << 20
let server = try PracticeServer.started(configuration: .init(postCount: 200, limits: limits))
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feed-demo-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer {
  server.stop()
  try? FileManager.default.removeItem(at: directory)
}
let watchdog = Watchdog(limit: .seconds(30))

if quiet {
  print("The same script with \(BuiltFrom.name == "reference" ? "the reference answers" : BuiltFrom.name): \(BuiltFrom.description)")
} else {
  print("iOS Systems Workbook — the offline-first feed, live against the practice server at \(server.baseURL.absoluteString)")
  print("Code: \(BuiltFrom.description)\n")
}

let session = URLSession(configuration: .ephemeral)
let issued = server.issueTokens()
let token = AuthToken(accessToken: issued.accessToken, refreshToken: issued.refreshToken, expiresAt: .distantFuture)
let retryPolicy = RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(100), maxDelay: .seconds(1), jitter: .full, maxRetryAfter: .seconds(2))
let api = LiveFeedAPI.signedIn(to: server.apiURL, token: token, session: session, retryPolicy: retryPolicy, clock: clock)
let feedFile = directory.appendingPathComponent("feed.json")
let repository = FeedRepository(api: api, pageSize: 20)
let feed = OfflineFeed(repository: repository, persistence: FeedDiskStore(fileURL: feedFile))
let actions = FeedActions(api: api, repository: repository)
// Image fetches run in a task of their own, so a cancelled prefetch abandons its wait instead of
// cancelling the URLSession task: on Linux, cancelling async URLSession tasks while others run
// on the same session can leave those others waiting forever. (The images are small; letting
// an abandoned one finish costs little.)
let loader = ImageLoader(
  fetch: { url in
    try await Task { try await session.data(for: URLRequest(url: url)) }.value
  }, diskCache: try DiskCache(directory: directory.appendingPathComponent("images")))
let images = FeedImages(loader: loader, lookahead: 10)
let model = FeedViewModel(feed: feed, actions: actions, images: images)
let dashboard = Dashboard(quiet: quiet)
/// The screen the dashboard shows: the first launch, then the relaunch.
var screen = model
var counters = Counters()
counters.code = BuiltFrom.description
/// Image requests the cells made (the demo's own calls).
var imagesAsked = 0

/// One row of the summary: a phase and how long it took.
struct PhaseResult {
  let name: String
  let seconds: Double
  let detail: String
}
var results: [PhaseResult] = []

func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Looks at the screen: the most duplicates it ever held is one of the counts.
@MainActor
func checkScreen() {
  let posts = screen.posts
  counters["duplicatesShown"] = max(counters["duplicatesShown"], posts.count - Set(posts.map(\.id)).count)
}

@MainActor
func snapshot(_ phase: String) async -> Snapshot {
  checkScreen()
  let metrics = await loader.metrics
  var snapshot = Snapshot()
  snapshot.phase = phase
  snapshot.status = describe(screen.status)
  snapshot.posts = screen.posts.count
  snapshot.duplicates = screen.posts.count - Set(screen.posts.map(\.id)).count
  snapshot.server = ServerCounts(server)
  snapshot.imagesAsked = imagesAsked
  snapshot.memoryHits = metrics.memoryHits
  snapshot.diskHits = metrics.diskHits
  return snapshot
}

func describe(_ status: OfflineFeed.Status) -> String {
  switch status {
  case .empty: "nothing to show yet"
  case .cached: "showing the saved feed"
  case .live: "live"
  case .offline: "offline, showing the saved feed"
  }
}

/// Runs one phase, redrawing the dashboard while it runs, and records its duration.
@MainActor
func phase(_ name: String, _ body: () async -> String) async {
  let start = clock.now
  watchdog.enter(name)
  dashboard.draw(await snapshot(name))
  let detail = await body()
  watchdog.enter(nil)
  let elapsed = seconds(start.duration(to: clock.now))
  results.append(PhaseResult(name: name, seconds: elapsed, detail: detail))
  let line = name.padding(toLength: 44, withPad: " ", startingAt: 0) + String(format: "%5.1f s  ", elapsed) + detail
  dashboard.finishPhase(await snapshot(name + " — done"), line: line)
}

/// What the visible cells do: each visible row's image is asked for by the cell and by two
/// other views at once (a thumbnail, a share preview), which coalescing turns into one fetch.
@MainActor
func showCells(_ rows: Range<Int>) async {
  let posts = model.posts
  await withTaskGroup(of: Void.self) { group in
    for row in rows where row < posts.count {
      for _ in 0..<3 {
        imagesAsked += 1
        group.addTask { _ = try? await images.image(for: posts[row]) }
      }
    }
  }
}

/// Waits until the prefetcher has nothing queued or running, so that which images were
/// downloaded does not depend on how fast this machine downloads them.
@MainActor
func prefetchesSettle() async {
  while await images.prefetcher.pendingCount + images.prefetcher.runningCount > 0 {
    try? await Task.sleep(for: .milliseconds(2))
  }
}

await phase("1. cold launch, nothing saved") {
  await model.onAppear()
  checkScreen()
  await showCells(0..<4)
  return "\(model.posts.count) posts on screen"
}

await phase("2. scrolling 100 rows") {
  for row in 0..<100 where row < model.posts.count {
    await model.rowAppeared(model.posts[row])
    checkScreen()
    await prefetchesSettle()
    if row % 4 == 0 { await showCells(row..<(row + 4)) }
    if row % 10 == 0 { dashboard.draw(await snapshot("2. scrolling 100 rows (row \(row))")) }
  }
  counters["postsAfterScroll"] = model.posts.count
  counters["pagesAfterScroll"] = (model.posts.count + 19) / 20
  return "\(model.posts.count) posts on screen, \(ServerCounts(server).pageRequests) feed page requests so far"
}

await phase("3. chaos: three 503s with Retry-After: 1") {
  let before = ServerCounts(server).resent
  server.chaos.only(pathPrefix: "/v1/feed")
  server.chaos.failNext(3, status: 503, retryAfter: 1)
  await model.refresh()
  server.chaos.reset()
  checkScreen()
  return "refresh: \(ServerCounts(server).resent - before) requests sent again after a 503, \(model.posts.count) posts on screen"
}

await phase("4. chaos: every access token expired") {
  server.chaos.expireTokens()
  // Every like is answered 300 ms late, so all ten leave with the expired token before the
  // first 401 comes back: each is refused once, whatever this machine's speed.
  server.chaos.only(pathPrefix: "/v1/posts")
  server.chaos.delay(milliseconds: 300)
  defer { server.chaos.reset() }
  let before = server.refreshCount
  let liked = model.posts.prefix(10)
  await withTaskGroup(of: Void.self) { group in
    for post in liked {
      group.addTask { _ = try? await actions.toggleLike(postID: post.id) }
    }
  }
  return "10 likes at once, token refreshes: \(server.refreshCount - before)"
}

await phase("5. a comment whose first attempt fails") {
  server.chaos.only(pathPrefix: "/v1/posts")
  server.chaos.failNext(1, status: 503, retryAfter: 0)
  defer { server.chaos.reset() }
  guard let first = model.posts.first else { return "no post on screen to comment on" }
  do {
    let posted = try await actions.comment("Great shot!", on: first.id)
    return "posted as \(posted.id), \(ServerCounts(server).commentsAnswered) answered 201 by the server"
  } catch {
    return "failed: \(error)"
  }
}

await phase("6. memory warning") {
  await images.handleMemoryWarning()
  let before = ServerCounts(server).imageDownloads
  await showCells(0..<6)
  let again = ServerCounts(server).imageDownloads - before
  counters["downloadsAfterWarning"] = again
  return "memory purged; 6 rows shown again, \(again) images downloaded again"
}

// The counts of the server and the image loader, before the server goes.
let wire = ServerCounts(server)
counters["pageRequests"] = wire.pageRequests
counters["pagesAnswered"] = wire.pagesAnswered
counters["resent"] = wire.resent
counters["refreshes"] = wire.refreshes
counters["commentsAnswered"] = wire.commentsAnswered
counters["imageDownloads"] = wire.imageDownloads
counters["imagesAsked"] = imagesAsked
let metrics = await loader.metrics
counters["memoryHits"] = metrics.memoryHits
counters["diskHits"] = metrics.diskHits
counters["withoutDownload"] = metrics.requests - metrics.networkFetches - metrics.failures

server.stop()
let offlineRepository = FeedRepository(api: api, pageSize: 20)
let offlineFeed = OfflineFeed(repository: offlineRepository, persistence: FeedDiskStore(fileURL: feedFile))
await phase("7. relaunch with the server gone") {
  let relaunched = FeedViewModel(feed: offlineFeed, actions: FeedActions(api: api, repository: offlineRepository))
  screen = relaunched
  await relaunched.onAppear()
  checkScreen()
  counters["offlinePosts"] = relaunched.posts.count
  return "\(relaunched.posts.count) saved posts shown, status: \(describe(relaunched.status))"
}
session.finishTasksAndInvalidate()
counters.seconds = seconds(demoStart.duration(to: clock.now))

if !quiet {
  print("Summary")
  for result in results {
    print("  " + result.name.padding(toLength: 44, withPad: " ", startingAt: 0) + String(format: "%5.1f s  ", result.seconds) + result.detail)
  }
  print(String(format: "  total%44.1f s\n", counters.seconds))
}
if let countersFile {
  try counters.write(to: countersFile)
}
if let compareFile {
  print("")
  Comparison.print(yours: try Counters.read(from: compareFile), reference: counters)
  print("\nCode that ran, chapter by chapter")
  print("  your run:       \(try Counters.read(from: compareFile).code)")
  print("  reference run:  \(BuiltFrom.description)")
} else if countersFile == nil {
  Comparison.print(alone: counters)
  print("\nCode that ran, chapter by chapter: \(BuiltFrom.description)")
}
