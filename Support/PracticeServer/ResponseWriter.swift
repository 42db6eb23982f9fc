import Foundation

/// Writes replies in the form HTTP/1.1 requires, whatever a route put in them.
///
/// On a kept-alive connection a wrong byte count does not just spoil one response: the client
/// reads the surplus as the start of the next one. So the writer owns the framing headers
/// (`Content-Length`, `Connection`), sends no body where none may be (HEAD, 204, 304), never lets
/// a CR or LF from a route's header value start a header of its own, and sends only statuses a
/// client can take as a final answer.
enum ResponseWriter {
  /// Statuses whose responses never carry a body (RFC 9110 §6.4.1, §15.3.5, §15.4.5).
  static func forbidsBody(_ status: Int) -> Bool { status < 200 || status == 204 || status == 304 }

  /// The status a client can take as the answer: a 1xx is an interim response (RFC 9110 §15.2),
  /// and a client that got one as the answer would wait for the real one; anything outside
  /// 200...599 is not a status at all. Either is a bug in the server, so it becomes a 500.
  static func finalStatus(_ status: Int) -> Int { (200...599).contains(status) ? status : 500 }

  /// The status line and headers. `announceKeepAlive` is for an HTTP/1.0 client that asked to
  /// keep the connection: it persists only if the response says `Connection: keep-alive` (RFC
  /// 9112 appendix C.2.2); an HTTP/1.1 connection persists unless told otherwise.
  static func head(_ reply: HTTPReply, method: String, keepAlive: Bool, announceKeepAlive: Bool = false) -> Data {
    let status = finalStatus(reply.status)
    var text = "HTTP/1.1 \(status) \(HTTPReply.reason(status))\r\n"
    let framing: Set<String> = ["content-length", "connection", "transfer-encoding"]
    for (name, value) in reply.headers where ASCII.isToken(Array(name.utf8)) && !framing.contains(name.lowercased()) {
      text += "\(name): \(safe(value))\r\n"
    }
    if !forbidsBody(status) { text += "Content-Length: \(reply.bodyLength)\r\n" }
    if !keepAlive {
      text += "Connection: close\r\n"
    } else if announceKeepAlive {
      text += "Connection: keep-alive\r\n"
    }
    text += "\r\n"
    return Data(text.utf8)
  }

  /// A header value with every control character but tab replaced by a space, as RFC 9110 §5.5
  /// asks of a recipient, so that a value taken from a request can never end the header line.
  static func safe(_ value: String) -> String {
    guard value.utf8.contains(where: { ASCII.isControl($0) && $0 != ASCII.tab }) else { return value }
    return String(String.UnicodeScalarView(value.unicodeScalars.map { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F ? " " : $0 }))
  }

  /// The whole response as bytes, for small replies written without waiting.
  static func bytes(_ reply: HTTPReply, method: String, keepAlive: Bool, announceKeepAlive: Bool = false) -> Data {
    var data = head(reply, method: method, keepAlive: keepAlive, announceKeepAlive: announceKeepAlive)
    if method != "HEAD" && !forbidsBody(finalStatus(reply.status)) { data.append(reply.bodyBytes(0..<reply.bodyLength)) }
    return data
  }

  /// Writes `reply` to `fd`: false when the client went away, or `pause` said the server is
  /// stopping during a throttled body.
  @discardableResult
  static func write(
    _ reply: HTTPReply, to fd: Int32, method: String, keepAlive: Bool, announceKeepAlive: Bool = false, pause: (Int) -> Bool
  ) -> Bool {
    let length = reply.bodyLength
    guard method != "HEAD", !forbidsBody(finalStatus(reply.status)), length > 0 else {
      return Sockets.sendAll(fd, head(reply, method: method, keepAlive: keepAlive, announceKeepAlive: announceKeepAlive))
    }
    if reply.throttle == nil && length <= 65_536 {
      return Sockets.sendAll(fd, bytes(reply, method: method, keepAlive: keepAlive, announceKeepAlive: announceKeepAlive))
    }
    guard Sockets.sendAll(fd, head(reply, method: method, keepAlive: keepAlive, announceKeepAlive: announceKeepAlive)) else { return false }
    let step = reply.throttle.map { max(1, $0.bytes) } ?? 65_536
    var offset = 0
    while offset < length {
      let end = min(offset + step, length)
      guard Sockets.sendAll(fd, reply.bodyBytes(offset..<end)) else { return false }
      offset = end
      if offset < length, let throttle = reply.throttle, !pause(throttle.delayMilliseconds) { return false }
    }
    return true
  }
}
