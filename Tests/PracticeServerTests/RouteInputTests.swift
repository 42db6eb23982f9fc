import Foundation
import PracticeServer
import Testing
import WorkbookTesting

/// Hostile values in well-formed requests: numbers that overflow, knobs out of range,
/// conditional and range headers at their edges, and the largest file the server makes.
@Suite("Practice server — routes hold against hostile values", .timeLimit(.minutes(1)))
struct RouteInputTests {
  @Test("page=Int.max gets 400, not an overflow trap that kills the server")
  func pageOverflow() async throws {
    try await withServer { server in
      let token = server.issueTokens().accessToken
      for page in ["9223372036854775807", "99999999999999999999999"] {
        let result = try await exchange(server, get("/v1/posts?page=\(page)", headers: ["Authorization: Bearer \(token)"]))
        #expect(
          result.response.status == 400,
          "page=\(page) makes (page - 1) × limit overflow: the server should answer 400, got \(result.response.status) \(result.response.text)")
      }
      let far = try await exchange(server, get("/v1/posts?page=1000000&limit=100", headers: ["Authorization: Bearer \(token)"]))
      #expect(far.response.status == 200 && far.response.text.contains(#""items":[]"#), "a page past the last one is empty, not an error")
      let second = try await exchange(server, get("/v1/posts?page=2&limit=5", headers: ["Authorization: Bearer \(token)"]))
      #expect(second.response.text.contains(#""id":"p195""#), "page 2 of 5 starts at the sixth newest post, p195")
      await expectStillServing(server, after: "page=Int.max")
    }
  }

  @Test("a used, unknown or missing refresh token gets 400 invalid_grant (RFC 6749 §5.2), and the rotated one works once")
  func refreshTokenRotation() async throws {
    try await withServer { server in
      let issued = server.issueTokens()
      func refresh(_ json: String) async throws -> Exchange {
        try await exchange(
          server,
          "POST /v1/auth/refresh HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)"
        )
      }
      let first = try await refresh(#"{"refresh_token":"\#(issued.refreshToken)"}"#)
      #expect(first.response.status == 200, "a refresh token the server issued works once, got \(first.response.status) \(first.response.text)")
      for (body, what) in [
        (#"{"refresh_token":"\#(issued.refreshToken)"}"#, "the refresh token that was just rotated away"),
        (#"{"refresh_token":"rt-never-issued"}"#, "a refresh token the server never issued"),
        ("{}", "no refresh token at all"),
      ] {
        let result = try await refresh(body)
        let json = try? JSONSerialization.jsonObject(with: Data(result.response.text.utf8)) as? [String: Any]
        #expect(
          result.response.status == 400 && json?["error"] as? String == "invalid_grant",
          "\(what) is an invalid grant: 400 with {\"error\":\"invalid_grant\"}, got \(result.response.status) \(result.response.text)")
      }
    }
  }

  static let badKnobs: [(body: String, why: String)] = [
    (#"{"fail_next":1,"status":99999}"#, "99999 is not an HTTP status"),
    (#"{"fail_next":1,"status":-1}"#, "-1 is not an HTTP status"),
    (#"{"fail_next":1,"status":100}"#, "a 1xx is interim: a client would wait for the real answer"),
    (#"{"fail_next":1,"status":"503"}"#, "a status is a number, not a string"),
    (#"{"fail_next":true}"#, "a count is a number, not true"),
    (#"{"fail_next":-1}"#, "a count is 0 or more"),
    (#"{"fail_next":1,"retry_after":-5}"#, "Retry-After is 0 or more seconds"),
    (#"{"delay_ms":1000000000}"#, "a delay is at most a minute"),
    (#"{"path":"v1"}"#, "a path prefix starts with /"),
    (#"{"expire_tokens":1}"#, "a flag is true or false"),
    (#"{"fail_nxt":1}"#, "an unknown knob is a typo to point out, not to ignore"),
    (#"[1,2]"#, "the knobs are a JSON object"),
    ("fail_next=1", "the knobs are JSON"),
  ]

  @Test("a chaos knob out of range gets 400 and changes nothing")
  func chaosKnobsAreChecked() async throws {
    try await withServer { server in
      for (body, why) in Self.badKnobs {
        let request = "POST /admin/chaos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        let result = try await exchange(server, request)
        #expect(result.response.status == 400, "POST /admin/chaos \(body) should get 400 (\(why)), got \(result.response.status) \(result.response.text)")
      }
      let feed = try await exchange(server, get("/v1/feed?limit=1"))
      #expect(feed.response.status == 200, "no refused knob may have been set: the next request succeeds, got \(feed.response.status)")
      let teapot = #"{"fail_next":1,"status":418,"retry_after":0}"#
      let set = try await exchange(
        server, "POST /admin/chaos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(teapot.utf8.count)\r\nConnection: close\r\n\r\n\(teapot)")
      let failed = try await exchange(server, get("/v1/feed"))
      #expect(
        set.response.status == 200 && failed.response.status == 418 && failed.response.header("Retry-After") == "0",
        "a valid status outside the usual ones still works: 418 with Retry-After: 0, got \(failed.response.status)")
    }
  }

  static let conditions: [(ifNoneMatch: String, status: Int)] = [
    (#""p1-16x8""#, 304), (#"W/"p1-16x8""#, 304), (#""a", "p1-16x8""#, 304), (#"W/"x,y", W/"p1-16x8""#, 304), ("*", 304),
    (#""other""#, 200), (#"W/"other", "p1-16x8-old""#, 200), ("p1-16x8", 200), (#""p1-16x8"#, 200),
  ]

  @Test("If-None-Match uses the weak comparison and reads lists and * (RFC 9110 §13.1.2)")
  func ifNoneMatch() async throws {
    try await withServer { server in
      for (value, status) in Self.conditions {
        let result = try await exchange(server, get("/images/p1.png?w=16&h=8", headers: ["If-None-Match: \(value)"]))
        #expect(
          result.response.status == status,
          "If-None-Match: \(value) against ETag \"p1-16x8\" should get \(status) (weak comparison; a list matches if any tag does; a malformed value matches nothing), got \(result.response.status)"
        )
        if status == 304 {
          #expect(
            result.response.body.isEmpty && result.response.header("ETag") == "\"p1-16x8\"", "a 304 has no body and repeats the ETag (RFC 9110 §15.4.5)")
        }
      }
    }
  }

  static let ranges: [(range: String, status: Int, contentRange: String?)] = [
    ("bytes=-0", 416, "bytes */100"), ("bytes=-1", 206, "bytes 99-99/100"), ("bytes=-99999999999999999999", 206, "bytes 0-99/100"),
    ("bytes=90-99999999999999999999", 206, "bytes 90-99/100"), ("bytes=99999999999999999999-", 416, "bytes */100"),
    ("bytes=+5-9", 200, nil), ("BYTES=0-0", 206, "bytes 0-0/100"),
  ]

  @Test("Range edges: a zero-length suffix is unsatisfiable, numbers too large for an Int are past the end")
  func rangeEdges() async throws {
    try await withServer { server in
      for (range, status, contentRange) in Self.ranges {
        let result = try await exchange(server, get("/files/a.bin?size=100", headers: ["Range: \(range)"]))
        #expect(
          result.response.status == status && result.response.header("Content-Range") == contentRange,
          "Range: \(range) on 100 bytes should get \(status) with Content-Range \(contentRange ?? "none") (RFC 9110 §14.1.2), got \(result.response.status) with \(result.response.header("Content-Range") ?? "none")"
        )
      }
    }
  }

  @Test("the etag knob cannot inject a header")
  func etagKnobCannotInject() async throws {
    try await withServer { server in
      let result = try await exchange(server, get("/files/a.bin?size=10&etag=x%0D%0AX-Injected:%201"))
      #expect(
        result.response.status == 400 && result.response.header("X-Injected") == nil,
        "a CR LF in ?etag= would end the ETag line and start a header of the client's choosing: 400, got \(result.response.status)")
    }
  }

  @Test("a 64 MB file streams whole and exact, made in blocks rather than byte by byte")
  func largeFileStreams() async throws {
    try await withServer { server in
      let size = 64 << 20
      let port = server.port
      let (response, received, wrong) = try await onThread {
        let connection = try RawConnection(port: port)
        connection.send(get("/files/big.bin?size=\(size)"))
        let head = try connection.response(headOnly: true)
        let (received, wrong) = connection.discardBody(length: size) { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        return (head, received, wrong)
      }
      #expect(response.status == 200 && response.header("Content-Length") == String(size), "the whole 64 MB file: 200 with its length")
      #expect(received == size, "all \(size) bytes should arrive, got \(received)")
      #expect(wrong == 0, "byte i is i * 31 + 7, truncated: \(wrong) sampled bytes differ")
    }
  }

  @Test("a deeply nested JSON body is a bad login, not a stack overflow")
  func deeplyNestedJSON() async throws {
    try await withServer { server in
      let body = String(repeating: "[", count: 100_000)
      let result = try await exchange(server, BadRequest.post(["Content-Length: \(body.utf8.count)", "Connection: close"], body: body))
      #expect(result.response.status == 401, "100,000 nested arrays are not an email and password: 401, got \(result.response.status)")
      await expectStillServing(server, after: "100,000 nested arrays")
    }
  }
}
