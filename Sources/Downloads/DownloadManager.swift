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
  public let downloader: Downloader
  /// Where files go when the caller names no destination.
  public let directory: URL
  /// Where transfers wait for a slot, highest priority first (exercise 8), or nil for none.
  public let scheduler: (any TransferScheduling)?
  // TODO: add the transfers in flight here: for each URL, its task and the callers waiting for it
  // (and, in exercise 8, the priority it runs at and its scheduler job).

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
    // TODO: join the URL's transfer or start one with `runTransfer`; a caller can leave alone.
    throw NotImplemented("DownloadManager.download(_:to:priority:)")
  }

  /// How many callers wait for `url`'s transfer (0 when none runs).
  public func joiners(of url: URL) -> Int {
    // TODO: the callers waiting for the URL's transfer (placeholder: 0).
    0
  }

  /// How many transfers are running: those that callers wait for (one that every caller has left
  /// is not counted, even while its task winds down).
  // TODO: the transfers running now (placeholder: 0).
  public var activeTransfers: Int { 0 }
}
