// Exercise 1 — Requests and typed errors (beginner)
//
// Every call site of a network layer has to decide what to show the user and whether to try
// again. That is only possible if failures arrive as one small, typed vocabulary instead of raw
// `URLError`s, status codes and decoder messages. Map `URLError` codes and HTTP statuses onto
// `NetworkError`, wrap decoding failures, and give every case a sentence a user can read.
import Foundation
import Workbook

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The HTTP methods the client sends.
public nonisolated enum HTTPMethod: String, Sendable, CaseIterable {
  case get = "GET"
  case head = "HEAD"
  case post = "POST"
  case put = "PUT"
  case patch = "PATCH"
  case delete = "DELETE"
  case options = "OPTIONS"
}

/// Describes one endpoint: everything needed to build a `URLRequest`, and nothing about how it
/// is sent. Defaults cover the common case, so an endpoint states only what is special about it.
public nonisolated protocol TargetType: Sendable {
  var method: HTTPMethod { get }
  /// The path below the base URL, such as `/posts/42`. Never a query: use `query`.
  var path: String { get }
  /// Query items; the builder percent-encodes them and sorts them by name.
  var query: [String: String] { get }
  /// Headers of this request; they win over the client's default headers.
  var headers: [String: String] { get }
  var body: RequestBody? { get }
  /// Whether the request carries the access token (and may be replayed after a refresh).
  var requiresAuth: Bool { get }
  /// A key that makes a non-idempotent request safe to retry: the server applies it once.
  var idempotencyKey: String? { get }
  /// A timeout for this request only; nil means the client's default.
  var timeout: TimeInterval? { get }
  /// A canned response body for stubbed runs (tests, previews, offline demos).
  var sampleData: Data { get }
}

nonisolated extension TargetType {
  public var query: [String: String] { [:] }
  public var headers: [String: String] { [:] }
  public var body: RequestBody? { nil }
  public var requiresAuth: Bool { false }
  public var idempotencyKey: String? { nil }
  public var timeout: TimeInterval? { nil }
  public var sampleData: Data { Data() }
}

/// An endpoint that knows the type of its response, so `send` can return it decoded.
public nonisolated protocol APIRequest: TargetType {
  associatedtype Response: Decodable & Sendable
}

/// The response of an endpoint that answers with no body (204, or a body nobody reads).
public nonisolated struct EmptyResponse: Decodable, Sendable, Equatable {
  public init() {}
}

/// Everything that can go wrong with a request, in the terms the app acts on.
public nonisolated enum NetworkError: Error, Equatable, Sendable {
  /// The request could not be turned into a URL (a bad base URL or path).
  case badURL(String)
  /// The transport failed; the `URLError` code is kept for logs and for the retry decision.
  case transport(URLError.Code)
  /// The device has no connection: show an offline state, wait for connectivity.
  case offline
  /// No answer in time.
  case timeout
  /// A status outside 200–299 other than 401, with the body (often an error document) and the
  /// `Retry-After` header when the server sent one.
  case http(status: Int, body: Data, retryAfter: String? = nil)
  /// 401: the access token is missing, expired or revoked.
  case unauthorized
  /// The body did not decode; the text describes the underlying `DecodingError`.
  case decoding(String)
  /// The request body could not be encoded (a bug in the app, never worth a retry).
  case encoding(String)
  /// The caller cancelled; never shown to the user as an error.
  case cancelled
}

nonisolated extension NetworkError {
  /// Maps a `URLError` onto the cases the app acts on.
  ///
  /// No connection at all (`.notConnectedToInternet`, `.dataNotAllowed`,
  /// `.internationalRoamingOff`) means `.offline`; a timeout `.timeout`; a cancelled task `.cancelled`;
  /// everything else (a dropped connection, DNS, TLS) stays a `.transport` with its code.
  public init(_ error: URLError) {
    switch error.code {
    case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff:
      self = .offline
    case .timedOut:
      self = .timeout
    case .cancelled:
      self = .cancelled
    default:
      self = .transport(error.code)
    }
  }

  /// Maps any error thrown while sending or decoding. A `NetworkError` passes through unchanged,
  /// `CancellationError` becomes `.cancelled`, a `DecodingError` becomes `.decoding`, and any
  /// other error `.transport(.unknown)`.
  public init(mapping error: any Error) {
    switch error {
    case let error as NetworkError: self = error
    case let error as URLError: self.init(error)
    case is CancellationError: self = .cancelled
    case let error as DecodingError: self = .decoding(String(describing: error))
    default: self = .transport(.unknown)
    }
  }

  /// The error for an HTTP status, or nil when the status means success (200–299).
  ///
  /// 401 is `.unauthorized` (the client refreshes the token); every other status outside the
  /// success range is `.http` with the body and the `Retry-After` value.
  public static func check(status: Int, body: Data, retryAfter: String? = nil) -> NetworkError? {
    switch status {
    case 200..<300: return nil
    case 401: return .unauthorized
    default: return .http(status: status, body: body, retryAfter: retryAfter)
    }
  }

  /// Throws the error `check(status:body:retryAfter:)` gives for `response`'s status, body and
  /// `Retry-After` header.
  public static func check(_ response: HTTPURLResponse, body: Data) throws(NetworkError) {
    let retryAfter = response.value(forHTTPHeaderField: "Retry-After")
    if let error = check(status: response.statusCode, body: body, retryAfter: retryAfter) { throw error }
  }

  /// Decodes `data` as `T`, turning a decoder failure into `.decoding`. An empty body decodes as
  /// `EmptyResponse`; as any other type it is `.decoding`. Whether a body that is not empty is
  /// read or ignored when `T` is `EmptyResponse` is your choice.
  public static func decode<T: Decodable>(_ type: T.Type, from data: Data, using decoder: JSONDecoder) throws(NetworkError) -> T {
    if data.isEmpty, let empty = EmptyResponse() as? T { return empty }
    do {
      return try decoder.decode(T.self, from: data)
    } catch {
      throw .decoding(String(describing: error))
    }
  }

  /// Whether this is a status in the 500s: the server's fault, usually worth a later retry.
  public var isServerError: Bool {
    if case .http(let status, _, _) = self { return (500..<600).contains(status) }
    return false
  }
}

nonisolated extension NetworkError: LocalizedError {
  /// A sentence for the user. It never contains the response body, which may hold internals, nor
  /// the text that `.badURL`, `.decoding` and `.encoding` carry: that text is for logs (a decoder's
  /// message quotes keys and values of the response). The wording is yours.
  public var errorDescription: String? {
    switch self {
    case .badURL:
      return "The app built an invalid request address. Please update the app or contact support."
    case .transport(let code):
      return "A network problem stopped the request (code \(code.rawValue)). Please try again."
    case .offline:
      return "You appear to be offline. Check your connection and try again."
    case .timeout:
      return "The server took too long to answer. Please try again."
    case .http(let status, _, _) where status >= 500:
      return "The server had a problem (\(status)). Please try again later."
    case .http(let status, _, _) where status == 429:
      return "Too many requests right now. Please wait a moment and try again."
    case .http(let status, _, _):
      return "The request was not accepted (\(status))."
    case .unauthorized:
      return "Your session has expired. Please sign in again."
    case .decoding:
      return "The server sent an answer this version of the app cannot read."
    case .encoding:
      return "The app could not prepare this request. Please update the app or contact support."
    case .cancelled:
      return "The request was cancelled."
    }
  }
}
