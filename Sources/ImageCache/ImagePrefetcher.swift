// Exercise 7 — A polite prefetcher (intermediate)
//
// Warm the cache for the rows about to scroll into view without competing with the rows on
// screen: at most `maxConcurrent` loads at a time (default 2), at low priority, skipping URLs
// that are already cached or already loading. When the user scrolls away, stops, or the
// prefetcher is released, cancel everything it started: the coalescer makes sure a visible cell
// waiting for the same URL still gets its image.
import Foundation
import Workbook

/// Loads upcoming images into the loader's caches in the background, a few at a time.
///
/// `prefetch` and `cancelPrefetching` are O(k) for k URLs (plus O(n) to drop cancelled URLs
/// from a queue of n), and taking the next URL is O(1) amortized; the queue is FIFO, so the rows
/// nearest the screen, which the caller passes first, load first.
public actor ImagePrefetcher {
  public nonisolated let loader: ImageLoader
  public nonisolated let maxConcurrent: Int
  public nonisolated let priority: TaskPriority
  // TODO: add your state: the queue of URLs waiting for a slot, and the task running for each
  // URL being prefetched (with an id, so a late finish cannot remove a newer run). An `Array`'s
  // `removeFirst()` shifts every element left: O(n) a call, so keep an index of the next one.
  /// URLs that were skipped because they were cached or loading when their turn came.
  public private(set) var skippedCount = 0
  /// URLs whose prefetch ran to the end (loaded or failed). A prefetch cancelled by
  /// `cancelPrefetching` or `stop` is neither completed nor skipped, even when its load reports
  /// back later, and even when that load had finished just before the cancel.
  public private(set) var completedCount = 0

  // Given — a test seam.
  /// Each prefetch's task awaits `loadEnded(url)` once its load is over
  /// (loaded, failed or cancelled; a skipped URL has no load), just before it reports back to the
  /// prefetcher. It does nothing in an app. A test holds a cancelled load there, so that it
  /// reports only after the same URL was prefetched again (`aLateFinishLeavesTheNewerRunAlone`).
  /// Capture it in the task as you capture the loader.
  nonisolated let loadEnded: @Sendable (URL) async -> Void

  public init(loader: ImageLoader, maxConcurrent: Int = 2, priority: TaskPriority = .low) {
    self.init(loader: loader, maxConcurrent: maxConcurrent, priority: priority, loadEnded: { _ in })
  }

  // Given — the initializer with the test seam.
  init(loader: ImageLoader, maxConcurrent: Int = 2, priority: TaskPriority = .low, loadEnded: @escaping @Sendable (URL) async -> Void) {
    self.loader = loader
    self.maxConcurrent = max(1, maxConcurrent)
    self.priority = priority
    self.loadEnded = loadEnded
  }

  deinit {
    // TODO: cancel every running task here: a released prefetcher must not keep loading.
  }

  /// Queues `urls` (nearest first) and starts loads while fewer than `maxConcurrent` run.
  /// A URL already queued or running is not queued twice.
  public func prefetch(_ urls: [URL]) {
    // TODO: queue the new URLs and start loads up to `maxConcurrent` (this empty body queues none).
  }

  /// Forgets queued `urls` and cancels their running loads (the user scrolled away from them).
  public func cancelPrefetching(_ urls: [URL]) {
    // TODO: drop them from the queue and cancel their running loads (does nothing yet).
  }

  /// Cancels every queued and running prefetch, at once: a URL that was queued is never loaded
  /// after `stop` unless it is prefetched again.
  public func stop() {
    // TODO: empty the queue and cancel every running load (does nothing yet).
  }

  /// URLs waiting for a free slot.
  // TODO: the length of the queue (placeholder: 0).
  public var pendingCount: Int { 0 }
  /// Prefetches running now (never more than `maxConcurrent`).
  // TODO: the number of running tasks (placeholder: 0).
  public var runningCount: Int { 0 }
}
