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
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }

  public static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .iso8601
    return decoder
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
    var body = Data()
    func line(_ text: String) { body.append(Data((text + "\r\n").utf8)) }
    for part in parts {
      line("--\(boundary)")
      var disposition = "Content-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
      if let filename = part.filename { disposition += "; filename=\"\(Self.quoted(filename))\"" }
      line(disposition)
      if let contentType = part.contentType { line("Content-Type: \(contentType)") }
      line("")
      body.append(part.data)
      line("")
    }
    line("--\(boundary)--")
    return body
  }

  /// `text` made safe to put between double quotes in a header: `"`, CR and LF percent-encoded.
  static func quoted(_ text: String) -> String {
    var result = ""
    for character in text.unicodeScalars {
      switch character {
      case "\"": result += "%22"
      case "\r": result += "%0D"
      case "\n": result += "%0A"
      default: result.unicodeScalars.append(character)
      }
    }
    return result
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
    guard let scheme = baseURL.scheme, !scheme.isEmpty, let host = baseURL.host, !host.isEmpty else {
      throw .badURL(baseURL.absoluteString)
    }
    guard !target.path.contains("?"), !target.path.contains("#") else { throw .badURL(target.path) }
    var base = baseURL.absoluteString
    while base.hasSuffix("/") { base.removeLast() }
    let path = target.path.hasPrefix("/") ? target.path : "/" + target.path
    var text = base + path
    let items = target.query.sorted { $0.key == $1.key ? $0.value < $1.value : $0.key < $1.key }
    if !items.isEmpty {
      text += "?" + items.map { Self.encode($0.key) + "=" + Self.encode($0.value) }.joined(separator: "&")
    }
    guard let url = URL(string: text) else { throw .badURL(text) }
    return url
  }

  static func encode(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
  }

  /// The complete request: URL, method, headers (defaults, then the target's, which win), the
  /// `Idempotency-Key` header when the target has a key, the body with its `Content-Type`, and the
  /// timeout (the target's or the default).
  ///
  /// The target's own headers win over everything the builder sets: a target that names its own
  /// `Content-Type` (`application/merge-patch+json` for a JSON body) or `Idempotency-Key` sends
  /// that one. A body that cannot be encoded throws `.encoding`; what its text says is your choice.
  public func makeRequest(for target: some TargetType) throws(NetworkError) -> URLRequest {
    var request = URLRequest(url: try url(for: target))
    request.httpMethod = target.method.rawValue
    request.timeoutInterval = target.timeout ?? defaultTimeout
    for (name, value) in defaultHeaders { request.setValue(value, forHTTPHeaderField: name) }
    switch target.body {
    case nil:
      break
    case .json(let value):
      do {
        request.httpBody = try JSONCoding.encoder().encode(value)
      } catch {
        throw .encoding(String(describing: error))
      }
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    case .data(let data, let contentType):
      request.httpBody = data
      request.setValue(contentType, forHTTPHeaderField: "Content-Type")
    case .multipart(let form):
      request.httpBody = form.encoded()
      request.setValue(form.contentType, forHTTPHeaderField: "Content-Type")
    }
    if let key = target.idempotencyKey { request.setValue(key, forHTTPHeaderField: "Idempotency-Key") }
    for (name, value) in target.headers { request.setValue(value, forHTTPHeaderField: name) }
    return request
  }
}
