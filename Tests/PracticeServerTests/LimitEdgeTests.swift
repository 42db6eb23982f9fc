import Foundation
import PracticeServer
import Testing
import WorkbookTesting

/// Every limit of `PracticeServer.Limits` tried at the limit (served) and one past it (refused):
/// a limit tested only far from its edge lets a `<` written as `<=` through.
@Suite("Practice server — every limit at the limit and one past it", .timeLimit(.minutes(1)))
struct LimitEdgeTests {
  /// A `GET` whose request line (without its CRLF) is exactly `length` bytes long.
  static func requestLine(length: Int) -> String {
    let fixed = "GET / HTTP/1.1".utf8.count
    return "GET /" + String(repeating: "a", count: length - fixed) + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
  }

  /// A `GET /health` whose whole head, final blank line included, is exactly `length` bytes,
  /// padded out in header fields of at most `lineLength` bytes each.
  static func head(length: Int, lineLength: Int = 8_000) -> String {
    var head = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    var index = 0
    while head.utf8.count + 2 < length {
      index += 1
      let prefix = "X-Pad-\(index): "
      let room = length - 2 - head.utf8.count - prefix.utf8.count - 2
      // Never leave a remainder too short for a field of its own.
      let pad = room <= lineLength ? room : min(lineLength, room - (prefix.utf8.count + 3))
      head += prefix + String(repeating: "p", count: max(1, pad)) + "\r\n"
    }
    return head + "\r\n"
  }

  @Test("a request line of exactly 8,192 bytes is read; 8,193 bytes get 414")
  func requestLineEdge() async throws {
    try await withServer { server in
      #expect(Self.requestLine(length: 8_192).utf8.count > 8_192, "the request builder makes a line of the asked length")
      let atLimit = try await exchange(server, Self.requestLine(length: 8_192))
      #expect(
        atLimit.response.status == 404,
        "a request line of exactly maximumRequestLineBytes (8,192) is within the limit: the route answers (404, no such path); got \(atLimit.response.status)"
      )
      let past = try await exchange(server, Self.requestLine(length: 8_193))
      #expect(past.response.status == 414, "one byte past the request-line limit gets 414 URI Too Long (RFC 9112 §3); got \(past.response.status)")
    }
  }

  @Test("a head of exactly maximumHeaderBytes is served; one byte more gets 431, even when that byte is the final LF")
  func headEdge() async throws {
    try await withServer(PracticeServer.Limits.with { $0.maximumHeaderBytes = 300 }) { server in
      let exact = Self.head(length: 300)
      let over = Self.head(length: 301)
      #expect(exact.utf8.count == 300 && over.utf8.count == 301, "the heads are 300 and 301 bytes, got \(exact.utf8.count) and \(over.utf8.count)")
      let atLimit = try await exchange(server, exact)
      #expect(atLimit.response.status == 200, "a 300-byte head under a 300-byte limit is served: 200, got \(atLimit.response.status)")
      let past = try await exchange(server, over)
      #expect(
        past.response.status == 431,
        "a 301-byte head under a 300-byte limit gets 431, though its 301st byte is the LF that ends it (RFC 6585 §5); got \(past.response.status)"
      )
    }
  }

  @Test("the header limit is over the whole head: many short lines add up to 431")
  func headerBytesAreSummed() async throws {
    try await withServer(PracticeServer.Limits.with { $0.maximumHeaderBytes = 1_000 }) { server in
      let exact = Self.head(length: 1_000, lineLength: 30)
      let over = Self.head(length: 1_001, lineLength: 30)
      #expect(exact.utf8.count == 1_000 && over.utf8.count == 1_001, "the heads are 1,000 and 1,001 bytes")
      let atLimit = try await exchange(server, exact)
      #expect(atLimit.response.status == 200, "1,000 bytes in lines of under 50 bytes, limit 1,000: served, got \(atLimit.response.status)")
      let past = try await exchange(server, over)
      #expect(
        past.response.status == 431,
        "1,001 bytes in lines of under 50 bytes get 431: the limit counts the whole head, not each line; got \(past.response.status)")
    }
  }

  @Test("100 header fields are read; 101 get 431")
  func headerCountEdge() async throws {
    try await withServer { server in
      // Host and Connection are two of the fields.
      func request(fields: Int) -> String {
        "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + (1...(fields - 2)).map { "X-F\($0): 1\r\n" }.joined() + "\r\n"
      }
      let atLimit = try await exchange(server, request(fields: 100))
      #expect(atLimit.response.status == 200, "100 fields, limit 100: served, got \(atLimit.response.status)")
      let past = try await exchange(server, request(fields: 101))
      #expect(past.response.status == 431, "101 fields, limit 100: 431 (RFC 6585 §5), got \(past.response.status)")
    }
  }

  @Test("a body of exactly maximumBodyBytes is read, by length and chunked; one byte more gets 413")
  func bodyEdge() async throws {
    try await withServer(PracticeServer.Limits.with { $0.maximumBodyBytes = 64 }) { server in
      let body = String(repeating: " ", count: 63) + "x"
      let byLength = try await exchange(server, BadRequest.post(["Content-Length: 64", "Connection: close"], body: body))
      #expect(byLength.response.status == 401, "a 64-byte body under a 64-byte limit reaches the route (401, not a login), got \(byLength.response.status)")
      let pastLength = try await exchange(server, BadRequest.post(["Content-Length: 65"], body: body + " "))
      #expect(pastLength.response.status == 413, "Content-Length 65 over a 64-byte limit gets 413, got \(pastLength.response.status)")
      let chunked = try await exchange(
        server, BadRequest.post(["Transfer-Encoding: chunked", "Connection: close"], body: "20\r\n\(body.prefix(32))\r\n20\r\n\(body.suffix(32))\r\n0\r\n\r\n"))
      #expect(chunked.response.status == 401, "two 32-byte chunks under a 64-byte limit reach the route (401), got \(chunked.response.status)")
      let pastChunked = try await exchange(
        server, BadRequest.post(["Transfer-Encoding: chunked"], body: "20\r\n\(body.prefix(32))\r\n21\r\n\(body.suffix(32)) \r\n0\r\n\r\n"))
      #expect(pastChunked.response.status == 413, "chunks adding up to 65 bytes over a 64-byte limit get 413, got \(pastChunked.response.status)")
    }
  }

  /// Chunk sizes at the edge of what an `Int` holds: every size it can hold is read, and refused
  /// as too large a body; one digit's worth more is refused as no size, never a trap.
  static let chunkSizes: [(size: String, status: Int, why: String)] = [
    ("7fffffffffffffff", 413, "Int.max fits, and is far over the body limit"),
    ("00000000000000007fffffffffffffff", 413, "leading zeros add no value"),
    ("8000000000000000", 400, "Int.max + 1 does not fit in a signed 64-bit integer"),
    ("ffffffffffffffff", 400, "16 hex digits of f do not fit in a signed 64-bit integer"),
    ("5zz", 400, "digits followed by junk are not a chunk size"),
    ("5 5", 400, "a size followed by another number is not a chunk size"),
  ]

  @Test("chunk sizes up to Int.max are read and refused as too large; more digits, or digits then junk, get 400")
  func chunkSizeEdge() async throws {
    try await withServer { server in
      for chunk in Self.chunkSizes {
        let result = try await exchange(server, BadRequest.post(["Transfer-Encoding: chunked"], body: chunk.size + "\r\n"))
        #expect(
          result.response.status == chunk.status,
          "chunk size \(chunk.size) should get \(chunk.status) because \(chunk.why); got \(result.response.status) \(result.response.text)")
      }
      await expectStillServing(server, after: "chunk sizes at the edge of Int")
    }
  }
}
