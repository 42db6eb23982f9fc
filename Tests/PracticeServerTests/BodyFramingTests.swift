import Foundation
import PracticeServer
import Testing
import WorkbookTesting

/// Where one request ends and the next begins: `Content-Length` bytes exactly, or the decoded
/// chunks, and connections that carry one request after another (RFC 9112 §6, §7, §9.3).
@Suite("Practice server — request bodies are framed exactly", .timeLimit(.minutes(1)))
struct BodyFramingTests {
  static let login = #"{"email":"ada@example.com","password":"correct-horse"}"#

  static func decodedJSON(_ response: RawResponse) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
  }

  @Test("a chunked login is decoded: 200 with tokens, not 'wrong email or password'")
  func chunkedLogin() async throws {
    try await withServer { server in
      let body = Array(Self.login.utf8)
      let first = String(decoding: body[..<16], as: UTF8.self)
      let rest = String(decoding: body[16...], as: UTF8.self)
      // Split inside the JSON, with a chunk extension, upper-case hex and a trailer field.
      let request =
        "POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
        + "10\r\n\(first)\r\n" + String(rest.utf8.count, radix: 16, uppercase: true) + ";note=split\r\n\(rest)\r\n" + "0\r\nX-Checksum: none\r\n\r\n"
      let result = try await exchange(server, request)
      #expect(
        result.response.status == 200 && Self.decodedJSON(result.response)["access_token"] is String,
        "a chunked body must be decoded before the route reads it (RFC 9112 §7.1): login → 200 with an access token, got \(result.response.status) \(result.response.text)"
      )
      #expect(server.requestLog.last?.headers["transfer-encoding"] == "chunked", "the route sees the request as sent, Transfer-Encoding included")
    }
  }

  @Test("pipelined requests: each body is exactly Content-Length bytes and every request is answered, in order")
  func pipelinedRequests() async throws {
    try await withServer { server in
      // Three requests in one write, the way a pipelining client sends them (RFC 9112 §9.3.2).
      let requests =
        "POST /v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(Self.login.utf8.count)\r\n\r\n\(Self.login)"
        + "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + get("/v1/feed?limit=1")
      let port = server.port
      let responses = try await onThread {
        let connection = try RawConnection(port: port)
        connection.send(requests)
        let answers = try (0..<3).map { _ in try connection.response() }
        return (answers, connection.waitForClose())
      }
      let statuses = responses.0.map(\.status)
      #expect(
        statuses == [200, 200, 200],
        "login, health and feed should each get 200 on one connection; got \(statuses): a body read past Content-Length swallows the next request")
      #expect(Self.decodedJSON(responses.0[0])["access_token"] is String, "the login body is exactly its 54 bytes, so it parses as JSON")
      #expect(responses.0[1].text == #"{"status":"ok"}"#, "the second answer is /health's")
      #expect(
        responses.0[0].header("Connection") == nil && responses.0[2].header("Connection") == "close" && responses.1,
        "the connection stays open between requests (HTTP/1.1's default) and closes after the one that asked")
      #expect(server.requestLog.map(\.path) == ["/v1/auth/login", "/health", "/v1/feed"], "the server saw three requests, in order")
    }
  }

  @Test("a request smuggled behind conflicting lengths is never served")
  func smugglingShapesAreRefused() async throws {
    try await withServer { server in
      let smuggled = "POST /admin/chaos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 14\r\n\r\n{\"fail_next\":9}"
      // A front end that used the other length would see the smuggled request as a second one.
      for framing in [
        ["Content-Length: 2", "Content-Length: \(2 + smuggled.utf8.count)"], ["Transfer-Encoding: chunked", "Content-Length: 2"],
      ] {
        let request = BadRequest.post(framing, body: "{}" + smuggled)
        let result = try await exchange(server, request)
        #expect(
          result.response.status == 400 && result.closed,
          "\(framing.joined(separator: " + ")) is ambiguous: 400 and close (RFC 9112 §6.3), got \(result.response.status)")
      }
      #expect(server.requestCount("/admin/chaos") == 0, "the bytes behind a refused request must never be served as a request of their own")
      await expectStillServing(server, after: "two smuggling attempts")
    }
  }

  @Test("a body cut short by the client gets 400, not a request with half a body")
  func truncatedBody() async throws {
    try await withServer { server in
      let port = server.port
      let response = try await onThread {
        let connection = try RawConnection(port: port)
        connection.send(BadRequest.post(["Content-Length: 54"], body: "{\"email\":"))
        connection.finishSending()
        return try connection.response()
      }
      #expect(
        response.status == 400, "the connection ended 45 bytes short of Content-Length: the request is incomplete (RFC 9112 §8), got \(response.status)")
      #expect(server.requestCount("/v1/auth/login") == 0, "an incomplete request must not reach the route")
      await expectStillServing(server, after: "a truncated body")
    }
  }

  @Test("Expect: 100-continue gets a 100 before the body is sent, then the answer")
  func expectContinue() async throws {
    try await withServer { server in
      let port = server.port
      let (interim, final) = try await onThread {
        let connection = try RawConnection(port: port)
        connection.send(BadRequest.post(["Content-Length: \(Self.login.utf8.count)", "Expect: 100-continue", "Connection: close"]))
        // The client waits for the 100 before it sends the body: the event this test waits for.
        let interim = try connection.response()
        connection.send(Self.login)
        return (interim, try connection.response())
      }
      #expect(interim.status == 100, "a client that expects 100-continue should hear 100 before it sends the body (RFC 9110 §10.1.1), got \(interim.status)")
      #expect(final.status == 200, "then the login is answered: 200, got \(final.status) \(final.text)")
    }
  }

  @Test("a kept-alive connection carries requests one after another; HEAD and 304 answers carry no stray bytes")
  func keepAliveFraming() async throws {
    try await withServer { server in
      let port = server.port
      let responses = try await onThread {
        let connection = try RawConnection(port: port)
        var responses: [RawResponse] = []
        connection.send("HEAD /files/a.bin?size=100 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        responses.append(try connection.response(method: "HEAD"))
        connection.send("GET /images/p1.png HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: \"p1-64x64\"\r\n\r\n")
        responses.append(try connection.response())
        connection.send("DELETE /v1/posts/p1 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer nope\r\n\r\n")
        responses.append(try connection.response())
        connection.send(get("/health"))
        responses.append(try connection.response())
        return responses
      }
      #expect(
        responses.map(\.status) == [200, 304, 401, 200],
        "HEAD, a conditional GET, a refused DELETE and /health on one connection: 200, 304, 401, 200; got \(responses.map(\.status))")
      #expect(responses[0].header("Content-Length") == "100" && responses[0].body.isEmpty, "a HEAD answer states the length and sends no body")
      #expect(responses[1].header("Content-Length") == nil, "a 304 has no body, so it states no length to wait for (RFC 9110 §15.4.5)")
      #expect(responses[3].text == #"{"status":"ok"}"#, "after all that the fourth answer is still /health's own: no byte was left over")
    }
  }
}
