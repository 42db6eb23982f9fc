// Exercise 6 — Pause and resume (advanced)
//
// A paused download keeps its partial file and what the server said about it. To continue, ask
// for the rest with `Range: bytes=N-`, but only when the server offered ranges and a validator,
// and send the validator as `If-Range` so that a changed file comes back whole (200) instead of
// as the tail of a different file. Implement `request()` and `offset(for:)`.
import Foundation
import Workbook

/// Everything needed to continue a paused download, even after the app was killed (it is Codable).
public struct ResumeData: Sendable, Equatable, Codable {
  public var url: URL
  public var partial: PartialFile
  /// Bytes of the file already on disk, from its start.
  public var bytesOnDisk: Int64
  /// The ETag (or Last-Modified) the partial bytes came with.
  public var validator: String?
  /// Whether the server said `Accept-Ranges: bytes`.
  public var acceptsRanges: Bool

  public init(url: URL, partial: PartialFile, bytesOnDisk: Int64, validator: String?, acceptsRanges: Bool) {
    self.url = url
    self.partial = partial
    self.bytesOnDisk = bytesOnDisk
    self.validator = validator
    self.acceptsRanges = acceptsRanges
  }

  /// Whether asking for the rest can work: bytes on disk, ranges offered and a validator to check
  /// that the rest belongs to the same file.
  public var canContinue: Bool {
    // TODO: bytes on disk, ranges accepted and a validator (placeholder: false).
    false
  }

  /// The request that continues the download: `Range` from `bytesOnDisk` with `If-Range` when
  /// `canContinue`, otherwise a plain request for the whole file.
  public func request() -> TransferRequest {
    // TODO: add `Range` and `If-Range` when it can continue (placeholder: the whole file).
    TransferRequest(url: url)
  }

  /// Where the body of `response` goes in the partial file.
  ///
  /// A 206 that starts exactly at `bytesOnDisk` continues there. A 200 is the whole file (the
  /// server ignored the range, or the file changed): start again from 0. A 206 that starts
  /// anywhere else would corrupt the file: throws `DownloadError.unexpectedRange(expected:
  /// bytesOnDisk, got: response.rangeStart)`. Any other status throws `DownloadError.httpStatus` with
  /// that status (a 416, say: the range no longer fits the file).
  public func offset(for response: TransferResponse) throws -> Int64 {
    // TODO: 0 for a 200, `bytesOnDisk` for a matching 206, else throw.
    throw NotImplemented("ResumeData.offset(for:)")
  }
}
