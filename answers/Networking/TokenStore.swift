// Exercise 4 — Single-flight token refresh (advanced)
//
// When an access token expires, every request in flight gets a 401 at about the same moment.
// If each of them refreshes, the server sees twenty refresh calls, and with rotating refresh
// tokens all but one of them fail and sign the user out. Keep one refresh task in flight and
// let every caller await it. A request that got a 401 is replayed once with the new token;
// a second 401 is final.
import Foundation
import Workbook

/// An access token, the refresh token that renews it, and when the access token expires on this
/// device's clock. Only this device's clock ever sets `expiresAt` (from a `TokenGrant`'s lifetime,
/// when it arrives) and reads it, so a device clock that is an hour off is off on both sides.
public nonisolated struct AuthToken: Codable, Sendable, Equatable {
  public var accessToken: String
  public var refreshToken: String
  public var expiresAt: Date

  public init(accessToken: String, refreshToken: String, expiresAt: Date) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresAt = expiresAt
  }

  /// The token a grant gives, expiring `grant.expiresIn` seconds after `receivedAt`, the moment
  /// the grant arrived on the device's clock.
  public init(_ grant: TokenGrant, receivedAt: Date) {
    self.init(accessToken: grant.accessToken, refreshToken: grant.refreshToken, expiresAt: receivedAt + grant.expiresIn)
  }
}

/// What a token endpoint answers (RFC 6749 §5.1): the tokens and the access token's lifetime in
/// seconds, `expires_in`, counted from when the response was generated. A lifetime, not a date:
/// the server's clock and the device's disagree (a phone set by hand can be hours off), and a
/// lifetime needs only one clock, the device's, read when the answer arrives.
public nonisolated struct TokenGrant: Codable, Sendable, Equatable {
  public var accessToken: String
  public var refreshToken: String
  public var expiresIn: TimeInterval

  public init(accessToken: String, refreshToken: String, expiresIn: TimeInterval) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresIn = expiresIn
  }
}

/// Owns the session's token and refreshes it, once, however many callers need a new one.
///
/// The refresh function is called with the refresh token and talks to the server directly:
/// it must never go through the code that handles 401s, or a rejected refresh would trigger
/// another refresh.
///
/// With rotating refresh tokens the server invalidates the old refresh token the moment it issues
/// a new pair, so the new pair must reach storage (the Keychain) before anything uses it: `persist`
/// sees every token the store takes, in order, on the actor and in the same turn, before any caller
/// gets the new access token. The token given to `init` came from storage and is not saved again.
///
/// The refresh is shared, so no one caller owns it: a caller cancelled while it waits must not
/// cancel the refresh the others are waiting for. Whether that caller returns `.cancelled` at once
/// or waits for the shared result is your choice.
public actor TokenStore {
  /// Exchanges a refresh token for a new grant, whose lifetime the store turns into an expiry on
  /// its `now` clock the moment the grant arrives. A refresh that fails with a dead refresh token
  /// means the session is over and the store signs out: `.unauthorized` (a 401), or the OAuth 2.0
  /// answer, `.http(status: 400, …)` whose JSON body has `"error": "invalid_grant"` (RFC 6749
  /// §5.2). Any other failure (offline, a 5xx, another 400) keeps the token, which is still sent
  /// until it expires (see `validAccessToken()`).
  public typealias Refresh = @Sendable (_ refreshToken: String) async throws -> TokenGrant
  /// Saves the token the store now holds (nil: signed out). Synchronous, so it runs in the same
  /// actor turn as the change: no caller can use a token that is not saved yet.
  public typealias Persist = @Sendable (_ token: AuthToken?) -> Void

  private var token: AuthToken?
  private var refreshTask: Task<AuthToken, any Error>?
  /// Counts `set` calls: a refresh that finishes in a later generation than it started belongs
  /// to a session that has ended, and its result is dropped.
  private var generation = 0
  private let refresh: Refresh
  private let persist: Persist
  /// The device's clock: it stamps a grant's arrival and is the only clock an expiry is read on.
  private let now: @Sendable () -> Date
  /// How long before its expiry a token is refreshed, so it does not die on the way: the soft
  /// expiry. A token inside it whose refresh fails is still sent until `expiresAt`, the hard one.
  public let refreshMargin: TimeInterval

  public init(
    token: AuthToken?, refreshMargin: TimeInterval = 60, now: @escaping @Sendable () -> Date = Date.init,
    persist: @escaping Persist = { _ in }, refresh: @escaping Refresh
  ) {
    self.token = token
    self.refreshMargin = refreshMargin
    self.now = now
    self.persist = persist
    self.refresh = refresh
  }

  /// Whether a failed refresh means the refresh token is dead, so the session is over: a 401, or
  /// the OAuth 2.0 answer to an expired, revoked or already used refresh token, which is 400 with
  /// `{"error": "invalid_grant"}` (RFC 6749 §5.2). Any other failure (offline, a 5xx, another 400)
  /// says nothing about the token, which is kept.
  static func signsOut(_ error: NetworkError) -> Bool {
    switch error {
    case .unauthorized:
      return true
    case .http(400, let body, _):
      let document = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
      return document?["error"] as? String == "invalid_grant"
    default:
      return false
    }
  }

  /// The current token, without refreshing.
  public var current: AuthToken? { token }

  /// Replaces the token, after a login (a token) or a logout (nil).
  ///
  /// A refresh in flight is abandoned: it belonged to the session that just ended, so its result
  /// must never overwrite this token (a logout during a refresh would otherwise sign the user
  /// back in). Its waiters get the new state: the new access token, or `.unauthorized`. The new
  /// token is persisted.
  public func set(_ token: AuthToken?) {
    generation += 1
    refreshTask?.cancel()
    refreshTask = nil
    self.token = token
    persist(token)
  }

  /// The access token to send now, or nil when signed out. A token has two expiries. The soft
  /// one: a token that expires within `refreshMargin` is refreshed first (joining a refresh
  /// already in flight); one that expires exactly `refreshMargin` from now is already within it.
  /// The hard one: `expiresAt` itself, from which the server refuses the token.
  ///
  /// A refresh that fails with a dead refresh token (a 401, or 400 `invalid_grant`) signs out
  /// either way: the token becomes nil, nil is persisted, and the call throws `.unauthorized`. Any
  /// other failure (offline, a 5xx, another 400) keeps the token, so the next call tries again,
  /// and this call returns the token as it is while it has not reached its hard expiry (still
  /// valid, it is sent rather than the request refused); at or past `expiresAt` it throws the
  /// refresh's failure. A refreshed token expires its grant's `expiresIn` seconds after the grant
  /// arrived, read on `now`, and is persisted before any caller gets it.
  public func validAccessToken() async throws(NetworkError) -> String? {
    guard let token else { return nil }
    if token.expiresAt.timeIntervalSince(now()) > refreshMargin { return token.accessToken }
    do {
      return try await refreshedToken().accessToken
    } catch {
      // Soft expiry: a refresh that failed without ending the session leaves a token that may
      // still work. Read it again after the await (a `set` may have replaced it) and send it
      // until its hard expiry; a dead refresh token signed out, and a cancelled caller sends nothing.
      guard error != .unauthorized, error != .cancelled, let kept = self.token, kept.expiresAt > now() else {
        throw error
      }
      return kept.accessToken
    }
  }

  /// A new access token after the server rejected `rejected` with a 401.
  ///
  /// If the token has changed since `rejected` was sent, somebody refreshed already: the current
  /// token is returned with no new refresh (a request sent with no token, `rejected == nil`,
  /// counts as changed once there is one). Otherwise this starts the refresh, or joins the one in
  /// flight. A refresh in flight is joined even when `rejected` is an older token than the current
  /// one: whether a 401 or a token close to expiry started it, it is about to replace the current
  /// token, so the caller waits for the new one rather than send the one being replaced. Throws
  /// `.unauthorized` when signed out or when the refresh token was rejected (a 401, or 400
  /// `invalid_grant`).
  public func refreshedAccessToken(after rejected: String?) async throws(NetworkError) -> String {
    guard let token else { throw .unauthorized }
    if token.accessToken != rejected, refreshTask == nil { return token.accessToken }
    return try await refreshedToken().accessToken
  }

  /// Starts the one refresh or joins it. Every waiter gets its result, and the first waiter to
  /// resume records it and persists it before returning it; a failure is not kept, so the next
  /// call starts a new refresh. If `set` ran meanwhile, the result is dropped and waiters get the
  /// token that was set.
  private func refreshedToken() async throws(NetworkError) -> AuthToken {
    let started = generation
    let task: Task<AuthToken, any Error>
    if let refreshTask {
      task = refreshTask
    } else {
      guard let refreshToken = token?.refreshToken else { throw .unauthorized }
      let (refresh, now) = (self.refresh, self.now)
      task = Task { AuthToken(try await refresh(refreshToken), receivedAt: now()) }
      refreshTask = task
    }
    do {
      let fresh = try await Self.value(of: task)
      guard generation == started else { return try tokenSetMeanwhile() }
      if refreshTask == task {
        token = fresh
        refreshTask = nil
        persist(fresh)  // the old refresh token is dead now: save the new pair before anyone uses it
      }
      return fresh
    } catch {
      guard generation == started else { return try tokenSetMeanwhile() }
      let dead = Self.signsOut(error)
      if refreshTask == task {
        refreshTask = nil
        if dead {
          token = nil
          persist(nil)
        }
      }
      throw dead ? .unauthorized : error
    }
  }

  /// What a waiter of an abandoned refresh gets: the token `set` stored, or `.unauthorized`.
  private func tokenSetMeanwhile() throws(NetworkError) -> AuthToken {
    guard let token else { throw .unauthorized }
    return token
  }

  private static func value(of task: Task<AuthToken, any Error>) async throws(NetworkError) -> AuthToken {
    do {
      return try await task.value
    } catch {
      throw NetworkError(mapping: error)
    }
  }

  /// Runs `send` with the access token; after a 401, gets a new token and replays `send` exactly
  /// once. A second 401, or any other error, reaches the caller. Signed out, `send` still runs
  /// once, with nil (the server decides, and its 401 is final: there is nothing to refresh).
  public nonisolated func authorized<T>(_ send: (_ accessToken: String?) async throws -> T) async throws(NetworkError) -> T {
    let first = try await validAccessToken()
    do {
      return try await send(first)
    } catch {
      let failure = NetworkError(mapping: error)
      guard failure == .unauthorized else { throw failure }
    }
    let fresh = try await refreshedAccessToken(after: first)
    do {
      return try await send(fresh)
    } catch {
      throw NetworkError(mapping: error)
    }
  }
}
