// Exercise 7 — One transfer per URL (advanced)
//
// A list shows the same file twice, or the user taps download while a prefetch of it runs: both
// callers must share one transfer. But the two callers are independent: when one of them goes
// away (its task is cancelled), the other still gets the file, and the transfer stops only when
// nobody wants it any more. Implement `download(_:to:priority:)` and the bookkeeping of joiners.
//
// Run a new transfer as `Task { try await self.runTransfer(url, id:, to:, priority:) }`, where `id`
// is a number you give each transfer (it tells a transfer from a later one of the same URL), and
// when a caller joins one, call `raisePriority(of:to:)`: both live in exercise 8's file, which
// gives them simple bodies (download at once; change nothing) until you get there. The download
// itself runs your exercises 4 and 5 (`Downloader` streams and commits through them).
import Foundation
import Workbook

/// Downloads files, joining callers that ask for a URL already being downloaded.
public actor DownloadManager {
  struct Transfer {
    let id: UInt64
    let task: Task<URL, any Error>
    var waiters: [UInt64: CheckedContinuation<URL, any Error>] = [:]
    /// The highest priority any of its callers asked for (exercise 8).
    var priority: DownloadPriority
    /// The scheduler's job, once the transfer was submitted (exercise 8).
    var job: JobID?
  }

  public let downloader: Downloader
  /// Where files go when the caller names no destination.
  public let directory: URL
  /// Where transfers wait for a slot, highest priority first (exercise 8), or nil for none.
  public let scheduler: (any TransferScheduling)?
  var transfers: [URL: Transfer] = [:]
  var nextID: UInt64 = 0
  /// Priority changes on their way to the scheduler, one after the other (exercise 8).
  var priorityUpdates: Task<Void, Never>?

  public init(downloader: Downloader, directory: URL, scheduler: (any TransferScheduling)? = nil) {
    self.downloader = downloader
    self.directory = directory
    self.scheduler = scheduler
  }

  /// The file at `url`, downloaded to `destination` (default: `directory` + the URL's last path
  /// component, or `download` when the URL has none, such as `https://example.com/`). If a
  /// transfer of `url` is running, this call joins it and gets its file, and its `destination` is
  /// ignored (nothing is written there). Cancelling the calling task makes this call throw
  /// `CancellationError` at once; the transfer is cancelled only when every joiner has gone. A
  /// caller whose task is cancelled before it calls throws at once and changes nothing: it starts
  /// no transfer and, with a scheduler, raises no running transfer's priority.
  ///
  /// A transfer whose callers have all gone is forgotten at once, not when its cancelled task has
  /// wound down: `activeTransfers` and `joiners(of:)` stop counting it, and the next call of the
  /// URL starts a new transfer. The old one's late end must not touch the new one (that is what
  /// the transfer's `id` tells apart).
  ///
  /// With a scheduler, the transfer waits for a slot at `priority`, and a caller that joins with
  /// a higher priority raises the transfer's (exercise 8).
  public func download(_ url: URL, to destination: URL? = nil, priority: DownloadPriority = .normal) async throws -> URL {
    // A caller that will never wait for the file changes nothing for those that do: it starts no
    // transfer and raises no priority (a raise outlives its caller).
    try Task.checkCancellation()
    nextID += 1
    let waiter = nextID
    if transfers[url] == nil {
      nextID += 1
      let id = nextID
      let target = destination ?? defaultDestination(for: url)
      let task = Task { try await self.runTransfer(url, id: id, to: target, priority: priority) }
      transfers[url] = Transfer(id: id, task: task, priority: priority)
      Task {
        let result = await task.result
        self.transferEnded(url, id: id, result: result)
      }
    } else {
      raisePriority(of: url, to: priority)
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        join(url, waiter: waiter, continuation: continuation)
      }
    } onCancel: {
      Task { await self.leave(url, waiter: waiter) }
    }
  }

  /// How many callers wait for `url`'s transfer (0 when none runs).
  public func joiners(of url: URL) -> Int {
    transfers[url]?.waiters.count ?? 0
  }

  /// How many transfers are running: those that callers wait for (one that every caller has left
  /// is not counted, even while its task winds down).
  public var activeTransfers: Int { transfers.count }

  func defaultDestination(for url: URL) -> URL {
    let name = url.lastPathComponent
    return directory.appendingPathComponent(name.isEmpty || name == "/" ? "download" : name)
  }

  func join(_ url: URL, waiter: UInt64, continuation: CheckedContinuation<URL, any Error>) {
    guard transfers[url] != nil else {
      continuation.resume(throwing: CancellationError())
      return
    }
    transfers[url]?.waiters[waiter] = continuation
    // The cancellation handler may have run before the continuation was stored.
    if Task.isCancelled { leave(url, waiter: waiter) }
  }

  func leave(_ url: URL, waiter: UInt64) {
    guard var transfer = transfers[url], let continuation = transfer.waiters.removeValue(forKey: waiter) else {
      return
    }
    continuation.resume(throwing: CancellationError())
    if transfer.waiters.isEmpty {
      transfer.task.cancel()
      transfers[url] = nil
    } else {
      transfers[url] = transfer
    }
  }

  func transferEnded(_ url: URL, id: UInt64, result: Result<URL, any Error>) {
    guard let transfer = transfers[url], transfer.id == id else { return }
    transfers[url] = nil
    for continuation in transfer.waiters.values {
      continuation.resume(with: result)
    }
  }
}
