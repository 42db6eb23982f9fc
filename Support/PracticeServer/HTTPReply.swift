import Foundation

/// What the server answers.
public struct HTTPReply: Sendable {
  public var status: Int
  public var headers: [(String, String)]
  public var body: Data
  /// When set, the body is written `bytes` at a time with `delayMilliseconds` between writes.
  public var throttle: (bytes: Int, delayMilliseconds: Int)?
  /// A body made while it is written, instead of `body`: `/files` can be 256 MB, and a file held
  /// whole in memory per request would let a few requests exhaust it.
  var generated: GeneratedBody?
  /// Set by the sync routes' chaos for a lost request or a lost reply: the connection is closed
  /// without a byte of a response, and the reason is only logged.
  var droppedBecause: String?

  public init(status: Int, headers: [(String, String)] = [], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A JSON reply from a JSON-compatible value (dictionaries, arrays, strings, numbers, `NSNull`).
  public static func json(_ status: Int, _ object: Any, headers: [(String, String)] = []) -> HTTPReply {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    return HTTPReply(status: status, headers: [("Content-Type", "application/json")] + headers, body: data)
  }

  /// No reply at all: the connection closes without a response (`reason` is for the log).
  static func dropped(_ reason: String) -> HTTPReply {
    var reply = HTTPReply(status: 0)
    reply.droppedBecause = reason
    return reply
  }

  /// `{"error": message}` with `status`.
  public static func error(_ status: Int, _ message: String, headers: [(String, String)] = []) -> HTTPReply {
    json(status, ["error": message], headers: headers)
  }

  /// How many body bytes the reply has, generated or not.
  var bodyLength: Int { generated?.length ?? body.count }

  /// The body bytes `range`, generated or sliced.
  func bodyBytes(_ range: Range<Int>) -> Data {
    if let generated { return generated.block(range) }
    return body.subdata(in: (body.startIndex + range.lowerBound)..<(body.startIndex + range.upperBound))
  }

  static func reason(_ status: Int) -> String {
    switch status {
    case 100: return "Continue"
    case 200: return "OK"
    case 201: return "Created"
    case 204: return "No Content"
    case 206: return "Partial Content"
    case 304: return "Not Modified"
    case 400: return "Bad Request"
    case 401: return "Unauthorized"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 405: return "Method Not Allowed"
    case 408: return "Request Timeout"
    case 409: return "Conflict"
    case 411: return "Length Required"
    case 413: return "Content Too Large"
    case 414: return "URI Too Long"
    case 416: return "Range Not Satisfiable"
    case 417: return "Expectation Failed"
    case 422: return "Unprocessable Entity"
    case 429: return "Too Many Requests"
    case 431: return "Request Header Fields Too Large"
    case 500: return "Internal Server Error"
    case 501: return "Not Implemented"
    case 502: return "Bad Gateway"
    case 503: return "Service Unavailable"
    case 504: return "Gateway Timeout"
    case 505: return "HTTP Version Not Supported"
    // RFC 9112 §4: the reason phrase is for people only; clients go by the number.
    case 200..<300: return "Success"
    case 300..<400: return "Redirection"
    case 400..<500: return "Client Error"
    default: return "Server Error"
    }
  }
}

/// A body of `length` bytes produced a block at a time while it is written.
struct GeneratedBody: Sendable {
  var length: Int
  /// The bytes at offsets `range` (within `0..<length`).
  var block: @Sendable (Range<Int>) -> Data
}
