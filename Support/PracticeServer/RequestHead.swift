import Foundation

/// A request's line and header fields, checked, and how its body is framed.
///
/// Everything here follows one rule of RFC 9112: when a message could be read two ways, refuse
/// it. A server and a proxy (or a client) that frame a message differently disagree on where the
/// next request starts, and that disagreement is request smuggling.
struct RequestHead {
  /// How the body that follows the head is delimited (RFC 9112 §6.3).
  enum Framing: Equatable {
    case none
    case length(Int)
    case chunked
  }

  var method: String
  var path: String
  var query: [String: String]
  /// 0 for HTTP/1.0, 1 for HTTP/1.1.
  var minorVersion: Int
  /// Lowercased name → value; a repeated field's values joined with ", " (RFC 9110 §5.3).
  var headers: [String: String]
  var framing: Framing
  /// The client asked to close after this response, or speaks HTTP/1.0 without asking to keep
  /// the connection alive (RFC 9112 §9.3, and its appendix C.2.2 for HTTP/1.0's `keep-alive`).
  var wantsClose: Bool
  /// `Expect: 100-continue`: the client waits for a `100 Continue` before it sends the body.
  var expectsContinue: Bool

  /// The request line the server saw, for the learner's console.
  var summary: String { "\(method) \(path)" }

  // swift-format-ignore: FunctionBodyLength
  /// Parses and checks the lines `HeadScanner` found in `bytes`.
  static func parse(_ bytes: ArraySlice<UInt8>, _ head: HeadScanner.Head, limits: PracticeServer.Limits) throws(RequestError) -> RequestHead {
    let base = bytes.startIndex
    let line = bytes[(base + head.requestLine.lowerBound)..<(base + head.requestLine.upperBound)]
    let parts = line.split(separator: ASCII.space, omittingEmptySubsequences: false)
    guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else {
      throw RequestError(400, "a request line is METHOD, one space, target, one space, HTTP/1.1 (RFC 9112 §3)")
    }
    guard ASCII.isToken(parts[0]) else { throw RequestError(400, "the method is not a token (RFC 9110 §9.1)") }
    let minorVersion = try version(parts[2])
    let method = String(decoding: parts[0], as: UTF8.self).uppercased()
    let (path, query) = try target(parts[1], method: method)

    var headers: [String: String] = [:]
    var contentLengths: [String] = []
    var transferCodings: [String] = []
    var hostFields = 0
    for range in head.fieldLines {
      let field = bytes[(base + range.lowerBound)..<(base + range.upperBound)]
      guard let first = field.first, first != ASCII.space, first != ASCII.tab else {
        throw RequestError(400, "a header line starts with whitespace: folded headers (obs-fold) are not accepted (RFC 9112 §5.2)")
      }
      guard let colon = field.firstIndex(of: ASCII.colon) else { throw RequestError(400, "a header line has no colon (RFC 9112 §5)") }
      let nameBytes = field[field.startIndex..<colon]
      guard ASCII.isToken(nameBytes) else {
        throw RequestError(400, "a header name is not a token; no whitespace may come before the colon (RFC 9112 §5.1)")
      }
      let name = String(decoding: nameBytes, as: UTF8.self).lowercased()
      var valueBytes = field[field.index(after: colon)...]
      while let byte = valueBytes.first, byte == ASCII.space || byte == ASCII.tab { valueBytes.removeFirst() }
      while let byte = valueBytes.last, byte == ASCII.space || byte == ASCII.tab { valueBytes.removeLast() }
      guard let value = String(validating: valueBytes, as: UTF8.self) else {
        throw RequestError(400, "the value of \(name) is not UTF-8: this server reads header values as UTF-8 text")
      }
      switch name {
      case "content-length": contentLengths.append(value)
      case "transfer-encoding": transferCodings.append(value)
      case "host": hostFields += 1
      default: break
      }
      headers[name] = headers[name].map { "\($0), \(value)" } ?? value
    }

    if minorVersion >= 1 && hostFields != 1 {
      throw RequestError(
        400, hostFields == 0 ? "an HTTP/1.1 request must have a Host header (RFC 9112 §3.2)" : "more than one Host header (RFC 9112 §3.2)")
    }
    let framing = try framing(contentLengths: contentLengths, transferCodings: transferCodings, minorVersion: minorVersion, limits: limits)
    let connection = list(headers["connection"]).map { $0.lowercased() }
    var expectsContinue = false
    if let expect = headers["expect"] {
      guard expect.lowercased() == "100-continue" else {
        throw RequestError(417, "the only expectation this server meets is Expect: 100-continue (RFC 9110 §10.1.1)")
      }
      expectsContinue = minorVersion >= 1
    }
    return RequestHead(
      method: method, path: path, query: query, minorVersion: minorVersion, headers: headers, framing: framing,
      wantsClose: connection.contains("close") || (minorVersion == 0 && !connection.contains("keep-alive")), expectsContinue: expectsContinue)
  }

  /// `HTTP/1.1` → 1. Another major version gets 505; anything else is not a version (400).
  private static func version(_ text: ArraySlice<UInt8>) throws(RequestError) -> Int {
    let bytes = Array(text)
    guard bytes.count == 8, bytes.starts(with: Array("HTTP/".utf8)), ASCII.isDigit(bytes[5]), bytes[6] == 0x2E, ASCII.isDigit(bytes[7]) else {
      throw RequestError(400, "the request line must end with the protocol version, HTTP/1.1 (RFC 9112 §2.3)")
    }
    guard bytes[5] == 0x31 else {
      throw RequestError(505, "this server speaks HTTP/1.1 only; it got HTTP/\(bytes[5] - 0x30).\(bytes[7] - 0x30) (RFC 9110 §15.6.6)")
    }
    // A later 1.x is answered as 1.1, the highest minor version this server speaks (RFC 9110 §2.5).
    return min(1, Int(bytes[7] - 0x30))
  }

  /// The path (still percent-encoded) and the decoded query of a request target: origin-form
  /// (`/path?query`), absolute-form (`http://host/path`) or `*` for OPTIONS (RFC 9112 §3.2).
  private static func target(_ text: ArraySlice<UInt8>, method: String) throws(RequestError) -> (String, [String: String]) {
    guard text.allSatisfy(ASCII.isURICharacter) else {
      throw RequestError(400, "the request target holds a character a URI cannot hold unencoded, such as a quote or a brace (RFC 3986 §2)")
    }
    var index = text.startIndex
    while let percent = text[index...].firstIndex(of: ASCII.percent) {
      let digits = text[text.index(after: percent)...].prefix(2)
      guard digits.count == 2, digits.allSatisfy({ ASCII.hexValue($0) != nil }) else {
        throw RequestError(400, "a % in the request target must be followed by two hex digits (RFC 3986 §2.1)")
      }
      index = digits.endIndex
    }
    let string = String(decoding: text, as: UTF8.self)
    if string == "*" && method == "OPTIONS" { return ("*", [:]) }
    let lowercased = string.lowercased()
    guard string.hasPrefix("/") || lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://"),
      let components = URLComponents(string: string)
    else {
      throw RequestError(400, "the request target must be a path starting with / or an absolute http URL (RFC 9112 §3.2)")
    }
    var query: [String: String] = [:]
    for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
    let path = components.percentEncodedPath
    return (path.isEmpty ? "/" : path, query)
  }

  /// How the body is delimited, from Content-Length and Transfer-Encoding (RFC 9112 §6.1, §6.3).
  private static func framing(
    contentLengths: [String], transferCodings: [String], minorVersion: Int, limits: PracticeServer.Limits
  ) throws(RequestError) -> Framing {
    if !transferCodings.isEmpty {
      guard minorVersion >= 1 else {
        throw RequestError(400, "Transfer-Encoding in an HTTP/1.0 request cannot be trusted (RFC 9112 §6.1)")
      }
      guard contentLengths.isEmpty else {
        throw RequestError(400, "both Transfer-Encoding and Content-Length: the body's length is ambiguous (RFC 9112 §6.1, §6.3)")
      }
      let codings = transferCodings.flatMap { list($0) }.map { $0.lowercased() }
      guard codings.last == "chunked" else {
        throw RequestError(400, "chunked must be the last transfer coding of a request, or its length is unknown (RFC 9112 §6.3)")
      }
      let others = codings.dropLast()
      guard !others.contains("chunked") else { throw RequestError(400, "chunked may be applied only once (RFC 9112 §7)") }
      guard others.isEmpty else {
        throw RequestError(501, "this server decodes only the chunked transfer coding, not \(others.joined(separator: ", ")) (RFC 9112 §6.1)")
      }
      return .chunked
    }
    guard !contentLengths.isEmpty else { return .none }
    var length: Int?
    for value in contentLengths.flatMap({ list($0) }) {
      switch DecimalDigits.parse(value) {
      case .invalid:
        throw RequestError(400, "Content-Length must be digits only, got \(value.debugDescription) (RFC 9110 §8.6)")
      case .tooLarge:
        throw RequestError(400, "Content-Length \(value) does not fit in a 64-bit integer (RFC 9110 §8.6)")
      case .value(let number):
        guard length == nil || length == number else {
          throw RequestError(400, "Content-Length fields disagree (\(length ?? 0) and \(number)): the body's length is ambiguous (RFC 9112 §6.3)")
        }
        length = number
      }
    }
    guard let length else { throw RequestError(400, "Content-Length is empty (RFC 9110 §8.6)") }
    guard length <= limits.maximumBodyBytes else {
      throw RequestError(413, "the body (\(length) bytes) is larger than this server's limit of \(limits.maximumBodyBytes) bytes")
    }
    return length == 0 ? .none : .length(length)
  }

  /// The elements of a comma-separated header value, trimmed, empty ones dropped (RFC 9110 §5.6.1).
  static func list(_ value: String?) -> [String] {
    guard let value else { return [] }
    return value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }
}
