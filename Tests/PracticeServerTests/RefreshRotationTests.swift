import Foundation
import PracticeServer
import Testing
import WorkbookTesting

/// The refresh endpoint rotates refresh tokens and treats a retired one presented again as theft
/// (RFC 9700 §4.14.2): 400 `invalid_grant` (RFC 6749 §5.2) for it, and the newest token of its
/// sign-in revoked with it, so neither the thief nor the app can refresh again.
@Suite("Practice server — refresh tokens rotate, and a reused one revokes its sign-in", .timeLimit(.minutes(1)))
struct RefreshRotationTests {
  /// The status and the JSON body of a refresh with `refreshToken`.
  static func refresh(_ server: PracticeServer, _ refreshToken: String) async throws -> (status: Int, json: [String: Any]) {
    let body = #"{"refresh_token":"\#(refreshToken)"}"#
    let result = try await exchange(
      server,
      "POST /v1/auth/refresh HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    )
    let json = (try? JSONSerialization.jsonObject(with: Data(result.response.text.utf8))) as? [String: Any] ?? [:]
    return (result.response.status, json)
  }

  @Test("each refresh answers a new refresh token and retires the one presented; the newest works, five times over")
  func eachRefreshRotates() async throws {
    try await withServer { server in
      var current = server.issueTokens().refreshToken
      var seen: Set<String> = [current]
      for round in 1...5 {
        let answer = try await Self.refresh(server, current)
        let next = answer.json["refresh_token"] as? String ?? ""
        #expect(answer.status == 200 && !next.isEmpty, "refresh \(round) with the newest token works: got \(answer.status) \(answer.json)")
        #expect(!seen.contains(next), "refresh \(round) answers a refresh token never issued before, got \(next) again")
        #expect(!server.acceptsRefreshToken(current), "refresh \(round) retires the token it was given")
        #expect(server.acceptsRefreshToken(next), "the token refresh \(round) answered is the one that works now")
        seen.insert(next)
        current = next
      }
      #expect(server.refreshTokenReuses == 0, "five refreshes, each with the newest token, reuse nothing")
    }
  }

  @Test("the same refresh token twice: 400 invalid_grant, and the token the first refresh gave is revoked too")
  func aReusedTokenRevokesItsFamily() async throws {
    try await withServer { server in
      let stolen = server.issueTokens().refreshToken
      let bystander = server.issueTokens().refreshToken  // another sign-in, which reuse must not touch
      let first = try await Self.refresh(server, stolen)
      let newest = first.json["refresh_token"] as? String ?? ""
      #expect(first.status == 200 && !newest.isEmpty, "the first use works: \(first.status) \(first.json)")

      let again = try await Self.refresh(server, stolen)
      #expect(
        again.status == 400 && again.json["error"] as? String == "invalid_grant",
        "a retired refresh token presented again is an invalid grant (RFC 6749 §5.2): got \(again.status) \(again.json)")
      #expect(server.refreshTokenReuses == 1, "the server counted one reuse, counted \(server.refreshTokenReuses)")
      #expect(!server.acceptsRefreshToken(newest), "reuse revokes the newest token of the family (RFC 9700 §4.14.2)")

      let afterwards = try await Self.refresh(server, newest)
      #expect(
        afterwards.status == 400 && afterwards.json["error"] as? String == "invalid_grant",
        "the family's newest token no longer refreshes: got \(afterwards.status) \(afterwards.json)")
      let other = try await Self.refresh(server, bystander)
      #expect(other.status == 200, "another sign-in's refresh token still works: got \(other.status) \(other.json)")
    }
  }
}
