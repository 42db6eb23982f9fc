// `make demo`: the capstone's feed, built from the reference answers, against the practice
// server on 127.0.0.1. It scrolls, loads images, survives chaos (503s with Retry-After, expired
// tokens, a memory warning), relaunches offline from the saved feed, and prints a summary.
// Everything runs on its own in well under a minute; the server stops when the demo ends.
import Feed
import Foundation
import ImageCache
import Networking
import PracticeServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

let clock = ContinuousClock()
let demoStart = clock.now
let server = try PracticeServer.started(configuration: .init(postCount: 200))
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("feed-demo-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer {
  server.stop()
  try? FileManager.default.removeItem(at: directory)
}

print("iOS Systems Workbook — the offline-first feed, live against the practice server at \(server.baseURL.absoluteString)\n")

let session = URLSession(configuration: .ephemeral)
let network = MetricsPlugin(clock: clock)
let issued = server.issueTokens()
let token = AuthToken(accessToken: issued.accessToken, refreshToken: issued.refreshToken, expiresAt: .distantFuture)
let retryPolicy = RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(100), maxDelay: .seconds(1), jitter: .full, maxRetryAfter: .seconds(2))
let api = LiveFeedAPI.signedIn(
  to: server.apiURL, token: token, session: session, retryPolicy: retryPolicy, plugins: [network], clock: clock)
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
let dashboard = Dashboard()
/// The screen the dashboard shows: the first launch, then the relaunch.
var screen = model

/// One row of the summary: a phase and how long it took.
struct PhaseResult {
  let name: String
  let seconds: Double
  let detail: String
}
var results: [PhaseResult] = []

@MainActor
func snapshot(_ phase: String, posts: [Feed.Post]? = nil, status: OfflineFeed.Status? = nil) async -> Snapshot {
  let metrics = await loader.metrics
  let counts = network.metrics
  var snapshot = Snapshot()
  snapshot.phase = phase
  snapshot.status = describe(status ?? screen.status)
  snapshot.pages = server.requestCount("/v1/feed")
  snapshot.posts = (posts ?? screen.posts).count
  snapshot.memoryHits = metrics.memoryHits
  snapshot.diskHits = metrics.diskHits
  snapshot.networkFetches = metrics.networkFetches
  snapshot.coalesced = max(0, metrics.requests - metrics.memoryHits - metrics.diskHits - metrics.networkFetches - metrics.failures)
  snapshot.requests = counts.requests
  snapshot.retries = counts.retries
  snapshot.refreshes = server.refreshCount
  snapshot.failures = counts.failures
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
  dashboard.draw(await snapshot(name))
  let detail = await body()
  let elapsed = start.duration(to: clock.now).components
  results.append(PhaseResult(name: name, seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18, detail: detail))
  dashboard.finishPhase(await snapshot(name + " — done"))
}

/// What the visible cells do: each visible row's image is asked for by the cell and by two
/// other views at once (a thumbnail, a share preview), which coalescing turns into one fetch.
@MainActor
func showCells(_ rows: Range<Int>) async {
  let posts = model.posts
  await withTaskGroup(of: Void.self) { group in
    for row in rows where row < posts.count {
      for _ in 0..<3 {
        group.addTask { _ = try? await images.image(for: posts[row]) }
      }
    }
  }
}

await phase("1. cold launch, nothing saved") {
  await model.onAppear()
  await showCells(0..<4)
  return "\(model.posts.count) posts on screen"
}

await phase("2. scrolling 100 rows") {
  for row in 0..<100 where row < model.posts.count {
    await model.rowAppeared(model.posts[row])
    if row % 4 == 0 { await showCells(row..<(row + 4)) }
    if row % 10 == 0 { dashboard.draw(await snapshot("2. scrolling 100 rows (row \(row))")) }
  }
  return "\(model.posts.count) posts loaded"
}

await phase("3. chaos: three 503s with Retry-After: 1") {
  let before = network.metrics.retries
  server.chaos.only(pathPrefix: "/v1/feed")
  server.chaos.failNext(3, status: 503, retryAfter: 1)
  await model.refresh()
  server.chaos.reset()
  return "refresh survived with \(network.metrics.retries - before) retries"
}

await phase("4. chaos: every access token expired") {
  server.chaos.expireTokens()
  let before = server.refreshCount
  let liked = model.posts.prefix(10)
  await withTaskGroup(of: Void.self) { group in
    for post in liked {
      group.addTask { _ = try? await actions.toggleLike(postID: post.id) }
    }
  }
  return "10 likes at once, \(server.refreshCount - before) token refresh"
}

await phase("5. a comment whose first attempt fails") {
  server.chaos.only(pathPrefix: "/v1/posts")
  server.chaos.failNext(1, status: 503, retryAfter: 0)
  defer { server.chaos.reset() }
  do {
    let posted = try await actions.comment("Great shot!", on: model.posts[0].id)
    return "posted once as \(posted.id), retried safely with its idempotency key"
  } catch {
    return "failed: \(error)"
  }
}

await phase("6. memory warning") {
  await images.handleMemoryWarning()
  let before = await loader.metrics.diskHits
  await showCells(0..<6)
  return "memory purged; \(await loader.metrics.diskHits - before) images came back from disk"
}

server.stop()
let offlineRepository = FeedRepository(api: api, pageSize: 20)
let offlineFeed = OfflineFeed(repository: offlineRepository, persistence: FeedDiskStore(fileURL: feedFile))
await phase("7. relaunch with the server gone") {
  let relaunched = FeedViewModel(feed: offlineFeed, actions: FeedActions(api: api, repository: offlineRepository))
  screen = relaunched
  await relaunched.onAppear()
  return "\(relaunched.posts.count) saved posts shown, status: \(describe(relaunched.status))"
}

let total = demoStart.duration(to: clock.now).components
let metrics = await loader.metrics
let counts = network.metrics
print("Summary")
for result in results {
  print("  " + result.name.padding(toLength: 44, withPad: " ", startingAt: 0) + String(format: "%5.1f s  ", result.seconds) + result.detail)
}
print("")
print("  requests sent          \(counts.requests) (\(counts.retries) retries, success rate \(String(format: "%.0f", counts.successRate * 100)) %)")
print("  token refreshes        \(server.refreshCount)")
print("  image requests         \(metrics.requests): memory \(metrics.memoryHits), disk \(metrics.diskHits), network \(metrics.networkFetches)")
print("  saved by coalescing    \(max(0, metrics.requests - metrics.memoryHits - metrics.diskHits - metrics.networkFetches - metrics.failures)) fetches")
print("  image hit rate         \(String(format: "%.0f", metrics.hitRate * 100)) %")
print(String(format: "  total                  %.1f s", Double(total.seconds) + Double(total.attoseconds) / 1e18))
session.finishTasksAndInvalidate()
