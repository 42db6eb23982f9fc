import Foundation
import Synchronization

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

    public init(port: UInt16 = 0, tokenLifetime: TimeInterval = 3_600, postCount: Int = 200, logRequests: Bool = false) {
      self.port = port
      self.tokenLifetime = tokenLifetime
      self.postCount = postCount
      self.logRequests = logRequests
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
  public let chaos = Chaos()
  let store: APIStore
  private let listener: Mutex<HTTPListener?> = Mutex(nil)
  private let log = Mutex<(arrived: [String: Int], served: [LoggedRequest])>(([:], []))

  public init(configuration: Configuration = .init()) {
    self.configuration = configuration
    self.store = APIStore(configuration: configuration)
  }

  /// Starts serving and returns the base URL, such as `http://127.0.0.1:54321`. Calling it again
  /// while running returns the same URL.
  @discardableResult
  public func start() throws -> URL {
    let listener = listener.withLock { current -> HTTPListener in
      if let current, !current.isStopped { return current }
      let fresh = HTTPListener { [self] request, listener in handle(request, listener) }
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
  /// arrive, before any delay.
  public func requestCount(_ path: String) -> Int {
    log.withLock { $0.arrived[path] ?? 0 }
  }

  /// Every answered request, in the order the answers were made.
  public var requestLog: [LoggedRequest] { log.withLock { $0.served } }

  /// How many times `/v1/auth/refresh` has been called.
  public var refreshCount: Int { requestCount("/v1/auth/refresh") }

  /// Signs in the seeded user without HTTP and returns `(accessToken, refreshToken)`.
  public func issueTokens(email: String = APIStore.seededEmail) -> (accessToken: String, refreshToken: String) {
    store.issueTokens(email: email, generation: chaos.tokenGeneration)
  }

  private func handle(_ request: HTTPRequest, _ listener: HTTPListener) -> HTTPReply {
    log.withLock { $0.arrived[request.path, default: 0] += 1 }
    let reply = route(request, listener)
    log.withLock {
      $0.served.append(
        LoggedRequest(method: request.method, path: request.path, query: request.query, headers: request.headers, status: reply.status))
    }
    if configuration.logRequests {
      let query = request.query.isEmpty ? "" : "?" + request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
      FileHandle.standardOutput.write(Data("\(request.method) \(request.path)\(query) → \(reply.status)\n".utf8))
    }
    return reply
  }

  private func route(_ request: HTTPRequest, _ listener: HTTPListener) -> HTTPReply {
    if request.path == "/admin/chaos" { return chaos.handle(request) }
    if request.path == "/health" { return .json(200, ["status": "ok"]) }
    let plan = chaos.take(path: request.path)
    if plan.delayMilliseconds > 0, !listener.pause(milliseconds: plan.delayMilliseconds) {
      return .error(503, "the server is stopping")
    }
    if let failure = plan.failure { return failure }
    if request.path.hasPrefix("/files/") { return Files.reply(request) }
    if request.path.hasPrefix("/images/") { return Images.reply(request) }
    if request.path.hasPrefix("/v1/") { return store.handle(request, baseURL: baseURL, tokenGeneration: plan.tokenGeneration) }
    return .error(404, "no route for \(request.method) \(request.path)")
  }

  /// A summary of the routes, printed by `practice-server --help`.
  public static let routes = """
    GET  /health                                   {"status":"ok"}
    POST /admin/chaos  {"fail_next":N,"status":503,"retry_after":S,"rate_limit_next":N,
                        "expire_tokens":true,"delay_ms":M,"path":"/v1/...","reset":true}
    POST /v1/auth/login {"email","password"}        seeded user: ada@example.com / correct-horse
    POST /v1/auth/register {"name","email","password"}   422 with {"errors":[{"field","message"}]}
    POST /v1/auth/refresh {"refresh_token"}          rotates the refresh token
    POST /v1/auth/logout                             (auth)
    GET|PUT /v1/users/me, POST /v1/users/me/avatar (multipart)              (auth)
    GET /v1/posts?page=&limit=, GET|PUT|DELETE /v1/posts/{id}, POST /v1/posts (auth)
    GET /v1/search?q=                                                          (auth)
    GET /v1/feed?limit=N&cursor=after:<id>   POST|DELETE /v1/posts/{id}/like
    POST /v1/posts/{id}/comments (Idempotency-Key)   GET /v1/posts/{id}/comments
      (feed, like and comments work without a token; a token that is sent must be valid)
    GET /images/{name}.png?w=&h=             PNG with ETag and Cache-Control; missing.png → 404
    GET /files/{name}?size=N[&ranges=0][&etag=X][&rate=B&delay_ms=M]   Range and If-Range
    """
}

/// The server's failure knobs. Thread-safe; every change applies to requests that arrive after it.
public final class Chaos: Sendable {
  struct Plan {
    var failure: HTTPReply?
    var delayMilliseconds = 0
    var tokenGeneration = 0
  }

  private struct State {
    var failNext = 0
    var failStatus = 503
    var failRetryAfter: Int? = 1
    var rateLimitNext = 0
    var rateLimitRetryAfter = 1
    var delayMilliseconds = 0
    /// Only requests whose path starts with this are affected (nil: all but /health, /admin).
    var path: String?
    /// Tokens issued in an earlier generation are expired.
    var tokenGeneration = 0
  }

  private let state = Mutex(State())

  init() {}

  var tokenGeneration: Int { state.withLock { $0.tokenGeneration } }

  /// The next `count` requests fail with `status` (503 by default) and `Retry-After: seconds`
  /// (none when nil).
  public func failNext(_ count: Int, status: Int = 503, retryAfter seconds: Int? = 1) {
    state.withLock {
      $0.failNext = count
      $0.failStatus = status
      $0.failRetryAfter = seconds
    }
  }

  /// The next `count` requests get 429 with `Retry-After: seconds`.
  public func rateLimitNext(_ count: Int, retryAfter seconds: Int = 1) {
    state.withLock {
      $0.rateLimitNext = count
      $0.rateLimitRetryAfter = seconds
    }
  }

  /// Every access token issued so far is expired: the next authenticated call gets 401. Refresh
  /// tokens stay valid, so a refresh works.
  public func expireTokens() {
    state.withLock { $0.tokenGeneration += 1 }
  }

  /// Every response waits `milliseconds` before it is written (0 turns it off).
  public func delay(milliseconds: Int) {
    state.withLock { $0.delayMilliseconds = max(0, milliseconds) }
  }

  /// Limits the knobs to paths starting with `prefix` (nil: every path but /health and /admin).
  public func only(pathPrefix prefix: String?) {
    state.withLock { $0.path = prefix }
  }

  /// Turns every knob off (expired tokens stay expired).
  public func reset() {
    state.withLock { state in
      let generation = state.tokenGeneration
      state = State()
      state.tokenGeneration = generation
    }
  }

  func take(path: String) -> Plan {
    state.withLock { state in
      var plan = Plan(tokenGeneration: state.tokenGeneration)
      if let prefix = state.path, !path.hasPrefix(prefix) { return plan }
      plan.delayMilliseconds = state.delayMilliseconds
      if state.failNext > 0 {
        state.failNext -= 1
        let headers = state.failRetryAfter.map { [("Retry-After", String($0))] } ?? []
        plan.failure = .error(state.failStatus, "chaos: failing on purpose", headers: headers)
      } else if state.rateLimitNext > 0 {
        state.rateLimitNext -= 1
        plan.failure = .error(429, "chaos: too many requests", headers: [("Retry-After", String(state.rateLimitRetryAfter))])
      }
      return plan
    }
  }

  func handle(_ request: HTTPRequest) -> HTTPReply {
    guard request.method == "POST" else { return .error(405, "POST a JSON object of knobs") }
    let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] ?? [:]
    if object["reset"] as? Bool == true { reset() }
    let path = object["path"] as? String
    if object["path"] != nil { only(pathPrefix: path) }
    if let count = object["fail_next"] as? Int {
      failNext(count, status: object["status"] as? Int ?? 503, retryAfter: object["retry_after"] as? Int ?? 1)
    }
    if let count = object["rate_limit_next"] as? Int { rateLimitNext(count, retryAfter: object["retry_after"] as? Int ?? 1) }
    if object["expire_tokens"] as? Bool == true { expireTokens() }
    if let delay = object["delay_ms"] as? Int { self.delay(milliseconds: delay) }
    return state.withLock { state in
      .json(
        200,
        [
          "fail_next": state.failNext, "status": state.failStatus, "rate_limit_next": state.rateLimitNext,
          "delay_ms": state.delayMilliseconds, "path": state.path.map { $0 as Any } ?? NSNull(),
          "token_generation": state.tokenGeneration,
        ])
    }
  }
}
