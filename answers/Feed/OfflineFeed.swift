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
    async let restored: Void = restoreSaved()
    let result: Result<Void, FeedError>
    do throws(FeedError) {
      try await refresh()
      result = .success(())
    } catch {
      result = .failure(error)
    }
    await restored
    try result.get()
  }

  /// Shows the saved feed, unless a network page has already arrived.
  ///
  /// Restored posts set the status to `.cached(savedAt:)` with the snapshot's `savedAt`, and only
  /// while it is still `.empty`. No saved feed, or a saved feed with no posts, is nothing to show:
  /// the repository is left alone and the status stays as it is.
  public func restoreSaved() async {
    guard let snapshot = await persistence.load(), !snapshot.posts.isEmpty else { return }
    // The first page may have arrived while the disk was read: the repository decides, in one
    // step, whether the saved posts may still be shown.
    let restored = await repository.restore(FeedPage(posts: snapshot.posts, nextCursor: snapshot.nextCursor))
    // Re-check after that suspension too: the network may have answered (live) or failed
    // (offline) meanwhile, and that status is the truer one.
    if restored && status == .empty { status = .cached(savedAt: snapshot.savedAt) }
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
    let page: FeedPage
    do {
      page = try await repository.api.feedPage(cursor: nil, limit: repository.pageSize)
    } catch {
      let failure = FeedError(error)
      if failure == .offline { status = .offline }
      throw failure
    }
    await repository.replace(with: page)
    status = .live
    await saveQuietly()
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
    do {
      let added = try await repository.loadNextPage()
      guard !added.isEmpty else { return }
    } catch {
      let failure = FeedError(error)
      if failure == .offline { status = .offline }
      throw failure
    }
    if status == .offline { status = .live }
    await saveQuietly()
  }

  /// Saving is best effort: a full disk must not turn a loaded page into an error on screen.
  private func saveQuietly() async {
    // One call: the posts and their cursor from one state of the repository. Two reads are two
    // hops, and a page applied between them would save a cursor past posts that were not saved.
    let contents = await repository.contents
    let snapshot = FeedSnapshot(posts: contents.posts, nextCursor: contents.nextCursor, savedAt: now())
    try? await persistence.save(snapshot)
  }
}
