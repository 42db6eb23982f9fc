import Foundation
import PracticeServer
import Testing
import WorkbookTesting

/// What a route answers to a method it does not serve, and how an HTTP/1.0 client keeps its
/// connection.
@Suite("Practice server — methods a route does not serve, and HTTP/1.0 keep-alive", .timeLimit(.minutes(1)))
struct MethodAndVersionTests {
  /// A path, a method it does not serve, and the `Allow` header the 405 must carry.
  static let notServed: [(method: String, path: String, allow: String)] = [
    ("DELETE", "/health", "GET, HEAD"),
    ("TRACE", "/health", "GET, HEAD"),
    ("FOO", "/health", "GET, HEAD"),
    ("POST", "/health", "GET, HEAD"),
    ("GET", "/admin/chaos", "POST"),
    ("POST", "/files/report.bin", "GET, HEAD"),
    ("PUT", "/images/cat.png", "GET, HEAD"),
    ("DELETE", "/v1/feed", "GET, HEAD"),
    ("POST", "/v1/search", "GET, HEAD"),
    ("GET", "/v1/auth/login", "POST"),
    ("PATCH", "/v1/posts/p1", "GET, HEAD, PUT, DELETE"),
    ("DELETE", "/v1/posts", "GET, HEAD, POST"),
    ("POST", "/v1/posts/p1/like", "PUT, DELETE"),
  ]

  @Test("a method the route does not serve gets 405 with Allow listing the ones it does (RFC 9110 §15.5.6)")
  func methodNotAllowed() async throws {
    try await withServer { server in
      for case let (method, path, allow) in Self.notServed {
        let request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        let result = try await exchange(server, request, method: method)
        #expect(
          result.response.status == 405 && result.response.header("Allow") == allow,
          "\(method) \(path) should get 405 with Allow: \(allow) (RFC 9110 §15.5.6: a 405 must list the methods served); got \(result.response.status), Allow: \(result.response.header("Allow") ?? "none")"
        )
      }
      let unknown = try await exchange(server, "DELETE /v1/nothing HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
      #expect(unknown.response.status == 404, "a path no route serves is 404 whatever the method, got \(unknown.response.status)")
    }
  }

  @Test("HTTP/1.0 with Connection: keep-alive keeps the connection and says so; without it, the connection closes")
  func http10KeepAlive() async throws {
    try await withServer { server in
      let port = server.port
      let (first, second, stillOpen) = try await onThread {
        let connection = try RawConnection(port: port)
        connection.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let first = try connection.response()
        connection.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let second = try connection.response()
        return (first, second, !connection.isClosed)
      }
      #expect(
        first.status == 200 && first.header("Connection")?.lowercased() == "keep-alive",
        "an HTTP/1.0 client that asks to keep the connection gets Connection: keep-alive, without which it would close (RFC 9112 appendix C.2.2); got \(first.status), Connection: \(first.header("Connection") ?? "none")"
      )
      #expect(second.status == 200 && stillOpen, "the second request on the same HTTP/1.0 connection is served, got \(second.status)")
      let plain = try await exchange(server, "GET /health HTTP/1.0\r\n\r\n")
      #expect(
        plain.response.status == 200 && plain.closed && plain.response.header("Connection") == "close",
        "HTTP/1.0 without keep-alive closes after its response (RFC 9112 §9.3), got \(plain.response.status), closed: \(plain.closed)")
    }
  }
}
