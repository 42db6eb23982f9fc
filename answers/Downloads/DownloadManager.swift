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
  struct Transfer {
    let id: UInt64
    let task: Task<URL, any Error>
    var waiters: [UInt64: CheckedContinuation<URL, any Error>] = [:]
  }

  public let downloader: Downloader
  /// Where files go when the caller names no destination.
  public let directory: URL
  var transfers: [URL: Transfer] = [:]
  var nextID: UInt64 = 0

  public init(downloader: Downloader, directory: URL) {
    self.downloader = downloader
    self.directory = directory
  }

  /// The file at `url`, downloaded to `destination` (default: `directory` + the URL's last path
  /// component). If a transfer of `url` is running, this call joins it and gets its file, and its
  /// `destination` is ignored. Cancelling the calling task makes this call throw
  /// `CancellationError` at once; the transfer is cancelled only when every joiner has gone.
  public func download(_ url: URL, to destination: URL? = nil) async throws -> URL {
    nextID += 1
    let waiter = nextID
    if transfers[url] == nil {
      nextID += 1
      let id = nextID
      let target = destination ?? defaultDestination(for: url)
      let downloader = downloader
      let task = Task { try await downloader.download(url, to: target) }
      transfers[url] = Transfer(id: id, task: task)
      Task {
        let result = await task.result
        self.transferEnded(url, id: id, result: result)
      }
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

  /// How many transfers are running.
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
