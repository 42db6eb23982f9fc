// Exercise 7 — One transfer per URL (advanced)
//
// A list shows the same file twice, or the user taps download while a prefetch of it runs: both
// callers must share one transfer. But the two callers are independent: when one of them goes
// away (its task is cancelled), the other still gets the file, and the transfer stops only when
// nobody wants it any more. Implement `download(_:to:)` and the bookkeeping of joiners.
import Foundation
import Workbook

/// Downloads files, joining callers that ask for a URL already being downloaded.
public actor DownloadManager {
  public let downloader: Downloader
  /// Where files go when the caller names no destination.
  public let directory: URL
  // Add the transfers in flight here: for each URL, its task and the callers waiting for it.

  public init(downloader: Downloader, directory: URL) {
    self.downloader = downloader
    self.directory = directory
  }

  /// The file at `url`, downloaded to `destination` (default: `directory` + the URL's last path
  /// component). If a transfer of `url` is running, this call joins it and gets its file, and its
  /// `destination` is ignored. Cancelling the calling task makes this call throw
  /// `CancellationError` at once; the transfer is cancelled only when every joiner has gone.
  public func download(_ url: URL, to destination: URL? = nil) async throws -> URL {
    throw NotImplemented("DownloadManager.download(_:to:)")
  }

  /// How many callers wait for `url`'s transfer (0 when none runs).
  public func joiners(of url: URL) -> Int {
    0
  }

  /// How many transfers are running.
  public var activeTransfers: Int { 0 }
}
