// Exercise 6 — Pause and resume (advanced)
//
// A paused download keeps its partial file and what the server said about it. To continue, ask
// for the rest with `Range: bytes=N-`, but only when the server offered ranges and a validator,
// and send the validator as `If-Range` so that a changed file comes back whole (200) instead of
// as the tail of a different file. Only a strong validator may go there (RFC 9110 §13.1.5): never
// a weak ETag, and a Last-Modified date only when it is at least a second older than the
// response's `Date`. A pause after the last chunk leaves the whole file on disk: the server
// answers its range with 416, which completes the download rather than failing it. Implement
// `ifRangeValidator`, `request()` and `offset(for:)`.
import Foundation
import Workbook

/// Everything needed to continue a paused download, even after the app was killed (it is Codable).
public nonisolated struct ResumeData: Sendable, Equatable, Codable {
  public var url: URL
  public var partial: PartialFile
  /// Bytes of the file already on disk, from its start.
  public var bytesOnDisk: Int64
  /// The ETag (or Last-Modified) the partial bytes came with, as the server sent it: the
  /// transport takes `ETag` when the response has one, else `Last-Modified`. One field holds
  /// either because the two cannot be confused: an entity tag starts with `"` or `W/"` (RFC 9110
  /// §8.8.3) and an HTTP-date never does, so `ifRangeValidator` tells them apart by that prefix
  /// and reads anything else as a date; what is neither is not sent.
  public var validator: String?
  /// Whether the server said `Accept-Ranges: bytes`.
  public var acceptsRanges: Bool
  /// The `Date` header of the response the partial bytes came with (nil when it had none).
  public var responseDate: String?

  public init(
    url: URL, partial: PartialFile, bytesOnDisk: Int64, validator: String?, acceptsRanges: Bool, responseDate: String? = nil
  ) {
    self.url = url
    self.partial = partial
    self.bytesOnDisk = bytesOnDisk
    self.validator = validator
    self.acceptsRanges = acceptsRanges
    self.responseDate = responseDate
  }

  /// The validator that may be sent as `If-Range`, or nil when there is none (RFC 9110 §13.1.5).
  ///
  /// A strong ETag (`"v7"`) goes as it is. A weak one (`W/"v7"`) never does: it promises an
  /// equivalent file, not the same bytes, and the rest of one file glued to the start of another
  /// is a corrupt file. A `Last-Modified` date goes only when it is a strong validator
  /// (§8.8.2.2): `responseDate` is at least one second after it, so the file could not change
  /// again within the second the date names. A `Date` earlier than `Last-Modified` (a server
  /// whose clocks disagree) proves nothing, however far apart the two are: not sent. Dates are
  /// read with `HTTPDate.parse`, in any of the three formats; anything else (no date, an
  /// unreadable one) is not sent.
  public var ifRangeValidator: String? {
    // TODO: the ETag when it is strong, else `Last-Modified` when `responseDate` makes it strong.
    nil
  }

  /// Whether asking for the rest can work: bytes on disk, ranges offered and a validator that may
  /// be sent (`ifRangeValidator`) to check that the rest belongs to the same file.
  public var canContinue: Bool {
    // TODO: bytes on disk, ranges accepted and a validator (placeholder: false).
    false
  }

  /// The request that continues the download: `Range` from `bytesOnDisk` with `If-Range:
  /// ifRangeValidator` when `canContinue`, otherwise a plain request for the whole file.
  public func request() -> TransferRequest {
    // TODO: add `Range` and `If-Range` when it can continue (placeholder: the whole file).
    TransferRequest(url: url)
  }

  /// Where the body of `response` goes in the partial file.
  ///
  /// A 206 that starts exactly at `bytesOnDisk` continues there. A 200 is the whole file (the
  /// server ignored the range, or the file changed): start again from 0. A 206 that starts
  /// anywhere else would corrupt the file: throws `DownloadError.unexpectedRange(expected:
  /// bytesOnDisk, got: response.rangeStart)`, and so does a 206 with no `Content-Range`
  /// (`rangeStart` nil: `got: nil`), which does not say where its bytes belong.
  ///
  /// A 416 (Range Not Satisfiable) whose `totalLength` (`Content-Range: bytes */N`, RFC 9110
  /// §14.4, §15.5.17) equals `bytesOnDisk` says the range started at the file's end: the partial
  /// file is already the whole file, so it returns `bytesOnDisk` and the download completes
  /// without writing the 416's body. A 416 with any other `totalLength`, or none, throws
  /// `DownloadError.httpStatus(416)`: the file is not what is on disk. Any other status throws
  /// `DownloadError.httpStatus` with that status.
  public func offset(for response: TransferResponse) throws -> Int64 {
    // TODO: 0 for a 200, `bytesOnDisk` for a matching 206 or a 416 for a whole file, else throw.
    throw NotImplemented("ResumeData.offset(for:)")
  }
}
