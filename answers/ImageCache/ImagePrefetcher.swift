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
  /// The URLs waiting for a slot are `queue[head...]`, oldest first. Taking one moves `head` on
  /// (`removeFirst()` would shift every other URL: O(n) a start); the taken ones are dropped
  /// once they are half of the array, so each URL is moved at most once: O(1) amortized.
  private var queue: [URL] = []
  private var head = 0
  private var queued: Set<URL> = []
  private var running: [URL: (id: Int, task: Task<Void, Never>)] = [:]
  private var nextID = 0
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
    for entry in running.values { entry.task.cancel() }
  }

  /// Queues `urls` (nearest first) and starts loads while fewer than `maxConcurrent` run.
  /// A URL already queued or running is not queued twice.
  public func prefetch(_ urls: [URL]) {
    for url in urls where running[url] == nil && !queued.contains(url) {
      queue.append(url)
      queued.insert(url)
    }
    startMore()
  }

  /// Forgets queued `urls` and cancels their running loads (the user scrolled away from them).
  public func cancelPrefetching(_ urls: [URL]) {
    let cancelled = Set(urls)
    queue.removeSubrange(..<head)
    head = 0
    queue.removeAll { cancelled.contains($0) }
    queued.subtract(cancelled)
    for url in cancelled {
      running.removeValue(forKey: url)?.task.cancel()
    }
    startMore()
  }

  /// Cancels every queued and running prefetch, at once: a URL that was queued is never loaded
  /// after `stop` unless it is prefetched again.
  public func stop() {
    queue.removeAll()
    head = 0
    queued.removeAll()
    for entry in running.values { entry.task.cancel() }
    running.removeAll()
  }

  /// URLs waiting for a free slot.
  public var pendingCount: Int { queue.count - head }
  /// Prefetches running now (never more than `maxConcurrent`).
  public var runningCount: Int { running.count }

  private func startMore() {
    while running.count < maxConcurrent, head < queue.count {
      let url = queue[head]
      head += 1
      if head >= 32, head * 2 >= queue.count {
        queue.removeSubrange(..<head)
        head = 0
      }
      queued.remove(url)
      nextID += 1
      let id = nextID
      let task = Task(priority: priority) { [weak self, loader, loadEnded] in
        // Checked when the slot frees, not when queued: by then the image may have arrived.
        let isCached = await loader.isCached(url)
        let skipped = isCached ? true : await loader.isLoading(url)
        if !skipped {
          _ = try? await loader.image(for: url, policy: .cacheFirst)
          await loadEnded(url)
        }
        await self?.finished(url, id: id, skipped: skipped)
      }
      running[url] = (id, task)
    }
  }

  private func finished(_ url: URL, id: Int, skipped: Bool) {
    // Cancelled meanwhile, and perhaps queued and started again: leave the newer run alone.
    guard running[url]?.id == id else { return }
    running[url] = nil
    if skipped { skippedCount += 1 } else { completedCount += 1 }
    startMore()
  }
}
