// Given: a transport that serves files from a script, for tests. Nothing to write here.
//
// It follows the same contract as the practice server's `/files/{name}?size=N`: byte i of a file
// is `UInt8(truncatingIfNeeded: i &* 31 &+ 7)`, so any byte's content is known without storing it,
// and Range / If-Range / ETag behave like a real server's (nginx's, where RFC 9110 leaves a
// choice): a range that starts at or past the end gets 416 with the file's size, a 206 does not
// repeat `Accept-Ranges`, and a body is sent in the file's own bytes unless the script says the
// server codes it regardless of what was asked.
import Foundation
import Synchronization

/// A scripted server for the tests. The file's opening note says how it answers, and
/// `make conformance` compares those answers with nginx's.
public nonisolated final class ScriptedTransport: Transport {
  /// One scripted file.
  public struct File: Sendable {
    public var size: Int64
    /// The ETag; nil sends no validator (or `lastModified`, when set).
    public var etag: String?
    /// The `Last-Modified` date, sent as the validator when there is no ETag.
    public var lastModified: String?
    /// The `Date` header of every response.
    public var date: String?
    /// Whether the server offers and honours `Range`.
    public var acceptsRanges: Bool
    /// The body ends after this many bytes of the file, as a dropped connection would.
    public var endsEarlyAt: Int64?
    /// Answer with this status and an empty body instead.
    public var status: Int?
    /// Sent as `Content-Encoding` on every 200 and 206 whatever the request asked, as a server
    /// with precompressed files and `gzip_static always` does. The body stays the file's bytes
    /// (as if the transport had decoded it): only the header tells.
    public var contentEncoding: String?

    public init(
      size: Int64, etag: String? = nil, acceptsRanges: Bool = true, endsEarlyAt: Int64? = nil, status: Int? = nil,
      lastModified: String? = nil, date: String? = nil, contentEncoding: String? = nil
    ) {
      self.size = size
      self.etag = etag
      self.lastModified = lastModified
      self.date = date
      self.acceptsRanges = acceptsRanges
      self.endsEarlyAt = endsEarlyAt
      self.status = status
      self.contentEncoding = contentEncoding
    }
  }

  /// Called before each chunk is handed out: the URL, the chunk's offset in the file, its index in
  /// this transfer. A test can inspect the disk here, or suspend to hold the transfer mid-way.
  public typealias ChunkHook = @Sendable (_ url: URL, _ offset: Int64, _ index: Int) async throws -> Void

  private struct State {
    var files: [URL: File] = [:]
    var requests: [TransferRequest] = []
    var bytesServed: Int64 = 0
  }

  public let chunkSize: Int
  private let hook: ChunkHook?
  private let state = Mutex(State())

  public init(chunkSize: Int = 64 * 1024, onChunk: ChunkHook? = nil) {
    self.chunkSize = max(1, chunkSize)
    self.hook = onChunk
  }

  /// The body of a 416, an error page as a real server sends: not bytes of the file.
  public static let rangeNotSatisfiablePage = Data("<html><body>416 Range Not Satisfiable</body></html>\n".utf8)

  /// Byte `index` of every scripted file (and of the practice server's files).
  public static func byte(at index: Int64) -> UInt8 {
    UInt8(truncatingIfNeeded: index &* 31 &+ 7)
  }

  /// The whole content of a scripted file of `size` bytes, to compare a download with.
  public static func content(size: Int64) -> Data {
    Data((0..<size).map(byte(at:)))
  }

  /// Adds or replaces the file served at `url`.
  public func serve(_ url: URL, _ file: File) {
    state.withLock { $0.files[url] = file }
  }

  /// Changes a served file's ETag, as a new version of the file on the server would.
  public func changeETag(of url: URL, to etag: String?) {
    state.withLock { $0.files[url]?.etag = etag }
  }

  /// Every request received, in order.
  public var requests: [TransferRequest] { state.withLock { $0.requests } }
  /// How many transfers of `url` were started.
  public func starts(of url: URL) -> Int { state.withLock { $0.requests.filter { $0.url == url }.count } }
  /// Body bytes handed out so far, over all transfers.
  public var bytesServed: Int64 { state.withLock { $0.bytesServed } }

  public func start(_ request: TransferRequest) async throws -> (TransferResponse, TransferBody) {
    let file = state.withLock { state -> File? in
      state.requests.append(request)
      return state.files[request.url]
    }
    guard let file else {
      return (TransferResponse(statusCode: 404), TransferBody { nil })
    }
    if let status = file.status {
      return (TransferResponse(statusCode: status), TransferBody { nil })
    }
    var start: Int64 = 0
    let validator = file.etag ?? file.lastModified
    var response = TransferResponse(
      statusCode: 200, totalLength: file.size, acceptsRanges: file.acceptsRanges, validator: validator, date: file.date,
      contentEncoding: file.contentEncoding)
    // If-Range uses the strong comparison (RFC 9110 §13.1.5): a weak ETag never matches.
    if let rangeStart = request.rangeStart, file.acceptsRanges,
      request.ifRange == nil || (request.ifRange == validator && request.ifRange?.hasPrefix("W/") == false)
    {
      // `bytes=N-` with N at or past the end is unsatisfiable: 416 and `Content-Range: bytes */size`
      // (RFC 9110 §14.4, §15.5.17), whose size `totalLength` carries; like nginx, no ETag, and
      // the body is an error page.
      guard rangeStart < file.size else {
        let page = Mutex<Data?>(Self.rangeNotSatisfiablePage)
        response = TransferResponse(statusCode: 416, totalLength: file.size, date: file.date)
        return (response, TransferBody { page.withLock { $0.take() } })
      }
      start = max(0, rangeStart)
      response.statusCode = 206
      response.rangeStart = start
      // Like nginx, a 206 does not repeat `Accept-Ranges`: the header is advice (RFC 9110 §14.3).
      response.acceptsRanges = false
    }
    let end = min(file.size, file.endsEarlyAt ?? file.size)
    let cursor = Cursor(offset: start)
    let url = request.url
    let body = TransferBody { [self] in
      let (offset, index) = cursor.position
      guard offset < end else { return nil }
      try await hook?(url, offset, index)
      let count = min(Int64(chunkSize), end - offset)
      cursor.advance(to: offset + count)
      state.withLock { $0.bytesServed += count }
      return Data((offset..<(offset + count)).map(Self.byte(at:)))
    }
    return (response, body)
  }
}

/// Where one scripted body is: the next offset to serve and the next chunk's index.
private nonisolated final class Cursor: Sendable {
  private let state: Mutex<(offset: Int64, index: Int)>

  init(offset: Int64) { state = Mutex((offset, 0)) }

  var position: (offset: Int64, index: Int) { state.withLock { $0 } }

  func advance(to offset: Int64) {
    state.withLock {
      $0.offset = offset
      $0.index += 1
    }
  }
}
