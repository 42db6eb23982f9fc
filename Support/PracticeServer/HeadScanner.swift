/// Finds where a request's head (the request line and the header fields) ends, looking at each
/// byte once as it arrives, and rejects what can never become a valid head the moment it shows.
///
/// Rejecting early is what turns binary junk, a TLS handshake sent to a plain-HTTP port or a bare
/// LF into a `400` at once, instead of a connection that waits for a blank line that will never
/// come; and counting as it goes is what caps the head at `maximumHeaderBytes` however the bytes
/// are split across reads.
struct HeadScanner {
  /// Where the head's lines are, as offsets from the first byte given to `scan`.
  struct Head {
    var requestLine: Range<Int>
    var fieldLines: [Range<Int>]
    /// One past the blank line that ends the head: the body (or the next request) starts here.
    var end: Int
  }

  private let limits: PracticeServer.Limits
  /// The next byte to look at.
  private var position = 0
  /// Where the line being read starts.
  private var lineStart = 0
  /// Where the request line starts, after any empty lines before it.
  private var headStart = 0
  private var emptyLinesBefore = 0
  private var pendingCR = false
  private var requestLine: Range<Int>?
  private var fieldLines: [Range<Int>] = []

  init(limits: PracticeServer.Limits) { self.limits = limits }

  /// Whether a byte of the request itself has arrived (empty lines before it do not count). A
  /// connection that times out before that is closed quietly; after it, it gets a 408.
  var hasStarted: Bool { position > headStart }

  /// The method and target of the request line once it is in, shortened, for the learner's
  /// console: a refusal reads better next to the request it refused.
  func summary(of bytes: ArraySlice<UInt8>) -> String? {
    guard let requestLine else { return nil }
    let line = bytes[(bytes.startIndex + requestLine.lowerBound)..<(bytes.startIndex + requestLine.upperBound)]
    let text = String(decoding: Array(line.split(separator: ASCII.space).prefix(2).joined(separator: [ASCII.space])), as: UTF8.self)
    return text.count > 100 ? text.prefix(100) + "…" : text
  }

  /// Looks at the bytes not seen yet; `bytes` must start where it started on the first call.
  /// Returns the head once its blank line is in, nil while more is needed.
  mutating func scan(_ bytes: ArraySlice<UInt8>) throws(RequestError) -> Head? {
    let base = bytes.startIndex
    while position < bytes.count {
      let byte = bytes[base + position]
      let offset = position
      position += 1
      // Counted before the byte is looked at, so the LF that would end the head counts too: a
      // head one byte over the limit is refused whichever byte it is.
      guard position - headStart <= limits.maximumHeaderBytes else {
        throw RequestError(431, "the request line and headers are longer than \(limits.maximumHeaderBytes) bytes (RFC 6585 §5)")
      }
      if pendingCR {
        guard byte == ASCII.lf else {
          throw RequestError(400, "a CR must be followed by LF: every line ends with CRLF (RFC 9112 §2.2)")
        }
        pendingCR = false
        if let head = try endLine(lineStart..<(offset - 1)) { return head }
        continue
      }
      switch byte {
      case ASCII.cr:
        pendingCR = true
      case ASCII.lf:
        throw RequestError(400, "a bare LF ends a line: every line ends with CRLF (RFC 9112 §2.2)")
      default:
        if requestLine == nil {
          guard ASCII.isVisible(byte) || byte == ASCII.space else {
            throw RequestError(400, "the request line holds a byte that is not visible ASCII: this is not an HTTP/1.1 request (RFC 9112 §3)")
          }
          guard offset - headStart < limits.maximumRequestLineBytes else {
            throw RequestError(414, "the request line is longer than \(limits.maximumRequestLineBytes) bytes (RFC 9112 §3)")
          }
        } else if ASCII.isControl(byte) && byte != ASCII.tab {
          throw RequestError(400, "a header field holds a control character (RFC 9110 §5.5)")
        }
      }
    }
    return nil
  }

  private mutating func endLine(_ line: Range<Int>) throws(RequestError) -> Head? {
    lineStart = position
    guard let requestLine else {
      if line.isEmpty {
        // RFC 9112 §2.2: a server should ignore an empty line or two before the request line.
        emptyLinesBefore += 1
        guard emptyLinesBefore <= 4 else { throw RequestError(400, "empty lines where the request line should be (RFC 9112 §2.2)") }
        headStart = position
        return nil
      }
      self.requestLine = line
      return nil
    }
    if line.isEmpty { return Head(requestLine: requestLine, fieldLines: fieldLines, end: position) }
    fieldLines.append(line)
    guard fieldLines.count <= limits.maximumHeaderFields else {
      throw RequestError(431, "more than \(limits.maximumHeaderFields) header fields (RFC 6585 §5)")
    }
    return nil
  }
}

/// The byte classes HTTP's grammar is written in (RFC 9110 §5.6, RFC 5234 appendix B).
enum ASCII {
  static let tab: UInt8 = 0x09
  static let lf: UInt8 = 0x0A
  static let cr: UInt8 = 0x0D
  static let space: UInt8 = 0x20
  static let quote: UInt8 = 0x22
  static let percent: UInt8 = 0x25
  static let comma: UInt8 = 0x2C
  static let colon: UInt8 = 0x3A
  static let semicolon: UInt8 = 0x3B

  /// VCHAR: a visible character.
  static func isVisible(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
  /// CTL: a control character, DEL included.
  static func isControl(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F }
  static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
  static func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

  static func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case 0x30...0x39: return Int(byte - 0x30)
    case 0x41...0x46: return Int(byte - 0x41 + 10)
    case 0x61...0x66: return Int(byte - 0x61 + 10)
    default: return nil
    }
  }

  /// tchar: what a method or a header name is made of.
  static func isTokenCharacter(_ byte: UInt8) -> Bool {
    isDigit(byte) || isAlpha(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
  }

  /// Whether `text` is a token: one or more tchar.
  static func isToken(_ text: some Collection<UInt8>) -> Bool {
    !text.isEmpty && text.allSatisfy(isTokenCharacter)
  }

  /// Whether a request target may hold `byte` unencoded: RFC 3986's unreserved and reserved
  /// characters and `%`. Quotes, spaces, braces and the like must be percent-encoded.
  static func isURICharacter(_ byte: UInt8) -> Bool {
    isDigit(byte) || isAlpha(byte) || "-._~:/?#[]@!$&'()*+,;=%".utf8.contains(byte)
  }
}
