import Foundation
import PracticeServer
import Testing
import WorkbookTesting

/// A request the server must refuse, the status it must refuse it with, and the rule behind it.
struct BadRequest: Sendable, CustomTestStringConvertible {
  var name: String
  var bytes: [UInt8]
  var status: Int
  var why: String

  var testDescription: String { name }

  init(_ name: String, _ text: String, _ status: Int, _ why: String) {
    self.init(name, bytes: Array(text.utf8), status, why)
  }

  init(_ name: String, bytes: [UInt8], _ status: Int, _ why: String) {
    self.name = name
    self.bytes = bytes
    self.status = status
    self.why = why
  }

  /// A request for `/v1/auth/login` with these header lines and this body.
  static func post(_ headers: [String], body: String = "") -> String {
    (["POST /v1/auth/login HTTP/1.1", "Host: 127.0.0.1"] + headers + ["", body]).joined(separator: "\r\n")
  }

  static let valid = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n"

  /// 512 seeded random bytes: what a port scanner or a confused client may send.
  static let noise: [UInt8] = {
    var random = SeededRandom(seed: 17)
    return (0..<512).map { _ in UInt8.random(in: 0...255, using: &random) }
  }()

  static let requestLine: [BadRequest] = [
    .init("a garbage request line", "GARBAGE\r\n\r\n", 400, "a request line is method, target and version (RFC 9112 §3)"),
    .init(
      "a TLS handshake sent to the plain-HTTP port",
      bytes: [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03] + Array(repeating: 0, count: 32),
      400, "binary bytes are not an HTTP/1.1 request line"),
    .init("512 random bytes", bytes: noise, 400, "binary junk is not an HTTP/1.1 request"),
    .init("bare LF line endings", "GET /health HTTP/1.1\nHost: 127.0.0.1\n\n", 400, "lines end with CRLF (RFC 9112 §2.2)"),
    .init("a bare CR", "GET /health HTTP/1.1\rHost: 127.0.0.1\r\n\r\n", 400, "a CR must be followed by LF (RFC 9112 §2.2)"),
    .init("two spaces in the request line", "GET  /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400, "one space separates the parts (RFC 9112 §3)"),
    .init("no protocol version", "GET /health\r\n\r\n", 400, "HTTP/0.9 requests are not served (RFC 9112 §3)"),
    .init("a malformed version", "GET /health HTTP/1.1x\r\nHost: 127.0.0.1\r\n\r\n", 400, "the version is HTTP/DIGIT.DIGIT (RFC 9112 §2.3)"),
    .init("HTTP/2.0 as a text request line", "GET /health HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n", 505, "this server speaks HTTP/1.1 only (RFC 9110 §15.6.6)"),
    .init("a method that is not a token", "GE{T /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400, "a method is a token (RFC 9110 §9.1)"),
    .init("a target that is not a path", "GET health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400, "an origin-form target starts with / (RFC 9112 §3.2)"),
    .init("a quote in the target", "GET /files/a\"b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400, "a URI cannot hold a raw quote (RFC 3986 §2)"),
    .init("a broken percent-encoding", "GET /health%zz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400, "% is followed by two hex digits (RFC 3986 §2.1)"),
    .init(
      "a request line over 8 KB", "GET /" + String(repeating: "a", count: 9_000) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 414,
      "the request line is longer than the server reads (RFC 9112 §3)"),
  ]

  static let fields: [BadRequest] = [
    .init("a missing Host header", "GET /health HTTP/1.1\r\n\r\n", 400, "an HTTP/1.1 request must name its Host (RFC 9112 §3.2)"),
    .init("two Host headers", valid + "Host: example.com\r\n\r\n", 400, "a request has exactly one Host (RFC 9112 §3.2)"),
    .init("whitespace before a header's colon", "GET /health HTTP/1.1\r\nHost : 127.0.0.1\r\n\r\n", 400, "no whitespace may precede the colon (RFC 9112 §5.1)"),
    .init("a folded header line", valid + "X-Note: one\r\n  two\r\n\r\n", 400, "obs-fold is rejected (RFC 9112 §5.2)"),
    .init("a header line without a colon", valid + "NoColonHere\r\n\r\n", 400, "a field line is name: value (RFC 9112 §5)"),
    .init("a NUL byte in a header value", valid + "X-Note: a\u{0}b\r\n\r\n", 400, "field values hold no control characters (RFC 9110 §5.5)"),
    .init(
      "a header value that is not UTF-8", bytes: Array((valid + "X-Name: ").utf8) + [0xFF, 0xFE] + Array("\r\n\r\n".utf8), 400,
      "this server reads values as UTF-8"),
    .init(
      "a header name that is not ASCII", bytes: Array((valid + "X-").utf8) + [0xC3, 0xA9] + Array(": 1\r\n\r\n".utf8), 400,
      "a header name is a token (RFC 9110 §5.1)"),
    .init(
      "a 2 MB header block", valid + "X-Big: " + String(repeating: "a", count: 2_000_000) + "\r\n\r\n", 431,
      "the header section is larger than the server reads (RFC 6585 §5)"),
    .init(
      "101 header fields", valid + (1...101).map { "X-Field-\($0): \($0)\r\n" }.joined() + "\r\n", 431,
      "there are more header fields than the server reads (RFC 6585 §5)"),
    .init("an unknown expectation", valid + "Expect: 200-ok\r\n\r\n", 417, "only 100-continue can be met (RFC 9110 §10.1.1)"),
  ]

  static let framing: [BadRequest] = [
    .init("Content-Length: -5", post(["Content-Length: -5"]), 400, "a length is digits only (RFC 9110 §8.6)"),
    .init("Content-Length: 12abc", post(["Content-Length: 12abc"]), 400, "a length is digits only (RFC 9110 §8.6)"),
    .init("Content-Length: 2^70", post(["Content-Length: 1180591620717411303424"]), 400, "a length that does not fit is not a length"),
    .init("Content-Length: +5", post(["Content-Length: +5"], body: "12345"), 400, "a length has no sign (RFC 9110 §8.6)"),
    .init("an empty Content-Length", post(["Content-Length: "]), 400, "a length is at least one digit (RFC 9110 §8.6)"),
    .init(
      "two different Content-Length headers", post(["Content-Length: 2", "Content-Length: 54"], body: "{}"), 400,
      "lengths that disagree are a smuggling shape (RFC 9112 §6.3)"),
    .init("a Content-Length list that disagrees", post(["Content-Length: 2, 54"], body: "{}"), 400, "lengths that disagree (RFC 9112 §6.3)"),
    .init(
      "Transfer-Encoding with Content-Length", post(["Content-Length: 5", "Transfer-Encoding: chunked"], body: "0\r\n\r\n"), 400,
      "both framings at once are a smuggling shape (RFC 9112 §6.1)"),
    .init(
      "Transfer-Encoding: gzip alone", post(["Transfer-Encoding: gzip"], body: "xx"), 400,
      "without chunked last the body's length is unknown (RFC 9112 §6.3)"),
    .init(
      "Transfer-Encoding: gzip, chunked", post(["Transfer-Encoding: gzip, chunked"], body: "0\r\n\r\n"), 501,
      "the server decodes only chunked (RFC 9112 §6.1)"),
    .init("chunked twice", post(["Transfer-Encoding: chunked, chunked"], body: "0\r\n\r\n"), 400, "chunked is applied once (RFC 9112 §7)"),
    .init(
      "Transfer-Encoding in HTTP/1.0", "POST /v1/auth/login HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400,
      "an HTTP/1.0 request's Transfer-Encoding cannot be trusted (RFC 9112 §6.1)"),
    .init("a 100 MB Content-Length", post(["Content-Length: 100000000"]), 413, "the body is larger than the server's 8 MB limit"),
    .init("a chunk size that is not hex", post(["Transfer-Encoding: chunked"], body: "zz\r\n"), 400, "a chunk starts with its size in hex (RFC 9112 §7.1)"),
    .init(
      "a chunk size of 2^80", post(["Transfer-Encoding: chunked"], body: "100000000000000000000\r\n"), 400,
      "a size that does not fit is not a size"),
    .init(
      "a chunk longer than its size", post(["Transfer-Encoding: chunked"], body: "2\r\n{}}\r\n0\r\n\r\n"), 400,
      "chunk data is followed by CRLF (RFC 9112 §7.1)"),
    .init(
      "a chunked body over the limit", post(["Transfer-Encoding: chunked"], body: "3000000\r\n"), 413,
      "48 MB of chunks is more than the server's 8 MB limit"),
    .init("a bare LF in a chunk-size line", post(["Transfer-Encoding: chunked"], body: "2\n{}\r\n0\r\n\r\n"), 400, "lines end with CRLF (RFC 9112 §2.2)"),
  ]
}

@Suite("Practice server — malformed requests get a status, never silence or a crash", .timeLimit(.minutes(1)))
struct MalformedRequestTests {
  @Test("a malformed request line is refused with a status", arguments: BadRequest.requestLine)
  func requestLine(_ bad: BadRequest) async throws { try await expectRefused(bad) }

  @Test("a malformed or oversized header section is refused with a status", arguments: BadRequest.fields)
  func fields(_ bad: BadRequest) async throws { try await expectRefused(bad) }

  @Test("an ambiguous, unsupported or oversized body framing is refused with a status", arguments: BadRequest.framing)
  func framing(_ bad: BadRequest) async throws { try await expectRefused(bad) }

  /// Sends `bad` over a real socket and checks the answer, the close and that the server lives on.
  func expectRefused(_ bad: BadRequest, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    try await withServer { server in
      let result = try await exchange(server, bad.bytes)
      #expect(
        result.response.status == bad.status,
        "\(bad.name) should get \(bad.status) because \(bad.why); got \(result.response.status) \(result.response.text)",
        sourceLocation: sourceLocation)
      #expect(
        result.response.text.hasPrefix(#"{"error":"#),
        "the refusal should say why in an {\"error\": …} body, got \(result.response.text)", sourceLocation: sourceLocation)
      #expect(
        result.response.header("Connection") == "close" && result.closed,
        "after refusing \(bad.name) the server should send Connection: close and close: where a next request would start is unknown (RFC 9112 §9.6)",
        sourceLocation: sourceLocation)
      #expect(
        server.statistics.rejectedRequests == 1 && server.requestLog.isEmpty,
        "the refusal happens before any route: 1 rejected request and an empty request log, got \(server.statistics.rejectedRequests) and \(server.requestLog.count)",
        sourceLocation: sourceLocation)
      await expectStillServing(server, after: bad.name, sourceLocation: sourceLocation)
    }
  }

  @Test("an HTTP/1.0 request needs no Host, and a repeated identical Content-Length is one length")
  func lenientWhereTheRulesAllow() async throws {
    try await withServer { server in
      let old = try await exchange(server, "GET /health HTTP/1.0\r\n\r\n")
      #expect(old.response.status == 200, "Host is required from HTTP/1.1 on (RFC 9112 §3.2): HTTP/1.0 without it → 200, got \(old.response.status)")
      #expect(old.closed, "an HTTP/1.0 connection closes after its response unless asked otherwise (RFC 9112 §9.3)")
      let login = #"{"email":"ada@example.com","password":"correct-horse"}"#
      let twice = try await exchange(
        server, BadRequest.post(["Content-Length: \(login.utf8.count)", "Content-Length: \(login.utf8.count)", "Connection: close"], body: login))
      #expect(
        twice.response.status == 200,
        "Content-Length repeated with the same value is one length (RFC 9112 §6.3 lets a server accept it): login → 200, got \(twice.response.status) \(twice.response.text)"
      )
    }
  }
}
