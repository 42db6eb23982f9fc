import Foundation
import PracticeServer
import Testing
import WorkbookTesting

@testable import Networking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Exercise 4 — Single-flight token refresh", .timeLimit(.minutes(1)))
struct Exercise4_TokenStoreTests {
  static let farFuture = Date(timeIntervalSince1970: 4_000_000_000)

  /// The refresh call a store makes against the practice server: a POST of the refresh token to
  /// `/v1/auth/refresh`, the answer checked and decoded as the grant.
  static func refresh(at server: PracticeServer, through session: URLSession) -> TokenStore.Refresh {
    let refreshURL = server.baseURL.appendingPathComponent("v1/auth/refresh")
    return { refreshToken in
      var request = URLRequest(url: refreshURL)
      request.httpMethod = "POST"
      request.httpBody = try JSONCoding.encoder().encode(["refresh_token": refreshToken])
      let (response, data) = try await fetch(session, request)
      try NetworkError.check(response, body: data)
      return try NetworkError.decode(TokenGrant.self, from: data, using: JSONCoding.decoder())
    }
  }
  let old = AuthToken(accessToken: "old", refreshToken: "r0", expiresAt: farFuture)

  static func token(_ number: Int) -> AuthToken {
    AuthToken(accessToken: "new-\(number)", refreshToken: "r\(number)", expiresAt: farFuture)
  }

  /// What the server answers a refresh with: token number `number`, alive for a day.
  static func grant(_ number: Int) -> TokenGrant {
    TokenGrant(accessToken: "new-\(number)", refreshToken: "r\(number)", expiresIn: 24 * 60 * 60)
  }

  /// Starts `count` callers that all report a 401 for `rejected`, and returns them once the
  /// refresh sleeps on `clock` and every caller has gone as far as it can (or has finished, as the
  /// starter's do). Until the test moves the clock, nothing changes: every caller that was going
  /// to join the refresh has joined it, and every refresh that was going to start has started.
  func crowd(_ store: TokenStore, count: Int, rejected: String, clock: ManualClock) async -> Crowd<String> {
    let callers = Crowd(count) { _ in try await store.refreshedAccessToken(after: rejected) }
    await clock.waitForSleepers(1) { callers.allFinished }
    await settle()
    return callers
  }

  @Test("20 concurrent 401s cause exactly one refresh, and everyone gets its token")
  func twentyWaitersOneRefresh() async throws {
    let clock = ManualClock()
    let refreshes = Counter()
    let store = TokenStore(token: old) { refreshToken in
      let number = refreshes.increment()
      try await clock.sleep(for: .seconds(1))
      return Self.grant(number)
    }
    let callers = await crowd(store, count: 20, rejected: "old", clock: clock)
    // All 20 are held while the one refresh sleeps: they must have joined it, not started their own.
    #expect(
      refreshes.value == 1 && callers.finished == 0,
      "20 callers saw a 401 while the refresh was in flight: all should wait for that one refresh; \(refreshes.value) refreshes started and \(callers.finished) callers already returned"
    )
    await clock.advance(by: .seconds(1))
    for task in callers.tasks {
      let token = try? await task.value
      #expect(token == "new-1", "every caller of refreshedAccessToken(after: \"old\") should get the one new token, got \(String(describing: token))")
    }
    #expect(refreshes.value == 1, "20 callers saw a 401 at once: exactly one refresh should run, \(refreshes.value) ran")
    #expect(await store.current?.accessToken == "new-1", "the new token should be stored")
  }

  @Test("a failed refresh reaches every waiter, and the next call tries again")
  func failedRefreshReachesEveryone() async throws {
    let clock = ManualClock()
    let refreshes = Counter()
    let store = TokenStore(token: old) { _ in
      let number = refreshes.increment()
      if number == 1 {
        try await clock.sleep(for: .seconds(1))
        throw NetworkError.offline
      }
      return Self.grant(number)
    }
    let callers = await crowd(store, count: 10, rejected: "old", clock: clock)
    #expect(refreshes.value == 1, "10 callers held while the refresh sleeps should share it; \(refreshes.value) refreshes started")
    await clock.advance(by: .seconds(1))
    for task in callers.tasks {
      let error = await failure(of: task)
      #expect(error == .offline, "every waiter should get the refresh's failure, got \(String(describing: error))")
    }
    #expect(refreshes.value == 1, "10 waiters should share the one failing refresh")
    let retried = try? await store.refreshedAccessToken(after: "old")
    #expect(retried == "new-2", "a failure must not be remembered: the next call refreshes again, got \(String(describing: retried))")
  }

  @Test func aRejectedRefreshTokenSignsOut() async {
    let store = TokenStore(token: old) { _ in throw NetworkError.unauthorized }
    let error = await failure(of: Task { try await store.refreshedAccessToken(after: "old") })
    #expect(error == .unauthorized, "a refresh answered with 401 means the session is over")
    #expect(await store.current == nil, "a dead refresh token should sign the user out")
  }

  @Test("a refresh answered 400 invalid_grant (RFC 6749 §5.2) signs out like a 401, and persists the sign-out")
  func invalidGrantSignsOut() async {
    let saved = Recorder<AuthToken?>()
    let body = Data(#"{"error":"invalid_grant","error_description":"refresh token expired"}"#.utf8)
    let store = TokenStore(token: old, persist: { saved.append($0) }) { _ in throw NetworkError.http(status: 400, body: body) }
    let error = await failure(of: Task { try await store.refreshedAccessToken(after: "old") })
    #expect(
      error == .unauthorized,
      "OAuth 2.0 answers a dead refresh token with 400 and error=invalid_grant, not only 401: the caller should get .unauthorized, got \(String(describing: error))"
    )
    #expect(await store.current == nil, "a refresh token the server calls invalid_grant is dead: the store should sign out")
    #expect(saved.values == [nil], "the sign-out should be persisted, or the next launch sends the dead refresh token again; persisted \(saved.values)")
  }

  @Test("a refresh that fails for another reason (another 400, a 503) keeps the session")
  func otherRefreshFailuresKeepTheSession() async {
    let failures: [NetworkError] = [
      .http(status: 400, body: Data(#"{"error":"invalid_request"}"#.utf8)),
      .http(status: 400, body: Data("invalid_grant".utf8)),
      .http(status: 503, body: Data(#"{"error":"invalid_grant"}"#.utf8)),
      .offline,
    ]
    for refreshFailure in failures {
      let saved = Recorder<AuthToken?>()
      let store = TokenStore(token: old, persist: { saved.append($0) }) { _ in throw refreshFailure }
      let error = await failure(of: Task { try await store.refreshedAccessToken(after: "old") })
      #expect(error == refreshFailure, "the refresh's own failure should reach the caller, got \(String(describing: error))")
      #expect(
        await store.current == old && saved.values.isEmpty,
        "\(refreshFailure) says nothing about the refresh token (only a 401 or a 400 whose JSON error is invalid_grant does): keep the session")
    }
  }

  @Test("a rotated token pair is persisted before the replay uses it")
  func rotatedTokensArePersistedBeforeUse() async throws {
    let saved = Recorder<AuthToken?>()
    let store = TokenStore(token: old, persist: { saved.append($0) }) { _ in Self.grant(1) }
    let seen = Recorder<[AuthToken?]>()
    let value = try await store.authorized { token -> Int in
      seen.append(saved.values)
      if token == "old" { throw NetworkError.unauthorized }
      return 7
    }
    #expect(value == 7, "the replay with the new token should succeed")
    #expect(
      seen.values.last?.map { $0?.accessToken } == ["new-1"],
      "with rotating refresh tokens the old one is dead once the server answers: the new pair must be persisted before the replay sends it (a crash in between signs the user out); persisted at the replay: \(String(describing: seen.values.last))"
    )
    await store.set(nil)
    #expect(saved.values.map { $0?.accessToken } == ["new-1", nil], "a sign-out through set(nil) is persisted too; persisted \(saved.values)")
  }

  @Test("integration: the practice server answers a used refresh token 400 invalid_grant, and the store signs out")
  func serverInvalidGrantSignsOut() async throws {
    try await withServer { server in
      let session = URLSession(configuration: .ephemeral)
      defer { session.finishTasksAndInvalidate() }
      let store = TokenStore(
        token: AuthToken(accessToken: "a-dead", refreshToken: "rt-never-issued", expiresAt: Self.farFuture),
        refresh: Self.refresh(at: server, through: session))
      let error = await failure(of: Task { try await store.refreshedAccessToken(after: "a-dead") })
      #expect(error == .unauthorized, "the server answers an unknown refresh token 400 invalid_grant: that ends the session, got \(String(describing: error))")
      #expect(await store.current == nil, "after invalid_grant the store should be signed out")
    }
  }

  @Test("signing out while a refresh is in flight abandons it: the user stays signed out")
  func signingOutAbandonsTheRefresh() async throws {
    let clock = ManualClock()
    let store = TokenStore(token: old) { _ in
      try? await clock.sleep(for: .seconds(1))  // a refresh that finishes even when cancelled
      return Self.grant(1)
    }
    let callers = await crowd(store, count: 3, rejected: "old", clock: clock)
    await store.set(nil)
    await clock.advance(by: .seconds(1))
    for task in callers.tasks {
      let error = await failure(of: task)
      #expect(
        error == .unauthorized,
        "the user signed out during the refresh: its waiters should get .unauthorized, got \(String(describing: error))")
    }
    let current = await store.current
    #expect(
      current == nil,
      "the refresh belonged to the session that was signed out: its token must not be stored (that signs the user back in); current is \(String(describing: current?.accessToken))"
    )
  }

  @Test("signing in while a refresh is in flight: the new session's token wins")
  func signingInDuringARefresh() async throws {
    let clock = ManualClock()
    let store = TokenStore(token: old) { _ in
      try? await clock.sleep(for: .seconds(1))
      return Self.grant(1)
    }
    let callers = await crowd(store, count: 2, rejected: "old", clock: clock)
    await store.set(Self.token(9))
    await clock.advance(by: .seconds(1))
    for task in callers.tasks {
      let token = try? await task.value
      #expect(token == "new-9", "a login replaced the token during the refresh: waiters should get it, got \(String(describing: token))")
    }
    let current = await store.current
    #expect(current == Self.token(9), "the refresh must not overwrite the token set meanwhile; current is \(String(describing: current?.accessToken))")
  }

  @Test func aTokenAlreadyRefreshedIsNotRefreshedAgain() async throws {
    let refreshes = Counter()
    let store = TokenStore(token: old) { _ in Self.grant(refreshes.increment()) }
    let first = try await store.refreshedAccessToken(after: "old")
    let late = try await store.refreshedAccessToken(after: "old")
    #expect(first == "new-1" && late == "new-1", "a 401 for a token that was already replaced gets the current token")
    #expect(refreshes.value == 1, "a late 401 for the old token must not start a second refresh, saw \(refreshes.value)")
  }

  @Test func aTokenAboutToExpireIsRefreshedBeforeUse() async throws {
    let now = LockedBox(Date(timeIntervalSince1970: 1_000_000))
    let refreshes = Counter()
    let soon = AuthToken(accessToken: "soon", refreshToken: "r0", expiresAt: Date(timeIntervalSince1970: 1_000_030))
    let store = TokenStore(token: soon, refreshMargin: 60, now: { now.value }) { _ in Self.grant(refreshes.increment()) }
    let token = try await store.validAccessToken()
    #expect(token == "new-1", "a token expiring in 30 s (margin 60 s) should be refreshed before it is sent, got \(String(describing: token))")
    now.mutate { $0 = Date(timeIntervalSince1970: 1_000_000) }
    #expect(try await store.validAccessToken() == "new-1", "a fresh token is used as it is")
    #expect(refreshes.value == 1, "a fresh token needs no refresh")
    let signedOut = TokenStore(token: nil) { _ in Self.grant(9) }
    #expect(try await signedOut.validAccessToken() == nil, "signed out means no token, not an error")
  }

  @Test("a 401 is replayed exactly once with the new token")
  func replayOnce() async throws {
    let store = TokenStore(token: old) { _ in Self.grant(1) }
    let sent = Recorder<String?>()
    let value = try await store.authorized { token -> Int in
      sent.append(token)
      if token == "old" { throw NetworkError.unauthorized }
      return 7
    }
    #expect(value == 7, "the replay with the new token should succeed")
    #expect(sent.values == ["old", "new-1"], "sent with the old token, then once with the new one; got \(sent.values)")
  }

  @Test("a second 401 is final: no endless refresh loop")
  func secondUnauthorizedIsFinal() async {
    let refreshes = Counter()
    let store = TokenStore(token: old) { _ in Self.grant(refreshes.increment()) }
    let sends = Counter()
    let error = await failure(
      of: Task {
        try await store.authorized { _ -> Int in
          // Stops a runaway loop after a few rounds so the test can report it.
          if sends.increment() > 5 { throw NetworkError.http(status: 418, body: Data()) }
          throw NetworkError.unauthorized
        }
      })
    #expect(error == .unauthorized, "after the replay also got 401 the caller should get .unauthorized, got \(String(describing: error))")
    #expect(sends.value == 2, "a request is sent at most twice (original + one replay), it was sent \(sends.value) times")
    #expect(refreshes.value == 1, "one 401 → one refresh, saw \(refreshes.value)")
  }

  @Test("integration: 20 concurrent 401s from the server cause one refresh call")
  func twentyRealUnauthorized() async throws {
    try await withServer { server in
      let session = URLSession(configuration: .ephemeral)
      defer { session.finishTasksAndInvalidate() }
      let issued = server.issueTokens()
      server.chaos.expireTokens()
      // The refresh goes straight to the server: it is never intercepted by the 401 handling.
      let store = TokenStore(
        token: AuthToken(accessToken: issued.accessToken, refreshToken: issued.refreshToken, expiresAt: Self.farFuture),
        refresh: Self.refresh(at: server, through: session))
      let meURL = server.baseURL.appendingPathComponent("v1/users/me")
      // Every request runs to its end: a group that threw at the first failure would cancel the
      // others mid-flight, and on Linux a cancelled URLSession task can stall the session.
      let outcomes = await withTaskGroup(of: String.self) { group in
        for _ in 0..<20 {
          group.addTask {
            do {
              return try await String(
                store.authorized { token -> Int in
                  var request = URLRequest(url: meURL)
                  request.setValue("Bearer \(token ?? "")", forHTTPHeaderField: "Authorization")
                  let (response, data) = try await fetch(session, request)
                  try NetworkError.check(response, body: data)
                  return response.statusCode
                })
            } catch {
              return "\(error)"
            }
          }
        }
        return await group.reduce(into: [String]()) { $0.append($1) }
      }
      #expect(outcomes == Array(repeating: "200", count: 20), "all 20 requests should succeed after the refresh, got \(outcomes)")
      #expect(server.refreshCount == 1, "the server should see exactly one refresh call, saw \(server.refreshCount)")
    }
  }

  @Test("a token that expires exactly refreshMargin from now is already within the margin")
  func aTokenExpiringAtTheMarginIsRefreshed() async throws {
    let now = Date(timeIntervalSince1970: 1_000_000)
    let refreshes = Counter()
    let edge = AuthToken(accessToken: "edge", refreshToken: "r0", expiresAt: now.addingTimeInterval(60))
    let store = TokenStore(token: edge, refreshMargin: 60, now: { now }) { _ in Self.grant(refreshes.increment()) }
    let token = try await store.validAccessToken()
    #expect(
      token == "new-1",
      "a token that expires in exactly 60 s with a 60 s margin expires within the margin: it should be refreshed before it is sent, got \(String(describing: token))"
    )
    let later = TokenStore(token: AuthToken(accessToken: "fresh", refreshToken: "r0", expiresAt: now.addingTimeInterval(61)), refreshMargin: 60, now: { now }) {
      _ in Self.grant(9)
    }
    #expect(try await later.validAccessToken() == "fresh", "a token with 61 s left and a 60 s margin is used as it is")
  }

  @Test(
    "integration: the expiry counts from the grant's arrival on the device's clock, however far that clock is off",
    arguments: [-3_600.0, 3_600.0])
  func expiryCountsFromArrival(deviceClockOffBy skew: TimeInterval) async throws {
    try await withServer { server in
      let session = URLSession(configuration: .ephemeral)
      defer { session.finishTasksAndInvalidate() }
      let issued = server.issueTokens()
      let device = ManualClock()
      let deviceStart = Date().addingTimeInterval(skew)  // the phone's clock, an hour off the server's
      let deviceNow: @Sendable () -> Date = {
        let elapsed = device.now.offset.components
        return deviceStart.addingTimeInterval(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
      }
      // The stored token has run out on the device's clock, so the first use refreshes it.
      let stored = AuthToken(accessToken: issued.accessToken, refreshToken: issued.refreshToken, expiresAt: deviceStart)
      let store = TokenStore(token: stored, refreshMargin: 60, now: deviceNow, refresh: Self.refresh(at: server, through: session))
      let first = try await store.validAccessToken()
      let expiresAt = await store.current?.expiresAt
      #expect(
        server.refreshCount == 1 && expiresAt == deviceStart.addingTimeInterval(3_600),
        "the server grants expires_in 3600: the token expires 3600 s after the grant arrived, on the store's clock (now); expires \(String(describing: expiresAt)), device time at arrival \(deviceStart)"
      )
      let again = try await store.validAccessToken()
      #expect(
        again == first && server.refreshCount == 1,
        "the token has an hour left: it is used as it is, whatever the device's clock says about the server's (off by \(skew) s); \(server.refreshCount) refreshes"
      )
      await device.advance(by: .seconds(3_600 - 61))
      #expect(try await store.validAccessToken() == first, "61 s left with a 60 s margin: no refresh yet")
      await device.advance(by: .seconds(1))
      let renewed = try await store.validAccessToken()
      #expect(
        server.refreshCount == 2 && renewed != first,
        "60 s left with a 60 s margin: the token is refreshed ahead of its expiry (device clock off by \(skew) s); \(server.refreshCount) refreshes"
      )
    }
  }

  @Test("a waiter that is cancelled does not cancel the refresh the others wait for")
  func aCancelledWaiterLeavesTheRefreshRunning() async throws {
    let clock = ManualClock()
    let refreshes = Counter()
    let store = TokenStore(token: old) { _ in
      let number = refreshes.increment()
      try await clock.sleep(for: .seconds(1))  // a cancelled refresh throws here
      return Self.grant(number)
    }
    let callers = await crowd(store, count: 3, rejected: "old", clock: clock)
    callers.tasks[0].cancel()  // the screen of the first caller closes
    await settle()
    await clock.advance(by: .seconds(1))
    for task in callers.tasks.dropFirst() {
      let token = try? await task.value
      #expect(
        token == "new-1",
        "one caller was cancelled; the refresh belongs to every waiter, so the others should still get its token, got \(String(describing: token))")
    }
    _ = await callers.tasks[0].result  // `.cancelled` or the token: either is fine
    #expect(refreshes.value == 1, "one refresh for all of them, saw \(refreshes.value)")
    #expect(await store.current?.accessToken == "new-1", "the refresh's token should be stored")
  }

  @Test("signed out, authorized sends once with no token, and its 401 is final")
  func authorizedWhenSignedOut() async {
    let refreshes = Counter()
    let store = TokenStore(token: nil) { _ in Self.grant(refreshes.increment()) }
    let sent = Recorder<String?>()
    let value = try? await store.authorized { token -> Int in
      sent.append(token)
      return 7
    }
    #expect(
      value == 7 && sent.values == [nil], "signed out, send runs once with nil (the server decides); got \(String(describing: value)) after \(sent.values)")
    let rejected = Recorder<String?>()
    let error = await failure(
      of: Task {
        try await store.authorized { token -> Int in
          rejected.append(token)
          throw NetworkError.unauthorized
        }
      })
    #expect(error == .unauthorized, "a 401 without a session is final: .unauthorized, got \(String(describing: error))")
    #expect(rejected.values == [nil], "with no session there is nothing to refresh, so no replay: sent \(rejected.values)")
    #expect(refreshes.value == 0, "signed out, nothing may refresh, saw \(refreshes.value)")
  }

  @Test("a 401 for an older token joins the refresh in flight instead of taking the current token")
  func anOlderRejectedTokenJoinsTheRefresh() async throws {
    let clock = ManualClock()
    let refreshes = Counter()
    let store = TokenStore(token: old) { _ in
      let number = refreshes.increment()
      try await clock.sleep(for: .seconds(1))
      return Self.grant(number)
    }
    let callers = await crowd(store, count: 2, rejected: "old", clock: clock)
    // A request sent with a token older than "old" comes back 401 while "old" is being refreshed.
    let late = Task { try await store.refreshedAccessToken(after: "older") }
    await settle()
    await clock.advance(by: .seconds(1))
    let token = try? await late.value
    #expect(
      token == "new-1",
      "a refresh is in flight and is about to replace the current token: the late caller should wait for the new token, not get the one on its way out; got \(String(describing: token))"
    )
    for task in callers.tasks { _ = await task.result }
    #expect(refreshes.value == 1, "everyone shares the one refresh, saw \(refreshes.value)")
  }

  @Test("a token near expiry whose refresh token is dead signs out: validAccessToken throws .unauthorized")
  func aDeadRefreshTokenSignsOutBeforeUse() async {
    let now = Date(timeIntervalSince1970: 1_000_000)
    let saved = Recorder<AuthToken?>()
    let soon = AuthToken(accessToken: "soon", refreshToken: "r0", expiresAt: now + 30)
    let body = Data(#"{"error":"invalid_grant"}"#.utf8)
    let store = TokenStore(token: soon, refreshMargin: 60, now: { now }, persist: { saved.append($0) }) { _ in
      throw NetworkError.http(status: 400, body: body)
    }
    let result = await Task { try await store.validAccessToken() }.result
    #expect(
      throws: NetworkError.unauthorized,
      "the token expires in 30 s (margin 60 s) and its refresh answered 400 invalid_grant: the call should throw .unauthorized, got \(result)"
    ) { try result.get() }
    let current = await store.current
    #expect(current == nil, "a dead refresh token signs out on this path too; current is \(String(describing: current?.accessToken))")
    #expect(saved.values == [nil], "the sign-out should be persisted; persisted \(saved.values)")
  }

  @Test("soft expiry: inside the margin, a refresh that fails without ending the session sends the token, still valid")
  func aValidTokenIsSentWhileItsRefreshFails() async {
    let now = Date(timeIntervalSince1970: 1_000_000)
    for refreshFailure in [NetworkError.http(status: 503, body: Data()), .offline] {
      let refreshes = Counter()
      let soon = AuthToken(accessToken: "soon", refreshToken: "r0", expiresAt: now + 30)
      let store = TokenStore(token: soon, refreshMargin: 60, now: { now }) { _ in
        _ = refreshes.increment()
        throw refreshFailure
      }
      let sent = Recorder<String?>()
      let result = await Task { try await store.authorized { token in sent.append(token) } }.result
      #expect(
        (try? result.get()) != nil && sent.values == ["soon"],
        "the token expires in 30 s (margin 60 s) and its refresh failed with \(refreshFailure): the token still works, so the request should go out with it (soft expiry), not be refused; the call ended \(result) and sent \(sent.values)"
      )
      #expect(await store.current == soon, "\(refreshFailure) says nothing about the refresh token: the token is kept")
      _ = await Task { try await store.validAccessToken() }.result
      #expect(refreshes.value == 2, "the failure is not kept: the next call inside the margin tries the refresh again; refreshes: \(refreshes.value)")
    }
  }

  @Test("hard expiry: a token at or past its expiry is not sent when its refresh fails; the failure reaches the caller")
  func anExpiredTokenIsNotSentWhenItsRefreshFails() async {
    let now = Date(timeIntervalSince1970: 1_000_000)
    for expiresAt in [now, now - 30] {
      let expired = AuthToken(accessToken: "expired", refreshToken: "r0", expiresAt: expiresAt)
      let store = TokenStore(token: expired, refreshMargin: 60, now: { now }) { _ in throw NetworkError.offline }
      let result = await Task { try await store.validAccessToken() }.result
      #expect(
        throws: NetworkError.offline,
        "the token expired \(now.timeIntervalSince(expiresAt)) s ago (at its expiry counts) and its refresh failed offline: the server would refuse it, so the call should throw the refresh's failure, got \(result)"
      ) { try result.get() }
      #expect(await store.current == expired, "offline says nothing about the refresh token: the session is kept for the next try")
    }
  }

  @Test("a 401 for a request sent with no token gets the token signed in meanwhile, with no refresh")
  func aRequestSentWithoutATokenGetsTheCurrentOne() async throws {
    let refreshes = Counter()
    let store = TokenStore(token: old) { _ in Self.grant(refreshes.increment()) }
    let token = try await store.refreshedAccessToken(after: nil)
    #expect(token == "old", "the request carried no token, so the token held now was never rejected: it is the answer; got \(token)")
    #expect(refreshes.value == 0, "nothing rejected the current token, so nothing may refresh it; saw \(refreshes.value) refresh(es)")
  }
}
