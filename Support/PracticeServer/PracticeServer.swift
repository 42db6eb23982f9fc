import Foundation
import Workbook

/// A local HTTP API for practising networking code against real sockets: it binds 127.0.0.1
/// only, on a port the system picks unless one is given, and serves the workbook's API with
/// knobs (`chaos`) that make it fail, rate-limit, expire tokens or answer slowly on demand.
///
/// Whoever starts it stops it; `stop()` is idempotent. Every route is described in `ROUTES`
/// (see `PracticeServer.routes`), and `make server` runs it for a learner to try with curl.
public final class PracticeServer: Sendable {
  public struct Configuration: Sendable {
    /// 0 lets the system pick a free port.
    public var port: UInt16
    /// How long an access token lives.
    public var tokenLifetime: TimeInterval
    /// How many posts the deterministic catalog starts with (newest first).
    public var postCount: Int
    /// Print one line per request to standard output (`make server` turns it on).
    public var logRequests: Bool
    /// What one client may cost the server (connections, deadlines, sizes, the request log).
    public var limits: Limits

    public init(
      port: UInt16 = 0, tokenLifetime: TimeInterval = 3_600, postCount: Int = 200, logRequests: Bool = false, limits: Limits = Limits()
    ) {
      self.port = port
      self.tokenLifetime = tokenLifetime
      self.postCount = postCount
      self.logRequests = logRequests
      self.limits = limits
    }
  }

  /// One served request.
  public struct LoggedRequest: Sendable {
    public var method: String
    public var path: String
    public var query: [String: String]
    public var headers: [String: String]
    public var status: Int
  }

  public let configuration: Configuration
  /// Failure knobs, settable from tests and through `POST /admin/chaos`.
  public let chaos: Chaos
  /// The sync routes of chapter 7 (`/v1/sync/`), callable in-process as well.
  public let sync: SyncService
  /// Seeded faults on the sync routes (`POST /admin/chaos {"sync_faults":{…}}`), off at first.
  public let syncChaos: SyncChaos
  let store: APIStore
  private let listener = Locked<Listener?>(nil)
  private let log: RequestLog

  public init(configuration: Configuration = .init()) {
    self.configuration = configuration
    let sync = SyncService()
    self.sync = sync
    let syncChaos = SyncChaos(sync: sync)
    self.syncChaos = syncChaos
    self.chaos = Chaos(sync: sync, syncChaos: syncChaos)
    self.store = APIStore(configuration: configuration)
    self.log = RequestLog(limits: configuration.limits)
  }

  /// Starts serving and returns the base URL, such as `http://127.0.0.1:54321`. Calling it again
  /// while running returns the same URL.
  @discardableResult
  public func start() throws -> URL {
    let listener = listener.withLock { current -> Listener in
      if let current, !current.isStopped { return current }
      let fresh = Listener(
        limits: configuration.limits, handler: { [self] request, listener in handle(request, listener) },
        rejected: { [self] error, summary in rejected(error, summary) })
      current = fresh
      return fresh
    }
    _ = try listener.start(port: configuration.port)
    return baseURL
  }

  /// A started server; throws when it cannot bind.
  public static func started(configuration: Configuration = .init()) throws -> PracticeServer {
    let server = PracticeServer(configuration: configuration)
    try server.start()
    return server
  }

  /// `http://127.0.0.1:<port>` (port 0 before `start()`).
  public var baseURL: URL {
    let port = listener.withLock { $0?.port ?? 0 }
    return URL(string: "http://127.0.0.1:\(port)")!
  }

  /// `baseURL` + `/v1`, the root of the versioned API.
  public var apiURL: URL { baseURL.appendingPathComponent("v1") }

  /// Stops accepting connections. Idempotent; slow responses in progress end early.
  public func stop() {
    listener.withLock { $0 }?.stop()
  }

  /// How many requests for `path` (exactly, without the query) have arrived, counted when they
  /// arrive, before any delay. Only the last `limits.countedPaths` distinct paths are counted.
  public func requestCount(_ path: String) -> Int {
    log.count(path)
  }

  /// The most recent answered requests (at most `limits.requestLogEntries`, holding at most
  /// `limits.requestLogBytes`), in the order the answers were made.
  public var requestLog: [LoggedRequest] { log.entries }

  /// Connections, threads, refusals and the request log's size since the last `start()`.
  public var statistics: Statistics {
    var statistics = listener.withLock { $0?.table.statistics } ?? Statistics()
    (statistics.requestLogEntries, statistics.requestLogBytes, statistics.countedPaths) = log.size
    return statistics
  }

  /// How often connection readers have woken to see whether the server is full
  /// (`Limits.headerTimeoutWhenFull`): tests wait for these wake-ups, not for time to pass.
  var pressureChecks: Int { listener.withLock { $0?.table.pressureCheckCount } ?? 0 }

  /// How many times `/v1/auth/refresh` has been called.
  public var refreshCount: Int { requestCount("/v1/auth/refresh") }

  /// How many refreshes presented a refresh token that had already been rotated away. Each one
  /// revoked its sign-in's family, as rotation treats such reuse as theft (RFC 9700 §4.14.2).
  public var refreshTokenReuses: Int { store.refreshTokenReuses }

  /// Whether a refresh with `refreshToken` would succeed now: it is the newest of its family and
  /// the family was not revoked.
  public func acceptsRefreshToken(_ refreshToken: String) -> Bool {
    store.acceptsRefreshToken(refreshToken)
  }

  /// Signs in the seeded user without HTTP and returns `(accessToken, refreshToken)`.
  public func issueTokens(email: String = APIStore.seededEmail) -> (accessToken: String, refreshToken: String) {
    store.issueTokens(email: email, generation: chaos.tokenGeneration)
  }

  private func handle(_ request: HTTPRequest, _ listener: Listener) -> HTTPReply {
    log.arrived(request.path)
    let reply = route(request, listener)
    if let reason = reply.droppedBecause {
      // Not answered, so not in the log of answered requests.
      if configuration.logRequests { say("\(request.method) \(request.path) → no reply, connection closed (chaos: \(reason))") }
      return reply
    }
    log.served(LoggedRequest(method: request.method, path: request.path, query: request.query, headers: request.headers, status: reply.status))
    if configuration.logRequests {
      let query = request.query.isEmpty ? "" : "?" + request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
      say("\(request.method) \(request.path)\(query) → \(reply.status)")
    }
    return reply
  }

  /// A request refused before any route saw it: counted, and shown to a learner running
  /// `make server` so that a 400 from curl has its reason next to it.
  private func rejected(_ error: RequestError, _ summary: String?) {
    guard configuration.logRequests else { return }
    say("\(summary ?? "(unreadable request)") → \(error.status): \(error.message)")
  }

  /// Prints a console line with control characters shown as `\u{..}`: a percent-decoded query
  /// can hold an escape sequence, and printed raw it would rewrite the learner's terminal.
  private func say(_ line: String) {
    var text = ""
    for scalar in line.unicodeScalars {
      if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
        text += "\\u{\(String(scalar.value, radix: 16))}"
      } else {
        text.unicodeScalars.append(scalar)
      }
    }
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  private func route(_ request: HTTPRequest, _ listener: Listener) -> HTTPReply {
    if request.path == "/admin/chaos" { return chaos.handle(request) }
    if request.path == "/health" {
      guard request.method == "GET" || request.method == "HEAD" else {
        return .error(405, "/health answers GET and HEAD", headers: [("Allow", "GET, HEAD")])
      }
      return .json(200, ["status": "ok"])
    }
    let plan = chaos.take(path: request.path)
    if plan.delayMilliseconds > 0, !listener.pause(milliseconds: plan.delayMilliseconds) {
      return .error(503, "the server is stopping")
    }
    if let failure = plan.failure { return failure }
    if request.path.hasPrefix("/files/") { return Files.reply(request) }
    if request.path.hasPrefix("/images/") { return Images.reply(request) }
    if request.path.hasPrefix("/v1/sync/") {
      let outcome = syncChaos.serve(request)
      return outcome.reply ?? .dropped(outcome.fault.rawValue)
    }
    if request.path.hasPrefix("/v1/") { return store.handle(request, baseURL: baseURL, tokenGeneration: plan.tokenGeneration) }
    return .error(404, "no route for \(request.method) \(request.path)")
  }

  /// A summary of the routes, printed by `practice-server --help`.
  public static let routes = """
    GET  /health                                   {"status":"ok"}
    POST /admin/chaos  {"fail_next":N,"status":503,"retry_after":S,"rate_limit_next":N,
                        "expire_tokens":true,"expire_sync_tokens":true,"delay_ms":M,
                        "path":"/v1/...","reset":true}
                       (status 200-599, retry_after 0-86400 s, delay_ms 0-60000; else 400)
    POST /admin/chaos  {"sync_faults":{"seed":S,"request_lost":P,"reply_lost":P,"duplicated":P,
                        "server_error":P,"held_for_later":P}}   seeded faults on /v1/sync/ only,
                       P percent of requests each (0-100, sum at most 100; absent: 0), seed 0 or
                       more; the same seed gives the same faults in the same order. Request lost:
                       nothing applied, reply lost: applied; both close the connection with no
                       reply. Duplicated: applied twice, the second answer sent. server_error:
                       503, nothing applied. held_for_later: answered, and a copy held (at most
                       64, 16 MiB) until {"deliver_held":N} applies N of them in seeded order.
                       {"sync_faults":null} turns them off; reset also drops held copies.
    POST /v1/auth/login {"email","password"}        seeded user: ada@example.com / correct-horse
    POST /v1/auth/register {"name","email","password"}   422 with {"errors":[{"field","message"}]}
    POST /v1/auth/refresh {"refresh_token"}          rotates the refresh token; a used or
                                                     unknown one: 400 {"error":"invalid_grant"},
                                                     and a used one revokes its sign-in's
                                                     newest token too (RFC 9700 §4.14.2)
      (login, register and refresh answer {"access_token","refresh_token","expires_in":S,
       "token_type":"Bearer"}: the lifetime in seconds, RFC 6749 §5.1)
    POST /v1/auth/logout                             (auth)
    GET|PUT /v1/users/me, POST /v1/users/me/avatar (multipart)              (auth)
    GET /v1/posts?page=&limit=, GET|PUT|DELETE /v1/posts/{id}, POST /v1/posts (auth)
    GET /v1/search?q=                                                          (auth)
    GET /v1/feed?limit=N&cursor=after:<id>   PUT|DELETE /v1/posts/{id}/like (POST: 405)
    POST /v1/posts/{id}/comments (Idempotency-Key)   GET /v1/posts/{id}/comments
      (feed, like and comments work without a token; a token that is sent must be valid)
    POST /v1/sync/push {"mutations":[{"id","note","base","set":{name:value},"delete"}]}
                       1-100 per batch; mutation ids 1-64 of A-Za-z0-9-; a malformed batch:
                       400, none applied. {"results":[{"id","status","record","reason"?}]},
                       per mutation in order: more than 32 fields or a value over 4096 bytes
                       → 413, a note id (1-64 of A-Za-z0-9-) or field name (1-64 of
                       A-Za-z0-9_) outside its limits → 422, each with a reason, the rest
                       applied; an applied id again → its first result; a deleted note → 410;
                       base ≠ version → 412 with the current record; else applied, 200 (the
                       last 10000 applied ids are remembered)
    GET /v1/sync/changes?since=<token>&limit=N  {"changes":[record],"next":token,"more":bool}
                       limit 1-500 (default 100); each changed note once, latest state, in
                       change order; an old or unreadable token → 410 (expire_sync_tokens)
      (a record is {"id","version","deleted","fields"}; /v1/sync/ takes no Authorization)
    GET /images/{name}.png?w=&h=             PNG with ETag and Cache-Control; missing.png → 404;
                                             If-None-Match (weak comparison, lists, *) → 304
    GET /files/{name}?size=N[&ranges=0][&etag=X][&rate=B&delay_ms=M]   Range and If-Range
    A method a route does not serve gets 405 with Allow.
    Bad input gets 400 (413, 414, 417, 431, 501, 505) and the connection closes; see chapter 3.
    """
}
