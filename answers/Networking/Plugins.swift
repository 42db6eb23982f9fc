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
    var request = request
    for plugin in plugins { request = try await plugin.prepare(request, context: context) }
    return request
  }

  public func willSend(_ request: URLRequest, context: RequestContext) {
    for plugin in plugins { plugin.willSend(request, context: context) }
  }

  public func didReceive(_ result: Result<HTTPResponse, NetworkError>, for request: URLRequest, context: RequestContext) {
    for plugin in plugins { plugin.didReceive(result, for: request, context: context) }
  }

  /// Each plugin processes the result the previous one returned.
  public func process(_ result: Result<HTTPResponse, NetworkError>, context: RequestContext) -> Result<HTTPResponse, NetworkError> {
    var result = result
    for plugin in plugins { result = plugin.process(result, context: context) }
    return result
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
    guard context.requiresAuth, let token = await token(), !token.isEmpty else { return request }
    var request = request
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    return request
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
    sensitiveFields.contains(name.lowercased().filter { $0 != "_" && $0 != "-" })
  }

  /// The headers with secret values masked, whatever the letter case of their names.
  public static func headers(_ headers: [String: String]) -> [String: String] {
    var result: [String: String] = [:]
    for (name, value) in headers {
      result[name] = sensitiveHeaders.contains(name.lowercased()) ? mask : value
    }
    return result
  }

  /// The URL as text with the values of secret query items masked (a URL lands in logs whole).
  /// Other query items stay as they are, in their order. Whether the mask appears as it is
  /// (`token=<redacted>`) or percent-encoded (`token=%3Credacted%3E`) is your choice.
  public static func url(_ url: URL) -> String {
    let text = url.absoluteString
    guard let question = text.firstIndex(of: "?") else { return text }
    let fragmentStart = text[question...].firstIndex(of: "#") ?? text.endIndex
    let query = text[text.index(after: question)..<fragmentStart]
    let masked = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
      let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
      return isSensitiveField(name.removingPercentEncoding ?? name) ? "\(name)=\(mask)" : String(pair)
    }
    return String(text[...question]) + masked.joined(separator: "&") + String(text[fragmentStart...])
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
    guard !data.isEmpty else { return "" }
    guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
      object is [String: Any] || object is [Any],
      let masked = try? JSONSerialization.data(withJSONObject: redact(object), options: [.sortedKeys]),
      let text = String(data: masked, encoding: .utf8)
    else { return "<\(data.count) bytes>" }
    return text
  }

  static func redact(_ value: Any) -> Any {
    if let dictionary = value as? [String: Any] {
      var result: [String: Any] = [:]
      for (key, value) in dictionary {
        result[key] = isSensitiveField(key) ? mask : redact(value)
      }
      return result
    }
    if let array = value as? [Any] { return array.map(redact) }
    return value
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
    let method = request.httpMethod ?? "GET"
    let target = request.url.map(Redactor.url) ?? "?"
    sink("→ \(method) \(target) (attempt \(context.attempt))")
    for (name, value) in Redactor.headers(request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
      sink("  \(name): \(value)")
    }
    if let body = request.httpBody, !body.isEmpty { sink("  body: \(Redactor.body(body))") }
  }

  public func didReceive(_ result: Result<HTTPResponse, NetworkError>, for request: URLRequest, context: RequestContext) {
    let target = request.url.map(Redactor.url) ?? "?"
    switch result {
    case .success(let response):
      sink("← \(response.status) \(target) (\(response.data.count) bytes)")
      for (name, value) in Redactor.headers(response.headers).sorted(by: { $0.key < $1.key }) {
        sink("  \(name): \(value)")
      }
      if !response.data.isEmpty { sink("  body: \(Redactor.body(response.data))") }
    case .failure(let error):
      let body: Data
      if case .http(_, let data, _) = error { body = data } else { body = Data() }
      sink("← failed \(target): \(Self.describe(error))")
      if !body.isEmpty { sink("  body: \(Redactor.body(body))") }
    }
  }

  static func describe(_ error: NetworkError) -> String {
    switch error {
    case .http(let status, _, _): return "HTTP \(status)"
    case .transport(let code): return "transport error \(code.rawValue)"
    case .decoding: return "decoding failed"
    case .encoding: return "encoding failed"
    case .badURL: return "bad URL"
    default: return "\(error)"
    }
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
    let now = clock.now
    state.withLock { state in
      state.metrics.requests += 1
      if context.attempt > 1 { state.metrics.retries += 1 }
      state.started[context.id] = now
    }
  }

  /// A success is a response with a status in 200–299; anything else is a failure, a cancelled
  /// attempt included (it was sent and did not succeed). An attempt's duration runs from its
  /// `willSend` to its `didReceive`, matched by `context.id`.
  public func didReceive(_ result: Result<HTTPResponse, NetworkError>, for request: URLRequest, context: RequestContext) {
    let now = clock.now
    state.withLock { state in
      if case .success(let response) = result, (200..<300).contains(response.status) {
        state.metrics.successes += 1
      } else {
        state.metrics.failures += 1
      }
      if let start = state.started.removeValue(forKey: context.id) {
        state.metrics.durations.append(start.duration(to: now))
      }
    }
  }
}
