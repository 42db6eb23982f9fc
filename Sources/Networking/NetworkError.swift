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

// Given — the vocabulary of the chapter: methods, endpoints, responses and the error cases.
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

// Given — the defaults, so an endpoint states only what is special about it.
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
    // TODO: map not connected → .offline, timed out → .timeout, cancelled → .cancelled.
    // Placeholder: every code stays a `.transport`, which looks right and is not.
    self = .transport(error.code)
  }

  /// Maps any error thrown while sending or decoding. A `NetworkError` passes through unchanged,
  /// `CancellationError` becomes `.cancelled`, a `DecodingError` becomes `.decoding`, and any
  /// other error `.transport(.unknown)`.
  public init(mapping error: any Error) {
    // TODO: pass a NetworkError through, map cancellation, decoding and URLError (placeholder).
    self = .transport(.unknown)
  }

  /// The error for an HTTP status, or nil when the status means success (200–299).
  ///
  /// 401 is `.unauthorized` (the client refreshes the token); every other status outside the
  /// success range is `.http` with the body and the `Retry-After` value.
  public static func check(status: Int, body: Data, retryAfter: String? = nil) -> NetworkError? {
    // TODO: nil for 200–299, `.unauthorized` for 401, `.http` otherwise (placeholder: always nil).
    nil
  }

  // Given — it reads the header and calls `check(status:body:retryAfter:)` above.
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
    // TODO: decode with `decoder` (an empty body as `EmptyResponse`), wrap failures in `.decoding`.
    throw .decoding(NotImplemented("NetworkError.decode").description)
  }

  /// Whether this is a status in the 500s: the server's fault, usually worth a later retry.
  public var isServerError: Bool {
    // TODO: true for `.http` with a status in 500–599 (placeholder: false).
    false
  }
}

nonisolated extension NetworkError: LocalizedError {
  /// A sentence for the user. It never contains the response body, which may hold internals, nor
  /// the text that `.badURL`, `.decoding` and `.encoding` carry: that text is for logs (a decoder's
  /// message quotes keys and values of the response). The wording is yours.
  public var errorDescription: String? {
    // TODO: one sentence per case, never the body (placeholder: nil).
    nil
  }
}
