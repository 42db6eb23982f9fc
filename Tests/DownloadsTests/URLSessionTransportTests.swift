import Foundation
import Testing
import WorkbookTesting

@testable import Downloads

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The URLSession transport against a stub that follows the practice server's `/files` contract.
/// (Not graded: the transport is given, not an exercise.)
@Suite("URLSession transport", .timeLimit(.minutes(1)))
struct URLSessionTransportTests {
  /// Answers like `/files/{name}?size=N`: 200 with Accept-Ranges and an ETag, or 206 for a
  /// `Range: bytes=A-` whose If-Range (if any) matches the ETag. Records every request.
  static func contract(size: Int64, etag: String?, ranges: Bool = true, log: Recorder<URLRequest>)
    -> StubURLProtocol.Handler
  {
    { request in
      log.append(request)
      var headers = ["Content-Type": "application/octet-stream"]
      if ranges { headers["Accept-Ranges"] = "bytes" }
      if let etag { headers["ETag"] = etag }
      let range = request.value(forHTTPHeaderField: "Range")
      let ifRange = request.value(forHTTPHeaderField: "If-Range")
      if ranges, let range, range.hasPrefix("bytes="), let start = Int64(range.dropFirst(6).dropLast()),
        start < size, ifRange == nil || ifRange == etag
      {
        headers["Content-Range"] = "bytes \(start)-\(size - 1)/\(size)"
        headers["Content-Length"] = String(size - start)
        let body = Data((start..<size).map(ScriptedTransport.byte(at:)))
        return (StubURLProtocol.response(for: request, status: 206, headers: headers), body)
      }
      headers["Content-Length"] = String(size)
      return (StubURLProtocol.response(for: request, status: 200, headers: headers), ScriptedTransport.content(size: size))
    }
  }

  /// A configuration whose sessions are answered by `handler`. The stub sets itself up on the
  /// configuration it is given, so the transport's own session (with its delegate) uses it too.
  static func stubbed(_ handler: @escaping StubURLProtocol.Handler) -> URLSessionConfiguration {
    let configuration = URLSessionConfiguration.ephemeral
    _ = StubURLProtocol.session(configuration: configuration, handler)
    return configuration
  }

  static func readAll(_ body: TransferBody) async throws -> Data {
    var data = Data()
    for try await chunk in body { data.append(chunk) }
    return data
  }

  @Test("a fresh request sends no Range and reads size, ranges and validator from a 200")
  func freshRequest() async throws {
    let log = Recorder<URLRequest>()
    let session = Self.stubbed(Self.contract(size: 5_000, etag: "\"f-5000\"", log: log))
    let transport = URLSessionTransport(configuration: session)
    let (response, body) = try await transport.start(TransferRequest(url: fileURL("f", size: 5_000)))
    let data = try await Self.readAll(body)
    let sent = try #require(log.values.first, "one request should reach the server")
    #expect(sent.value(forHTTPHeaderField: "Range") == nil, "a fresh download asks for the whole file")
    #expect(sent.value(forHTTPHeaderField: "If-Range") == nil, "and sends no If-Range")
    #expect(response.statusCode == 200)
    #expect(response.totalLength == 5_000, "Content-Length of a 200 is the file size")
    #expect(response.acceptsRanges, "Accept-Ranges: bytes was sent")
    #expect(response.validator == "\"f-5000\"", "the ETag is the validator")
    #expect(data == ScriptedTransport.content(size: 5_000), "the body arrives whole and in order")
  }

  @Test("a resume sends Range and If-Range, and a 206 is read with its Content-Range")
  func resumeRequest() async throws {
    let log = Recorder<URLRequest>()
    let session = Self.stubbed(Self.contract(size: 5_000, etag: "\"e\"", log: log))
    let transport = URLSessionTransport(configuration: session)
    let request = TransferRequest(url: fileURL("f", size: 5_000), rangeStart: 1_200, ifRange: "\"e\"")
    let (response, body) = try await transport.start(request)
    let data = try await Self.readAll(body)
    let sent = try #require(log.values.first, "one request should reach the server")
    #expect(sent.value(forHTTPHeaderField: "Range") == "bytes=1200-", "Range asks for the rest of the file")
    #expect(sent.value(forHTTPHeaderField: "If-Range") == "\"e\"", "If-Range carries the validator")
    #expect(response.statusCode == 206)
    #expect(response.rangeStart == 1_200, "Content-Range says where the body starts")
    #expect(response.totalLength == 5_000, "Content-Range says the whole size")
    #expect(data == Data((1_200..<5_000).map(ScriptedTransport.byte(at:))), "the body is the rest of the file")
  }

  @Test("a changed file: If-Range does not match, the server sends 200 and the downloader restarts")
  func changedFileRestartsThroughURLSession() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let log = Recorder<URLRequest>()
      let url = fileURL("g", size: 3_000)
      let session = Self.stubbed(Self.contract(size: 3_000, etag: "\"new\"", log: log))
      let partial = try PartialFile.create(for: directory.file("g.bin"))
      try Data(repeating: 0xEE, count: 1_000).write(to: partial.url)
      let data = ResumeData(url: url, partial: partial, bytesOnDisk: 1_000, validator: "\"old\"", acceptsRanges: true)
      let result = try await Downloader(transport: URLSessionTransport(configuration: session)).resume(data).result()
      #expect(log.values.first?.value(forHTTPHeaderField: "If-Range") == "\"old\"")
      #expect(try Data(contentsOf: result) == ScriptedTransport.content(size: 3_000), "a 200 replaces the partial bytes")
    }
  }

  @Test("an unchanged file resumes through URLSession to the exact content")
  func resumeThroughURLSession() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let log = Recorder<URLRequest>()
      let url = fileURL("h", size: 3_000)
      let session = Self.stubbed(Self.contract(size: 3_000, etag: "\"h\"", log: log))
      let partial = try PartialFile.create(for: directory.file("h.bin"))
      try ScriptedTransport.content(size: 1_000).write(to: partial.url)
      let data = ResumeData(url: url, partial: partial, bytesOnDisk: 1_000, validator: "\"h\"", acceptsRanges: true)
      let result = try await Downloader(transport: URLSessionTransport(configuration: session)).resume(data).result()
      #expect(log.values.first?.value(forHTTPHeaderField: "Range") == "bytes=1000-")
      #expect(try Data(contentsOf: result) == ScriptedTransport.content(size: 3_000), "old bytes plus the 206 body")
      #expect(directory.contents() == ["h.bin"], "no temporary file is left")
    }
  }

  @Test("a transport error reaches the caller")
  func transportError() async throws {
    let session = Self.stubbed { _ in throw URLError(.notConnectedToInternet) }
    let transport = URLSessionTransport(configuration: session)
    await #expect(throws: URLError.self, "an offline error must surface, not hang or crash") {
      _ = try await transport.start(TransferRequest(url: fileURL("f", size: 1)))
    }
  }

  @Test("every request asks for identity coding; Content-Encoding and a 416's bytes */N are read")
  func identityCodingAndUnsatisfiedRanges() throws {
    let url = fileURL("f", size: 5_000)
    for transfer in [TransferRequest(url: url), TransferRequest(url: url, rangeStart: 100, ifRange: "\"e\"")] {
      #expect(
        URLSessionTransport.urlRequest(for: transfer).value(forHTTPHeaderField: "Accept-Encoding") == "identity",
        "ranges count the file's own bytes, so every request asks for them (Accept-Encoding: identity)")
    }
    let coded = try #require(
      HTTPURLResponse(
        url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Encoding": "gzip", "Content-Length": "120438"]))
    #expect(URLSessionTransport.transferResponse(coded).contentEncoding == "gzip", "the coding is read so the downloader can refuse it")
    let unsatisfied = try #require(
      HTTPURLResponse(url: url, statusCode: 416, httpVersion: "HTTP/1.1", headerFields: ["Content-Range": "bytes */5000"]))
    let response = URLSessionTransport.transferResponse(unsatisfied)
    #expect(response.totalLength == 5_000 && response.rangeStart == nil, "a 416's Content-Range: bytes */N gives the file's size")
    #expect(URLSessionTransport.parseUnsatisfiedRange("bytes */0") == 0)
    #expect(URLSessionTransport.parseUnsatisfiedRange("bytes */x") == nil, "a size that is not a number is no size")
    #expect(URLSessionTransport.parseUnsatisfiedRange("bytes 0-1/2") == nil, "only the unsatisfied form is read here")
  }

  @Test func parsesContentRange() {
    #expect(URLSessionTransport.parseContentRange("bytes 100-199/200")?.start == 100)
    #expect(URLSessionTransport.parseContentRange("bytes 100-199/200")?.total == 200)
    #expect(URLSessionTransport.parseContentRange("bytes 5-9/*")?.total == nil, "an unknown total is nil")
    #expect(URLSessionTransport.parseContentRange("items 1-2/3") == nil, "only byte ranges are understood")
  }
}
