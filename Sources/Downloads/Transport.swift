// Given: what a download asks a transport for and what it gets back. Nothing to write here.
//
// The downloader never sees URLSession: it talks to a `Transport`, so the same code streams from
// a real server (`URLSessionTransport`) or from a script (`ScriptedTransport`) in tests.
import Foundation

/// One HTTP GET of a file, possibly continuing a partial download.
public nonisolated struct TransferRequest: Sendable, Equatable {
  public var url: URL
  /// Ask for the bytes from this offset on (`Range: bytes=N-`); nil asks for the whole file.
  public var rangeStart: Int64?
  /// The validator the partial bytes came with (`If-Range`): the server sends the rest only if
  /// the file is unchanged, and the whole new file otherwise.
  public var ifRange: String?

  public init(url: URL, rangeStart: Int64? = nil, ifRange: String? = nil) {
    self.url = url
    self.rangeStart = rangeStart
    self.ifRange = ifRange
  }
}

/// The parts of an HTTP response a download needs.
public nonisolated struct TransferResponse: Sendable, Equatable {
  /// 200 (whole file), 206 (a range), or an error status.
  public var statusCode: Int
  /// The first byte of the body within the file: `A` of `Content-Range: bytes A-B/N` on a 206.
  public var rangeStart: Int64?
  /// The size of the whole file when known: `N` of Content-Range (of `bytes A-B/N` on a 206, of
  /// `bytes */N` on a 416), or Content-Length on a 200.
  public var totalLength: Int64?
  /// Whether the server said `Accept-Ranges: bytes`. A 206 need not say it (nginx does not): the
  /// header is advice (RFC 9110 §14.3), and a 206 is itself proof that ranges work.
  public var acceptsRanges: Bool
  /// The ETag, or else Last-Modified: what `If-Range` may send back to resume, when it is strong.
  public var validator: String?
  /// The `Date` header: when the response was made, which tells whether a `Last-Modified`
  /// validator is strong (RFC 9110 §8.8.2.2).
  public var date: String?
  /// The `Content-Encoding` header, nil when there is none. A coding other than `identity` means
  /// the body's bytes are not the file's: ranges and `Content-Length` count the encoded bytes
  /// (RFC 9110 §8.4, §14.1), while `URLSession` hands over decoded ones.
  public var contentEncoding: String?

  public init(
    statusCode: Int, rangeStart: Int64? = nil, totalLength: Int64? = nil, acceptsRanges: Bool = false,
    validator: String? = nil, date: String? = nil, contentEncoding: String? = nil
  ) {
    self.statusCode = statusCode
    self.rangeStart = rangeStart
    self.totalLength = totalLength
    self.acceptsRanges = acceptsRanges
    self.validator = validator
    self.date = date
    self.contentEncoding = contentEncoding
  }
}

/// The body of a transfer, pulled one chunk at a time.
///
/// Pulling is what bounds memory: the transport produces the next chunk only when the consumer
/// asks for it, so a consumer that writes each chunk before asking for the next holds one chunk.
public nonisolated struct TransferBody: AsyncSequence, Sendable {
  public typealias Element = Data

  private let nextChunk: @Sendable () async throws -> Data?

  /// A body whose chunks come from `next`; nil means the body is complete.
  public init(next: @escaping @Sendable () async throws -> Data?) {
    nextChunk = next
  }

  public struct AsyncIterator: AsyncIteratorProtocol {
    let nextChunk: @Sendable () async throws -> Data?
    public mutating func next() async throws -> Data? { try await nextChunk() }
  }

  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(nextChunk: nextChunk) }
}

/// Starts transfers. Cancelling the task that reads a body stops the transfer.
public nonisolated protocol Transport: Sendable {
  /// Sends `request` and returns the response head and a body to pull.
  func start(_ request: TransferRequest) async throws -> (TransferResponse, TransferBody)
}

/// Why a download failed.
public nonisolated enum DownloadError: Error, Equatable, Sendable {
  /// The server answered with a status that is neither 200 nor 206 (nor the 416 that says a
  /// partial file is already whole).
  case httpStatus(Int)
  /// The body did not end at the file's size: `received` bytes of the `expected`, both counted
  /// from the file's start. Fewer when the connection dropped; more from a server whose
  /// announced length was wrong.
  case truncated(received: Int64, expected: Int64)
  /// A 206 whose Content-Range does not start where the partial file ends.
  case unexpectedRange(expected: Int64, got: Int64?)
  /// The destination exists and the policy is `.fail`.
  case destinationExists(URL)
  /// The body came in this content coding (say `gzip`) though the download asked for
  /// `identity`: its byte counts and ranges would be of bytes the transport never hands over.
  case contentEncoded(String)
  /// The download can no longer be paused or resumed (it finished, failed or was cancelled).
  case notRunning
}
