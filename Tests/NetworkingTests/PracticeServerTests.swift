import Foundation
import PracticeServer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The practice server's own contract (used by chapters 3, 5 and 6). Not an exercise.
@Suite("Practice server", .timeLimit(.minutes(1)))
struct PracticeServerTests {
  static func expectedBytes(_ range: ClosedRange<Int>) -> Data {
    Data(range.map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
  }

  func get(_ server: PracticeServer, _ path: String, headers: [String: String] = [:], method: String = "GET", body: Data? = nil) async throws
    -> (HTTPURLResponse, Data)
  {
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    var request = URLRequest(url: URL(string: server.baseURL.absoluteString + path)!)
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    return try await fetch(session, request)
  }

  @Test func healthAndStop() async throws {
    let server = try PracticeServer.started()
    let (response, data) = try await get(server, "/health")
    #expect(response.statusCode == 200 && String(decoding: data, as: UTF8.self) == #"{"status":"ok"}"#, "GET /health → 200 {\"status\":\"ok\"}")
    #expect(server.baseURL.host == "127.0.0.1", "the server binds 127.0.0.1 only")
    server.stop()
    server.stop()
  }

  @Test func filesServeRangesAndIfRange() async throws {
    try await withServer { server in
      let (full, body) = try await get(server, "/files/a.bin?size=1000")
      #expect(full.statusCode == 200 && body == Self.expectedBytes(0...999), "the whole file: byte i = i*31+7")
      #expect(full.value(forHTTPHeaderField: "Accept-Ranges") == "bytes", "ranges are advertised")
      #expect(full.value(forHTTPHeaderField: "ETag") == "\"a.bin-1000\"", "ETag is \"<name>-<size>\"")
      #expect(full.value(forHTTPHeaderField: "Content-Length") == "1000", "Content-Length is the size")

      let (partial, tail) = try await get(server, "/files/a.bin?size=1000", headers: ["Range": "bytes=990-"])
      #expect(partial.statusCode == 206, "a range → 206")
      #expect(partial.value(forHTTPHeaderField: "Content-Range") == "bytes 990-999/1000", "Content-Range names the bytes sent")
      #expect(tail == Self.expectedBytes(990...999), "the range's bytes")

      let (middle, slice) = try await get(server, "/files/a.bin?size=1000", headers: ["Range": "bytes=10-19", "If-Range": "\"a.bin-1000\""])
      #expect(middle.statusCode == 206 && slice == Self.expectedBytes(10...19), "a matching If-Range keeps the range")

      let (changed, whole) = try await get(server, "/files/a.bin?size=1000", headers: ["Range": "bytes=10-19", "If-Range": "\"old\""])
      #expect(changed.statusCode == 200 && whole.count == 1000, "an If-Range that differs from the ETag → 200 with the full body")

      let (plain, all) = try await get(server, "/files/a.bin?size=100&ranges=0", headers: ["Range": "bytes=10-19"])
      #expect(plain.statusCode == 200 && all.count == 100, "ranges=0 ignores Range")
      #expect(plain.value(forHTTPHeaderField: "Accept-Ranges") == nil, "ranges=0 does not advertise ranges")

      let (other, _) = try await get(server, "/files/a.bin?size=100&etag=v2")
      #expect(other.value(forHTTPHeaderField: "ETag") == "\"v2\"", "etag=X overrides the ETag")

      let (beyond, _) = try await get(server, "/files/a.bin?size=100", headers: ["Range": "bytes=500-"])
      #expect(beyond.statusCode == 416, "a range past the end → 416")
    }
  }

  @Test func imagesAreCacheablePNGs() async throws {
    try await withServer { server in
      let (response, data) = try await get(server, "/images/p1.png?w=16&h=8")
      #expect(response.statusCode == 200, "an image → 200")
      #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "a PNG signature")
      #expect(data[16..<24] == Data([0, 0, 0, 16, 0, 0, 0, 8]), "IHDR says 16×8")
      let etag = response.value(forHTTPHeaderField: "ETag") ?? ""
      #expect(!etag.isEmpty && response.value(forHTTPHeaderField: "Cache-Control")?.contains("max-age") == true, "ETag and Cache-Control")
      let (again, same) = try await get(server, "/images/p1.png?w=16&h=8")
      #expect(again.statusCode == 200 && same == data, "deterministic bytes")
      let (missing, _) = try await get(server, "/images/missing.png")
      #expect(missing.statusCode == 404, "missing.png → 404")
    }
  }

  @Test func likesAndIdempotentComments() async throws {
    try await withServer { server in
      let (liked, likedBody) = try await get(server, "/v1/posts/p5/like", method: "PUT")
      let post = try JSONSerialization.jsonObject(with: likedBody) as? [String: Any]
      #expect(liked.statusCode == 200 && post?["liked_by_me"] as? Bool == true, "PUT like → liked_by_me true")
      let count = post?["like_count"] as? Int ?? -1
      let (_, againBody) = try await get(server, "/v1/posts/p5/like", method: "PUT")
      let again = try JSONSerialization.jsonObject(with: againBody) as? [String: Any]
      #expect(again?["like_count"] as? Int == count, "PUT is idempotent (RFC 9110 §9.2.2): a retried like leaves one like")
      let (_, unlikedBody) = try await get(server, "/v1/posts/p5/like", method: "DELETE")
      let unliked = try JSONSerialization.jsonObject(with: unlikedBody) as? [String: Any]
      #expect(unliked?["like_count"] as? Int == count - 1 && unliked?["liked_by_me"] as? Bool == false, "DELETE like undoes it")
      let (_, twiceBody) = try await get(server, "/v1/posts/p5/like", method: "DELETE")
      let twice = try JSONSerialization.jsonObject(with: twiceBody) as? [String: Any]
      #expect(twice?["like_count"] as? Int == count - 1, "DELETE is idempotent: a retried unlike removes nothing more")
      let (posted, _) = try await get(server, "/v1/posts/p5/like", method: "POST")
      #expect(
        posted.statusCode == 405 && posted.value(forHTTPHeaderField: "Allow") == "PUT, DELETE",
        "a like is PUT, an unlike DELETE: POST gets 405 with Allow: PUT, DELETE; got \(posted.statusCode)")

      let body = Data(#"{"text":"Nice"}"#.utf8)
      let (first, firstBody) = try await get(server, "/v1/posts/p5/comments", headers: ["Idempotency-Key": "k1"], method: "POST", body: body)
      let (replay, replayBody) = try await get(server, "/v1/posts/p5/comments", headers: ["Idempotency-Key": "k1"], method: "POST", body: body)
      #expect(first.statusCode == 201 && replay.statusCode == 200, "201 the first time, 200 on replay")
      #expect(firstBody == replayBody, "the replay returns the same comment")
      let (_, listBody) = try await get(server, "/v1/posts/p5/comments")
      let list = try JSONSerialization.jsonObject(with: listBody) as? [String: Any]
      #expect((list?["comments"] as? [Any])?.count == 1, "one key, one comment")
    }
  }

  @Test func chaosOverHTTP() async throws {
    try await withServer { server in
      let knobs = Data(#"{"fail_next":1,"status":503,"retry_after":3}"#.utf8)
      let (set, _) = try await get(server, "/admin/chaos", method: "POST", body: knobs)
      #expect(set.statusCode == 200, "POST /admin/chaos sets knobs")
      let (failed, _) = try await get(server, "/v1/feed")
      #expect(failed.statusCode == 503 && failed.value(forHTTPHeaderField: "Retry-After") == "3", "the next request fails with 503 + Retry-After")
      let (ok, _) = try await get(server, "/v1/feed")
      #expect(ok.statusCode == 200, "only N requests fail")
      server.chaos.rateLimitNext(1, retryAfter: 2)
      let (limited, _) = try await get(server, "/v1/feed")
      #expect(limited.statusCode == 429 && limited.value(forHTTPHeaderField: "Retry-After") == "2", "429 with Retry-After")
      let (noToken, _) = try await get(server, "/v1/users/me")
      #expect(noToken.statusCode == 401, "an authed route without a token → 401")
    }
  }
}
