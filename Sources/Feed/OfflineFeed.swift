// Exercise 2 — Offline first (intermediate)
//
// At launch, show the feed saved on disk at once, and ask the network for the first page at the
// same time. Whichever answers first is shown; but the saved feed must never replace a page that
// the network already delivered (the disk is usually faster, not always: a cold disk after a
// reboot, a big file). The check has to happen after the `await`, because that is where another
// call can get in: actor methods interleave at every suspension point.
//
// Offline, keep showing the saved posts and say so. Pull-to-refresh keeps the old posts on
// screen until the new first page has arrived, and keeps them if it fails.
import Foundation
import Workbook

/// The feed as the screen sees it: saved posts at launch, network pages after, offline handled.
public actor OfflineFeed {
  /// Where the posts on screen came from.
  public enum Status: Equatable, Sendable {
    /// Nothing to show yet.
    case empty
    /// Posts saved on disk, from `savedAt`; the network has not answered yet.
    case cached(savedAt: Date)
    /// Posts from the network.
    case live
    /// The network is unreachable; the posts (if any) are the saved ones.
    case offline
  }

  public nonisolated let repository: FeedRepository
  public nonisolated let persistence: any FeedPersistence
  public private(set) var status = Status.empty
  private let now: @Sendable () -> Date

  public init(
    repository: FeedRepository, persistence: any FeedPersistence, now: @escaping @Sendable () -> Date = Date.init
  ) {
    self.init(repository: repository, persistence: persistence, now: now, afterJob: nil)
  }

  // Given — a test seam: the tests build the feed with a hook that runs between two of its jobs.
  private nonisolated let executor: InstrumentedExecutor
  public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.unownedExecutor }

  /// A feed whose executor calls `afterJob` after each of its jobs: the tests' way in between
  /// the two sides of an `await` (see `InstrumentedExecutor`).
  init(
    repository: FeedRepository, persistence: any FeedPersistence, now: @escaping @Sendable () -> Date = Date.init,
    afterJob: (@Sendable () -> Void)?
  ) {
    self.repository = repository
    self.persistence = persistence
    self.now = now
    executor = InstrumentedExecutor(afterJob: afterJob)
  }

  /// The posts to show, newest first.
  public var posts: [Post] {
    get async { await repository.posts }
  }

  /// Shows the saved feed and fetches the first page concurrently (`restoreSaved` and `refresh`
  /// at once); returns when both are done, with the fresh page on screen and saved for the next
  /// launch.
  ///
  /// Throws only when the network failed; the saved posts (if any) are shown either way.
  public func launch() async throws(FeedError) {
    // TODO: show the saved posts and fetch the first page at the same time.
    throw .failed(reason: NotImplemented("OfflineFeed.launch").description)
  }

  /// Shows the saved feed, unless a network page has already arrived.
  ///
  /// Restored posts set the status to `.cached(savedAt:)` with the snapshot's `savedAt`, and only
  /// while it is still `.empty`. No saved feed, or a saved feed with no posts, is nothing to show:
  /// the repository is left alone and the status stays as it is.
  public func restoreSaved() async {
    // TODO: load the saved feed into the repository unless a page came first (does nothing yet).
  }

  /// Fetches the first page and replaces the posts with it once it has arrived (pull-to-refresh),
  /// then saves the feed.
  ///
  /// The first page is always fetched with the API's `nil` cursor and applied with the
  /// repository's `replace(with:)`: the repository's own `loadNextPage()` continues from the
  /// cursor a restore may have set, which is not the first page. Until the page has arrived, and
  /// if it fails, the old posts stay.
  ///
  /// The status: `.live` once the page is applied; `.offline` when the failure is `.offline`; any
  /// other failure (a 500, a timeout) leaves the status as it was, since it says nothing about
  /// the connection. Errors are mapped with `FeedError(_:)`.
  ///
  /// Saving is best effort: the snapshot is the repository's `contents` (every post and the
  /// cursor after them, read in one call, so a page applied meanwhile cannot pair the posts with a
  /// cursor past posts they do not hold) and `savedAt: now()` (the injected clock, never
  /// `Date()`), and a save that fails is ignored, so a full disk never turns a page that arrived
  /// into an error.
  public func refresh() async throws(FeedError) {
    // TODO: fetch the first page, replace the posts once it arrives, save; say when offline.
    throw .failed(reason: NotImplemented("OfflineFeed.refresh").description)
  }

  /// Appends the next page and saves the feed (as `refresh()` does: best effort, `now()`).
  ///
  /// The status: a page that added posts proves the network answered, so `.offline` becomes
  /// `.live`; a call that sent no request (no more pages) or added nothing leaves it as it was;
  /// an `.offline` failure sets `.offline`, any other failure leaves it. Whether `.cached` stays
  /// `.cached` after a next page (the posts at the top are still the saved ones) or becomes
  /// `.live` is your choice, and so is whether a call that added nothing saves again. `.empty`
  /// (a next page before any launch or refresh) is the same choice: it becomes `.live` or stays
  /// `.empty` (the reference leaves it, as it leaves `.cached`).
  public func loadNextPage() async throws(FeedError) {
    // TODO: load the next page through the repository, then save the feed.
    throw .failed(reason: NotImplemented("OfflineFeed.loadNextPage").description)
  }
}
