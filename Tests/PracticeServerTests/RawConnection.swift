import Foundation
import WorkbookTesting

@testable import PracticeServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A client that writes exactly the bytes a test gives it to the practice server over a real TCP
/// socket, and reads what comes back as it arrives.
///
/// `URLSession` and curl only send well-formed requests; hostile input needs a client that sends
/// anything, and hears whether the server answered, stayed silent or closed. Every read waits for
/// an event (bytes arrived, the connection closed) and gives up only at the safety net, so no test
/// guesses how long the server takes. The calls block: run them with `onThread`. A connection is
/// used by one thread at a time, handed from one `onThread` call to the next (hence unchecked).
final class RawConnection: @unchecked Sendable {
  enum Failure: Error, CustomStringConvertible {
    case cannotConnect(Int32)
    case noResponse(String)
    case malformed(String)

    var description: String {
      switch self {
      case .cannotConnect(let code): return "could not connect to the server (errno \(code))"
      case .noResponse(let what): return "no response: \(what)"
      case .malformed(let what): return "the response is not HTTP/1.1: \(what)"
      }
    }
  }

  private let fd: Int32
  private var buffer: [UInt8] = []
  private var chunk = [UInt8](repeating: 0, count: 65_536)
  /// The server closed its side (or reset the connection).
  private(set) var isClosed = false

  init(port: UInt16) throws {
    fd = Sockets.tcp()
    guard fd >= 0 else { throw Failure.cannotConnect(errno) }
    #if canImport(Darwin)
      Sockets.setOption(fd, SOL_SOCKET, SO_NOSIGPIPE, 1)
    #endif
    guard Sockets.connectLoopback(fd, port: port) else {
      let code = errno
      close(fd)
      throw Failure.cannotConnect(code)
    }
  }

  deinit { close(fd) }

  /// Writes `bytes`; false if the server had already closed (a server may answer and close
  /// before a long request is all written, and the test still reads that answer).
  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool {
    #if canImport(Glibc)
      let flags = Int32(MSG_NOSIGNAL)
    #else
      let flags: Int32 = 0
    #endif
    var sent = 0
    while sent < bytes.count {
      let count = bytes.withUnsafeBytes { Foundation.send(fd, $0.baseAddress! + sent, bytes.count - sent, flags) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return false }
      sent += count
    }
    return true
  }

  @discardableResult
  func send(_ text: String) -> Bool { send(Array(text.utf8)) }

  /// Ends the request stream: the server reads end-of-file after what was sent.
  func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

  /// Reads more bytes into the buffer; false when the connection closed or the deadline passed.
  private func readMore(until deadline: ContinuousClock.Instant) -> Bool {
    guard !isClosed else { return false }
    while true {
      let left = ContinuousClock.now.duration(to: deadline)
      guard left > .zero else { return false }
      var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let (seconds, attoseconds) = left.components
      let ready = poll(&descriptor, 1, Int32(min(seconds * 1_000 + attoseconds / 1_000_000_000_000_000 + 1, 60_000)))
      if ready <= 0 { continue }
      let count = recv(fd, &chunk, chunk.count, 0)
      if count < 0 && errno == EINTR { continue }
      if count <= 0 {
        isClosed = true
        return false
      }
      buffer.append(contentsOf: chunk[0..<count])
      return true
    }
  }

  /// The next response: its status line and headers, then its body as HTTP/1.1 frames it
  /// (none after HEAD, 1xx, 204 or 304; else `Content-Length` bytes, or everything up to the
  /// close). With `headOnly`, the body is left unread, for a test that holds a response open.
  func response(method: String = "GET", headOnly: Bool = false, within timeout: Duration = safetyNet) throws -> RawResponse {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    let separator: [UInt8] = [13, 10, 13, 10]
    var headEnd: Int?
    while headEnd == nil {
      headEnd = buffer.firstRange(of: separator)?.upperBound
      if headEnd == nil && !readMore(until: deadline) {
        throw Failure.noResponse(isClosed ? "the server closed the connection after \(buffer.count) bytes" : "nothing within \(timeout)")
      }
    }
    let head = String(decoding: buffer[..<headEnd!], as: UTF8.self)
    buffer.removeFirst(headEnd!)
    var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    let statusLine = lines.removeFirst()
    let parts = statusLine.split(separator: " ", maxSplits: 2)
    guard parts.count >= 2, parts[0] == "HTTP/1.1", let status = Int(parts[1]) else { throw Failure.malformed(statusLine) }
    let headers = lines.map { line -> (String, String) in
      let colon = line.firstIndex(of: ":") ?? line.endIndex
      return (String(line[..<colon]), line[colon...].dropFirst().trimmingCharacters(in: .whitespaces))
    }
    var response = RawResponse(status: status, headers: headers, body: [])
    if headOnly || method == "HEAD" || status < 200 || status == 204 || status == 304 { return response }
    if let length = response.header("Content-Length").flatMap({ Int($0) }) {
      while buffer.count < length {
        guard readMore(until: deadline) else { throw Failure.noResponse("the body ended after \(buffer.count) of \(length) bytes") }
      }
      response.body = Array(buffer[..<length])
      buffer.removeFirst(length)
    } else {
      while readMore(until: deadline) {}
      response.body = buffer
      buffer = []
    }
    return response
  }

  /// Reads a body of `length` bytes without keeping it, for responses too large to hold in a
  /// test: how many bytes arrived, and how many of the sampled ones (about one in 4,000) differed
  /// from `expected`.
  func discardBody(length: Int, within timeout: Duration = safetyNet, expected: (Int) -> UInt8) -> (received: Int, wrong: Int) {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    var received = 0
    var wrong = 0
    while received < length {
      if buffer.isEmpty && !readMore(until: deadline) { break }
      let count = min(buffer.count, length - received)
      for offset in stride(from: 0, to: count, by: 4_099) where buffer[offset] != expected(received + offset) { wrong += 1 }
      received += count
      buffer.removeFirst(count)
    }
    return (received, wrong)
  }

  /// Every byte the server sends until it closes the connection (empty when it closes without
  /// answering); nil if it is still open at the safety net.
  func everythingUntilClose(within timeout: Duration = safetyNet) -> [UInt8]? {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while readMore(until: deadline) {}
    guard isClosed else { return nil }
    defer { buffer = [] }
    return buffer
  }

  /// Waits until the server closes the connection, discarding anything more it sends; false if
  /// it is still open at the safety net.
  func waitForClose(within timeout: Duration = safetyNet) -> Bool {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while readMore(until: deadline) { buffer.removeAll() }
    return isClosed
  }
}

/// A response as the raw client read it.
struct RawResponse: Sendable {
  var status: Int
  var headers: [(String, String)]
  var body: [UInt8]

  /// A header by name, in any letter case.
  func header(_ name: String) -> String? {
    headers.first { $0.0.lowercased() == name.lowercased() }?.1
  }

  var text: String { String(decoding: body, as: UTF8.self) }
}
