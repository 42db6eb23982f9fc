import Foundation
import PracticeServer
import Testing
import WorkbookTesting

@testable import Networking

/// An app and its extension are two processes: the actor's single flight covers each alone. Two
/// real processes (`token-refresher`, started twice) share one token file and refresh at once
/// against the practice server, whose refresh tokens rotate and whose reuse revokes the sign-in.
@Suite("Exercise 4 — Single-flight token refresh (across processes)", .timeLimit(.minutes(1)))
struct Exercise4_SharedTokenTests {
  @Test("two processes refresh at once: one refresh reaches the server, no retired token is sent, both end with the newest")
  func twoProcessesRefreshTheSharedTokenOnce() async throws {
    try await withServer { server in
      try await withTemporaryDirectory("shared-token") { folder in
        let issued = server.issueTokens()
        let shared = SharedTokenFile(directory: folder.url)
        try await shared.write(
          AuthToken(accessToken: issued.accessToken, refreshToken: issued.refreshToken, expiresAt: Date() + 3_600))
        let program = try RefresherProcess.program()
        let app = try RefresherProcess(program, folder: folder.url, api: server.apiURL)
        defer { app.stop() }
        let appExtension = try RefresherProcess(program, folder: folder.url, api: server.apiURL)
        defer { appExtension.stop() }
        var appLines = app.lines.makeAsyncIterator()
        var extensionLines = appExtension.lines.makeAsyncIterator()

        // The barrier: both have read the shared token before either may refresh it.
        let appReady = await appLines.next()
        let extensionReady = await extensionLines.next()
        try #require(
          appReady == "ready" && extensionReady == "ready",
          "both processes read the shared token first; they printed \(appReady ?? "nothing") and \(extensionReady ?? "nothing")")
        try app.go()
        try appExtension.go()
        let appEnd = await appLines.next() ?? "nothing"
        let extensionEnd = await extensionLines.next() ?? "nothing"
        let said = "the processes said \"\(appEnd)\" and \"\(extensionEnd)\""

        #expect(
          server.refreshTokenReuses == 0,
          "no process may present a refresh token the other has rotated away (RFC 9700 §4.14.2): the server saw \(server.refreshTokenReuses) reuse(s), which revoke the sign-in; \(said)"
        )
        #expect(
          server.refreshCount == 1,
          "one refresh of the shared token reaches the server whichever process asks, not one per process: it saw \(server.refreshCount); \(said)")
        #expect(
          appEnd.hasPrefix("token ") && appEnd == extensionEnd,
          "both processes end with the same token; \(said)")
        let newest = try shared.read()
        #expect(
          newest.map { appEnd == "token \($0.accessToken) \($0.refreshToken)" } == true,
          "the shared file holds the token both ended with: \(String(describing: newest)); \(said)")
        #expect(
          newest.map { $0.refreshToken != issued.refreshToken && server.acceptsRefreshToken($0.refreshToken) } == true,
          "the shared refresh token is the rotated one, and the server still accepts it: the sign-in stands; \(said)")
      }
    }
  }

  @Test("a token another process rotated while this one waited is taken from the file, and nothing is sent")
  func aTokenRotatedMeanwhileIsTakenFromTheFile() async throws {
    try await withTemporaryDirectory("shared-token") { folder in
      let shared = SharedTokenFile(directory: folder.url)
      let now = Date(timeIntervalSince1970: 1_800_000_000)
      let rotated = AuthToken(accessToken: "a2", refreshToken: "r2", expiresAt: now + 600)
      try await shared.write(rotated)
      let sent = LockedBox<[String]>([])
      let refresh = shared.refreshing(now: { now }) { refreshToken in
        sent.mutate { $0.append(refreshToken) }
        return TokenGrant(accessToken: "a3", refreshToken: "r3", expiresIn: 3_600)
      }
      let grant = try await refresh("r1")
      #expect(sent.value.isEmpty, "r1 was rotated away by the other process: sending it is reuse, yet it sent \(sent.value)")
      #expect(
        grant == TokenGrant(accessToken: "a2", refreshToken: "r2", expiresIn: 600),
        "the answer is the file's token, with the 600 s it has left: \(grant)")
      let kept = try shared.read()
      #expect(kept == rotated, "the file keeps the other process's token: \(String(describing: kept))")

      let next = try await refresh("r2")
      #expect(sent.value == ["r2"], "the file's own refresh token is the one sent: \(sent.value)")
      let written = try shared.read()
      #expect(
        next.refreshToken == "r3" && written?.refreshToken == "r3",
        "the new pair is written to the file before the refresh returns: \(String(describing: written))")
    }
  }

  @Test("a dead refresh token (400 invalid_grant) is dead for every process: the shared file is cleared")
  func aDeadRefreshTokenClearsTheSharedFile() async throws {
    try await withTemporaryDirectory("shared-token") { folder in
      let shared = SharedTokenFile(directory: folder.url)
      try await shared.write(AuthToken(accessToken: "a1", refreshToken: "r1", expiresAt: Date() + 600))
      let invalidGrant = NetworkError.http(status: 400, body: Data(#"{"error":"invalid_grant"}"#.utf8))
      let refresh = shared.refreshing { _ in throw invalidGrant }
      await #expect(throws: invalidGrant, "the refresh's own failure reaches the store") { try await refresh("r1") }
      let left = try shared.read()
      #expect(left == nil, "the other process must not send r1 again: the file is cleared, got \(String(describing: left))")
    }
  }
}
