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
}
