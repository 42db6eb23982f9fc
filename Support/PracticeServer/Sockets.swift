import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The POSIX socket calls the listener makes, spelled once for Linux and Darwin.
enum Sockets {
  /// A new TCP socket, or -1.
  static func tcp() -> Int32 {
    #if canImport(Glibc)
      return socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      return socket(AF_INET, SOCK_STREAM, 0)
    #endif
  }

  /// 127.0.0.1:`port`: the server never listens on another interface.
  static func loopback(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    #if canImport(Darwin)
      address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    return address
  }

  static func bindLoopback(_ fd: Int32, port: UInt16) -> Bool {
    var address = loopback(port: port)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    } == 0
  }

  static func connectLoopback(_ fd: Int32, port: UInt16) -> Bool {
    var address = loopback(port: port)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    } == 0
  }

  /// The port a bound socket got (the system picks one for port 0).
  static func localPort(_ fd: Int32) -> UInt16 {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return UInt16(bigEndian: address.sin_port)
  }

  static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32) {
    var value = value
    setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
  }

  /// Prepares an accepted connection: a write to a client that has gone away fails instead of
  /// killing the process with SIGPIPE, a write blocked on a client that stopped reading gives up
  /// after `sendTimeout`, and small writes go out at once (a kept-alive connection would otherwise
  /// wait for the client's delayed ACK before sending a body written after its head).
  static func prepareAccepted(_ fd: Int32, sendTimeout: Duration) {
    #if canImport(Darwin)
      setOption(fd, SOL_SOCKET, SO_NOSIGPIPE, 1)
    #endif
    var timeout = timeval(
      tv_sec: .init(sendTimeout.components.seconds),
      tv_usec: .init(sendTimeout.components.attoseconds / 1_000_000_000_000))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
  }

  private static var noSignal: Int32 {
    #if canImport(Glibc)
      return Int32(MSG_NOSIGNAL)
    #else
      return 0
    #endif
  }

  private static var dontWait: Int32 { Int32(MSG_DONTWAIT) }

  /// Writes all of `data`; false when the client has gone or the send timeout passed.
  @discardableResult
  static func sendAll(_ fd: Int32, _ data: Data) -> Bool {
    data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
      guard let base = buffer.baseAddress else { return true }
      var sent = 0
      while sent < buffer.count {
        let count = send(fd, base + sent, buffer.count - sent, noSignal)
        if count <= 0 {
          if count < 0, errno == EINTR { continue }
          return false
        }
        sent += count
      }
      return true
    }
  }

  /// What waiting for input found.
  enum Input {
    /// `count` bytes were read into the buffer.
    case bytes(Int)
    /// The client closed its side (or the server shut the socket down to stop it).
    case closed
    /// Nothing arrived before the deadline.
    case timedOut
    /// The connection failed (reset, for example).
    case failed
  }

  /// Waits until input arrives or `deadline` passes, then reads what is there into `buffer`.
  ///
  /// The deadline is checked only while nothing is readable: a thread that is scheduled late still
  /// reads what already arrived, so a busy machine never turns a complete request into a timeout.
  static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, until deadline: ContinuousClock.Instant) -> Input {
    while true {
      var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, milliseconds(until: deadline))
      if ready < 0 {
        if errno == EINTR { continue }
        return .failed
      }
      if ready == 0 { return .timedOut }
      let count = recv(fd, buffer.baseAddress, buffer.count, dontWait)
      if count > 0 { return .bytes(count) }
      if count == 0 { return .closed }
      if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
      return .failed
    }
  }

  /// Milliseconds from now to `deadline`, rounded up, never negative, at most a day.
  static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
    let (seconds, attoseconds) = ContinuousClock.now.duration(to: deadline).components
    if seconds < 0 || (seconds == 0 && attoseconds <= 0) { return 0 }
    if seconds >= 86_400 { return 86_400_000 }
    return Int32(seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
  }

  /// Closes after a response the client may still be sending to: stops writing (the client sees
  /// the end of the response), then reads and discards what arrives for up to `limit` before
  /// closing. Closing with unread input would make the system send a reset, and a reset can
  /// destroy the response before the client reads it (RFC 9112 §9.6).
  static func lingeringClose(_ fd: Int32, limit: Duration = .seconds(1), maximumBytes: Int = 64 << 20) {
    shutdown(fd, Int32(SHUT_WR))
    let deadline = ContinuousClock.now.advanced(by: limit)
    var discarded = 0
    var scratch = [UInt8](repeating: 0, count: 65_536)
    scratch.withUnsafeMutableBytes { buffer in
      while discarded < maximumBytes, case .bytes(let count) = receive(fd, into: buffer, until: deadline) {
        discarded += count
      }
    }
  }

  /// Reads and discards whatever input already arrived, without waiting.
  static func discardPending(_ fd: Int32) {
    var scratch = [UInt8](repeating: 0, count: 65_536)
    var rounds = 0
    while rounds < 16, recv(fd, &scratch, scratch.count, dontWait) > 0 { rounds += 1 }
  }
}
