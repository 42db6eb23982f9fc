// Exercise 2 — Building requests (intermediate)
//
// Turn a `TargetType` into a `URLRequest`. The details are where real apps break: a base URL of
// `https://api.example.com/v1` must keep its `/v1`; a query value with `&`, `+` or spaces must be
// percent-encoded; the same query must produce the same URL every time (caches and signatures
// depend on it); JSON uses snake_case keys and ISO-8601 dates; a multipart body must be exact to
// the byte, CRLFs included.
import Foundation
import Workbook

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

// Given — the kinds of body; write the JSON conventions and the multipart encoding below.
/// What a request sends as its body.
public nonisolated enum RequestBody: Sendable {
  /// A value encoded with `JSONCoding.encoder()`; sent as `application/json`.
  case json(any Encodable & Sendable)
  /// Raw bytes with their content type.
  case data(Data, contentType: String)
  /// A `multipart/form-data` body, for file uploads.
  case multipart(MultipartFormData)
}

/// The JSON conventions of the API: snake_case keys and ISO-8601 dates, both ways, and the
/// encoder sorts keys, so one value always gives the same bytes (for signatures, caches, tests).
public nonisolated enum JSONCoding {
  public static func encoder() -> JSONEncoder {
    // TODO: snake_case keys, ISO-8601 dates, sorted keys (placeholder: a default encoder).
    JSONEncoder()
  }

  public static func decoder() -> JSONDecoder {
    // TODO: snake_case keys and ISO-8601 dates (placeholder: a default decoder).
    JSONDecoder()
  }
}

/// A `multipart/form-data` body (RFC 7578): fields and files separated by a boundary.
public nonisolated struct MultipartFormData: Sendable, Equatable {
  /// One field or file.
  public struct Part: Sendable, Equatable {
    public var name: String
    public var filename: String?
    public var contentType: String?
    public var data: Data
  }

  /// The line between parts, which must not occur in any part: the default is a fresh UUID.
  public let boundary: String
  public private(set) var parts: [Part] = []

  public init(boundary: String = "Boundary-\(UUID().uuidString)") {
    self.boundary = boundary
  }

  /// Adds a text field.
  public mutating func append(_ value: String, name: String) {
    parts.append(Part(name: name, filename: nil, contentType: nil, data: Data(value.utf8)))
  }

  /// Adds a file.
  public mutating func append(_ data: Data, name: String, filename: String, contentType: String) {
    parts.append(Part(name: name, filename: filename, contentType: contentType, data: data))
  }

  /// The value of the `Content-Type` header, which carries the boundary.
  public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

  /// The body: for every part `--boundary`, its headers, an empty line and its bytes, each line
  /// ended by CRLF; then `--boundary--` and a CRLF.
  ///
  /// A field name or filename goes inside double quotes in the `Content-Disposition` header, so
  /// it must not be able to end the quotes or the line: as browsers do (the WHATWG HTML standard's
  /// multipart/form-data encoding), `"` is written `%22`, CR `%0D` and LF `%0A`; everything else,
  /// non-ASCII included, is sent as UTF-8 (RFC 7578 §4.2). Without it, a filename such as
  /// `a.png"\r\nX-Injected: 1` adds a header of the sender's choosing to the part.
  public func encoded() -> Data {
    // TODO: write each part between boundaries, CRLF line ends, names escaped (placeholder: empty).
    Data()
  }
}

/// Turns targets into `URLRequest`s against one base URL.
public nonisolated struct RequestBuilder: Sendable {
  /// The API root, possibly with a path prefix such as `/v1` that every request keeps.
  public var baseURL: URL
  /// Headers on every request, such as `Accept` or the app version. A target's own headers win.
  public var defaultHeaders: [String: String]
  /// The timeout of a request whose target does not set one.
  public var defaultTimeout: TimeInterval

  public init(
    baseURL: URL, defaultHeaders: [String: String] = ["Accept": "application/json"], defaultTimeout: TimeInterval = 30
  ) {
    self.baseURL = baseURL
    self.defaultHeaders = defaultHeaders
    self.defaultTimeout = defaultTimeout
  }

  /// The characters left as they are in a query name or value (RFC 3986 "unreserved"); every
  /// other byte is percent-encoded, `&`, `=`, `+` and spaces included.
  static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  /// The URL of `target`: base URL, its path prefix kept, the target's path, and the query
  /// percent-encoded and sorted by name, so equal targets give equal URLs. The names are sorted
  /// as the target gives them, before encoding, with Swift's `<` on `String` (so `z` comes before
  /// `é`, whose encoding `%C3%A9` would sort first). No query, no `?`.
  ///
  /// Throws `.badURL` when the base URL has no scheme or host, or the path carries `?` or `#`.
  public func url(for target: some TargetType) throws(NetworkError) -> URL {
    // TODO: append the path to the base URL's path, add the sorted, encoded query.
    throw .badURL(NotImplemented("RequestBuilder.url(for:)").description)
  }

  static func encode(_ text: String) -> String {
    // TODO: percent-encode every byte outside `unreserved` (placeholder: the text unchanged).
    text
  }

  /// The complete request: URL, method, headers (defaults, then the target's, which win), the
  /// `Idempotency-Key` header when the target has a key, the body with its `Content-Type`, and the
  /// timeout (the target's or the default).
  ///
  /// The target's own headers win over everything the builder sets: a target that names its own
  /// `Content-Type` (`application/merge-patch+json` for a JSON body) or `Idempotency-Key` sends
  /// that one. A body that cannot be encoded throws `.encoding`; what its text says is your choice.
  public func makeRequest(for target: some TargetType) throws(NetworkError) -> URLRequest {
    // TODO: the URL, method, headers, idempotency key, body with its type, and timeout.
    throw .encoding(NotImplemented("RequestBuilder.makeRequest(for:)").description)
  }
}
