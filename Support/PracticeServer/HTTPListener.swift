import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A request as the practice server received it. Header names are lowercased.
public struct HTTPRequest: Sendable {
  public var method: String
  /// The path without the query, such as `/v1/posts/p1`.
  public var path: String
  /// The query items, percent-decoded; the last one wins for a repeated name.
  public var query: [String: String]
  public var headers: [String: String]
  public var body: Data

  /// A header by name, in any letter case.
  public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// What the server answers.
public struct HTTPReply: Sendable {
  public var status: Int
  public var headers: [(String, String)]
  public var body: Data
  /// When set, the body is written `bytes` at a time with `delayMilliseconds` between writes.
  public var throttle: (bytes: Int, delayMilliseconds: Int)?

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

  /// `{"error": message}` with `status`.
  public static func error(_ status: Int, _ message: String, headers: [(String, String)] = []) -> HTTPReply {
    json(status, ["error": message], headers: headers)
  }

  static func reason(_ status: Int) -> String {
    switch status {
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
    case 416: return "Range Not Satisfiable"
    case 422: return "Unprocessable Entity"
    case 429: return "Too Many Requests"
    case 500: return "Internal Server Error"
    case 502: return "Bad Gateway"
    case 503: return "Service Unavailable"
    case 504: return "Gateway Timeout"
    default: return "Status"
    }
  }
}

/// Errors of starting the server.
public struct PracticeServerError: Error, CustomStringConvertible, Sendable {
  public let description: String
}

/// A minimal HTTP/1.1 listener on 127.0.0.1: one thread accepts, one thread per connection
/// reads one request, answers it with `Connection: close` and closes the connection.
final class HTTPListener: Sendable {
  private struct State {
    var socket: Int32 = -1
    var port: UInt16 = 0
    var stopped = false
    var started = false
  }

  private let state = Mutex(State())
  private let handler: @Sendable (HTTPRequest, HTTPListener) -> HTTPReply

  init(handler: @escaping @Sendable (HTTPRequest, HTTPListener) -> HTTPReply) {
    self.handler = handler
  }

  var isStopped: Bool { state.withLock { $0.stopped } }
  var port: UInt16 { state.withLock { $0.port } }

  /// Binds and starts accepting; returns the port.
  func start(port requested: UInt16) throws -> UInt16 {
    if let running = state.withLock({ $0.started && !$0.stopped ? $0.port : nil }) { return running }
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { throw PracticeServerError(description: "socket() failed: errno \(errno)") }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = requested.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    #if canImport(Darwin)
      address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(fd, 256) == 0 else {
      let code = errno
      close(fd)
      throw PracticeServerError(description: "cannot listen on 127.0.0.1:\(requested) (errno \(code))")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    let port = UInt16(bigEndian: address.sin_port)
    state.withLock { state in
      state.socket = fd
      state.port = port
      state.started = true
      state.stopped = false
    }
    let thread = Thread { [self] in acceptLoop(fd) }
    thread.name = "practice-server accept"
    thread.start()
    return port
  }

  /// Stops accepting. Connections still being answered finish on their own (delays end early).
  func stop() {
    let (fd, port) = state.withLock { state -> (Int32, UInt16) in
      guard state.started, !state.stopped else { return (-1, 0) }
      state.stopped = true
      return (state.socket, state.port)
    }
    guard fd >= 0 else { return }
    shutdown(fd, Int32(SHUT_RDWR))
    // Some systems do not wake a blocked accept() on shutdown: a connection does.
    Self.poke(port)
  }

  private static func poke(_ port: UInt16) {
    #if canImport(Glibc)
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { return }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    #if canImport(Darwin)
      address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    close(fd)
  }

  private func acceptLoop(_ fd: Int32) {
    while true {
      let client = accept(fd, nil, nil)
      if isStopped {
        if client >= 0 { close(client) }
        break
      }
      if client < 0 {
        if errno == EINTR || errno == ECONNABORTED { continue }
        break
      }
      let thread = Thread { [self] in serve(client) }
      thread.name = "practice-server connection"
      thread.start()
    }
    close(fd)
  }

  private func serve(_ fd: Int32) {
    defer { close(fd) }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    #if canImport(Darwin)
      var yes: Int32 = 1
      setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
    #endif
    guard let request = read(fd) else { return }
    var reply = handler(request, self)
    if request.method == "HEAD" {
      reply.throttle = nil
      reply.headers.append(("Content-Length", String(reply.body.count)))
      reply.body = Data()
      write(fd, head(reply, contentLength: false))
      return
    }
    write(fd, head(reply, contentLength: true))
    guard !reply.body.isEmpty else { return }
    if let throttle = reply.throttle, throttle.bytes > 0 {
      var offset = 0
      while offset < reply.body.count {
        let end = min(offset + throttle.bytes, reply.body.count)
        guard write(fd, reply.body[offset..<end]) else { return }
        offset = end
        if offset < reply.body.count, !pause(milliseconds: throttle.delayMilliseconds) { return }
      }
    } else {
      write(fd, reply.body)
    }
  }

  private func head(_ reply: HTTPReply, contentLength: Bool) -> Data {
    var text = "HTTP/1.1 \(reply.status) \(HTTPReply.reason(reply.status))\r\n"
    for (name, value) in reply.headers { text += "\(name): \(value)\r\n" }
    if contentLength { text += "Content-Length: \(reply.body.count)\r\n" }
    text += "Connection: close\r\n\r\n"
    return Data(text.utf8)
  }

  /// Sleeps in small steps; false when the server stopped meanwhile.
  func pause(milliseconds: Int) -> Bool {
    var left = milliseconds
    while left > 0 {
      if isStopped { return false }
      let step = min(left, 10)
      usleep(useconds_t(step * 1_000))
      left -= step
    }
    return !isStopped
  }

  @discardableResult
  private func write(_ fd: Int32, _ data: Data) -> Bool {
    #if canImport(Glibc)
      let flags = Int32(MSG_NOSIGNAL)
    #else
      let flags: Int32 = 0
    #endif
    return data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
      guard let base = buffer.baseAddress else { return true }
      var sent = 0
      while sent < buffer.count {
        let count = send(fd, base + sent, buffer.count - sent, flags)
        if count <= 0 {
          if count < 0, errno == EINTR { continue }
          return false
        }
        sent += count
      }
      return true
    }
  }

  private func read(_ fd: Int32) -> HTTPRequest? {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let separator = Data("\r\n\r\n".utf8)
    var headerEnd: Range<Data.Index>?
    while headerEnd == nil {
      let count = recv(fd, &buffer, buffer.count, 0)
      if count <= 0 { return nil }
      data.append(buffer, count: count)
      headerEnd = data.range(of: separator)
      if data.count > 1_000_000 { return nil }
    }
    guard let headerEnd, let headText = String(data: data[data.startIndex..<headerEnd.lowerBound], encoding: .utf8) else {
      return nil
    }
    let lines = headText.components(separatedBy: "\r\n")
    let parts = lines[0].split(separator: " ")
    guard parts.count >= 2 else { return nil }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    var body = Data(data[headerEnd.upperBound...])
    let length = Int(headers["content-length"] ?? "") ?? 0
    while body.count < length {
      let count = recv(fd, &buffer, min(buffer.count, length - body.count), 0)
      if count <= 0 { return nil }
      body.append(buffer, count: count)
    }
    let target = String(parts[1])
    let components = URLComponents(string: target)
    var query: [String: String] = [:]
    for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
    let path = components?.percentEncodedPath ?? target
    return HTTPRequest(method: String(parts[0]).uppercased(), path: path, query: query, headers: headers, body: body)
  }
}
