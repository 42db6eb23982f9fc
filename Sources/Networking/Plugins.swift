// Exercise 5 — Plugins: tokens, redacted logs, metrics (intermediate)
//
// Cross-cutting work (adding the token, logging, counting) belongs in small plugins that the
// manager calls at four points of every attempt, in order: prepare the request, it will be sent,
// a result was received, process the result. Write the chain and three plugins. The logger is
// the dangerous one: a log line is copied to consoles, crash reports and support tickets, so
// tokens, cookies, API keys, passwords and emails must never reach it, whatever their case.
import Foundation
import Synchronization
import Workbook

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// Given — the response, the context of an attempt and the plugin protocol; write the rest.
/// A received HTTP response: status, headers and body.
public nonisolated struct HTTPResponse: Sendable, Equatable {
  public var status: Int
  public var headers: [String: String]
  public var data: Data

  public init(status: Int, headers: [String: String] = [:], data: Data = Data()) {
    self.status = status
    self.headers = headers
    self.data = data
  }
}

/// What a plugin knows about the attempt it sees.
public nonisolated struct RequestContext: Sendable, Equatable {
  /// Which call the attempt belongs to.
  public var id: Int
  /// 1 for the first attempt, 2 for the first retry, …
  public var attempt: Int
  public var requiresAuth: Bool

  public init(id: Int, attempt: Int = 1, requiresAuth: Bool = false) {
    self.id = id
    self.attempt = attempt
    self.requiresAuth = requiresAuth
  }
}

/// A hook into every attempt, at four points; a plugin implements only the ones it needs.
public nonisolated protocol NetworkPlugin: Sendable {
  /// May change the request before it is sent (add a header, sign it).
  func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest
  /// The request, as prepared, is about to go out.
  func willSend(_ request: URLRequest, context: RequestContext)
  /// The attempt finished, with a response or an error.
  func didReceive(_ result: Result<HTTPResponse, NetworkError>, for request: URLRequest, context: RequestContext)
  /// May change the result before the caller sees it.
  func process(_ result: Result<HTTPResponse, NetworkError>, context: RequestContext) -> Result<HTTPResponse, NetworkError>
}

// Given — the defaults: a plugin implements only the points it needs.
nonisolated extension NetworkPlugin {
  public func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest { request }
  public func willSend(_ request: URLRequest, context: RequestContext) {}
  public func didReceive(_ result: Result<HTTPResponse, NetworkError>, for request: URLRequest, context: RequestContext) {}
  public func process(_ result: Result<HTTPResponse, NetworkError>, context: RequestContext) -> Result<HTTPResponse, NetworkError> {
    result
  }
}

/// The plugins of a client, called in the order they were given at every one of the four points.
public nonisolated struct PluginChain: Sendable {
  public let plugins: [any NetworkPlugin]

  public init(_ plugins: [any NetworkPlugin]) {
    self.plugins = plugins
  }

  /// Each plugin prepares the request the previous one returned.
  public func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
    // TODO: call every plugin's prepare, in order, each on the previous one's request.
    throw NotImplemented("PluginChain.prepare")
  }

  public func willSend(_ request: URLRequest, context: RequestContext) {
    // TODO: tell every plugin, in order (this empty body tells nobody).
  }

  public func didReceive(_ result: Result<HTTPResponse, NetworkError>, for request: URLRequest, context: RequestContext) {
    // TODO: tell every plugin, in order (this empty body tells nobody).
  }

  /// Each plugin processes the result the previous one returned.
  public func process(_ result: Result<HTTPResponse, NetworkError>, context: RequestContext) -> Result<HTTPResponse, NetworkError> {
    // TODO: pass the result through every plugin in turn (placeholder: it is returned unchanged).
    result
  }
}

/// Adds `Authorization: Bearer <token>` to requests that require authentication, and nothing
/// at all when there is no token (nil or empty): an empty `Bearer ` header is a malformed
/// request, not a missing login, and some servers answer it with 400 instead of 401. The header
/// replaces any `Authorization` the request already had; a request has one, never two. For a
/// request that does not require auth, `token` is not called at all: it may wait for a refresh,
/// and the refresh request itself is one of those that do not require auth.
public nonisolated struct AccessTokenPlugin: NetworkPlugin {
  private let token: @Sendable () async -> String?

  public init(token: @escaping @Sendable () async -> String?) {
    self.token = token
  }

  public func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
    // TODO: add `Authorization: Bearer <token>` when the request requires auth and there is one.
    throw NotImplemented("AccessTokenPlugin.prepare")
  }
}

/// Hides secrets in what gets logged.
public nonisolated enum Redactor {
  /// What replaces a secret.
  public static let mask = "<redacted>"
  /// Header names whose values are secret, lowercased: header names are case-insensitive.
  public static let sensitiveHeaders: Set<String> = ["authorization", "cookie", "set-cookie", "x-api-key"]
  /// JSON keys and query names whose values are secret, lowercased, without `_` and `-`:
  /// `access_token`, `accessToken` and `Access-Token` are all the same name. A name is secret when
  /// it is one of these, not when it contains one: `token_type` and `email_verified` are logged.
  public static let sensitiveFields: Set<String> = ["password", "token", "accesstoken", "refreshtoken", "email"]

  static func isSensitiveField(_ name: String) -> Bool {
    // TODO: compare lowercased, without `-` and `_`, to `sensitiveFields` (placeholder: false).
    false
  }

  /// The headers with secret values masked, whatever the letter case of their names.
  public static func headers(_ headers: [String: String]) -> [String: String] {
    // TODO: mask secret header values, whatever the case (placeholder: unchanged).
    headers
  }

  /// The URL as text with the values of secret query items masked (a URL lands in logs whole).
  /// Other query items stay as they are, in their order. Whether the mask appears as it is
  /// (`token=<redacted>`) or percent-encoded (`token=%3Credacted%3E`) is your choice.
  public static func url(_ url: URL) -> String {
    // TODO: mask the values of secret query items (placeholder: the URL as it is).
    url.absoluteString
  }

  /// A body for the log: JSON with secret fields masked at any depth (compact, keys sorted), or
  /// only its size, as `<N bytes>`, when it is not a JSON object or array (it could be a form or
  /// a file, and nobody checked it for secrets). Whether an empty body is "" or `<0 bytes>` is your
  /// choice.
  ///
  /// A secret field's value is masked whole, whatever it is: a string, a number, `true`, `null`,
  /// an object or an array (`{"token": {"value": "…"}}` becomes `{"token":"<redacted>"}`). Whether
  /// `/` is written `\/`, as `JSONSerialization` does by default, is your choice.
  public static func body(_ data: Data) -> String {
    // TODO: masked JSON, or `<N bytes>` for anything else (placeholder: the raw text).
    String(decoding: data, as: UTF8.self)
  }

  static func redact(_ value: Any) -> Any {
    // TODO: walk objects and arrays, masking secret fields (placeholder: unchanged).
    value
  }
}

/// Logs every attempt and its result, one line per fact, with every secret redacted: the method
/// and URL (through `Redactor.url`), each header as `Name: value`, and the body through
/// `Redactor.body`; for the result, its status, or the error. The wording, the order of the
/// lines, and whether an error's body is logged (redacted) are your choice; what is checked is
/// that no secret gets through and that the method, the status, harmless headers, query items
/// and body fields do.
public nonisolated struct LoggingPlugin: NetworkPlugin {
  private let sink: @Sendable (String) -> Void

  /// `sink` receives each line: `print`, an `os.Logger`, or a test's recorder.
  public init(sink: @escaping @Sendable (String) -> Void) {
    self.sink = sink
  }

  public func willSend(_ request: URLRequest, context: RequestContext) {
    // TODO: log the method, redacted URL, headers and body (this empty body logs nothing).
  }

  public func didReceive(_ result: Result<HTTPResponse, NetworkError>, for request: URLRequest, context: RequestContext) {
    // TODO: log the status and redacted body, or the error (this empty body logs nothing).
  }

  static func describe(_ error: NetworkError) -> String {
    // TODO: describe the error without its body (placeholder: everything, body included).
    "\(error)"
  }
}

/// Counts attempts and measures their durations on an injected clock.
public nonisolated final class MetricsPlugin<C: Clock>: NetworkPlugin where C.Duration == Duration {
  /// A snapshot of what was counted.
  public struct Metrics: Sendable, Equatable {
    /// Attempts sent, retries included.
    public var requests = 0
    public var successes = 0
    public var failures = 0
    /// Attempts after the first of their request.
    public var retries = 0
    /// The duration of every finished attempt, in order.
    public var durations: [Duration] = []

    // Given — worked out from the counts you keep.
    /// Successes among finished attempts.
    public var successRate: Double {
      let finished = successes + failures
      return finished == 0 ? 0 : Double(successes) / Double(finished)
    }
  }

  private struct State {
    var metrics = Metrics()
    var started: [Int: C.Instant] = [:]
  }

  private let clock: C
  private let state = Mutex(State())

  public init(clock: C) {
    self.clock = clock
  }

  public var metrics: Metrics { state.withLock { $0.metrics } }

  public func willSend(_ request: URLRequest, context: RequestContext) {
    // TODO: count the attempt (and a retry) and note when it started (this empty body counts nothing).
  }

  /// A success is a response with a status in 200–299; anything else is a failure, a cancelled
  /// attempt included (it was sent and did not succeed). An attempt's duration runs from its
  /// `willSend` to its `didReceive`, matched by `context.id`.
  public func didReceive(_ result: Result<HTTPResponse, NetworkError>, for request: URLRequest, context: RequestContext) {
    // TODO: count a success or a failure and record how long it took (this empty body counts nothing).
  }
}
