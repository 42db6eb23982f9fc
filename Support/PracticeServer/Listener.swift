import Foundation
import Workbook

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Accepts connections on 127.0.0.1 and serves each on a thread of its own (`Connection`), at
/// most `maximumConnections` at once (`ConnectionTable`); one more is answered `503` with
/// `Retry-After` by the accepting thread and closed, so no client can make the server start
/// threads without bound.
final class Listener: Sendable {
  private struct State {
    var socket: Int32 = -1
    var port: UInt16 = 0
    var stopped = false
    var started = false
  }

  private let state = Locked(State())
  let limits: PracticeServer.Limits
  let table: ConnectionTable
  private let handler: @Sendable (HTTPRequest, Listener) -> HTTPReply
  private let onRejected: @Sendable (RequestError, String?) -> Void

  /// `handler` answers every request that passed the checks; `rejected` hears of every request
  /// refused before that, with its method and path when they were read.
  init(
    limits: PracticeServer.Limits, handler: @escaping @Sendable (HTTPRequest, Listener) -> HTTPReply,
    rejected: @escaping @Sendable (RequestError, String?) -> Void
  ) {
    self.limits = limits
    self.table = ConnectionTable(capacity: limits.maximumConnections)
    self.handler = handler
    self.onRejected = rejected
  }

  var isStopped: Bool { state.withLock { $0.stopped } }
  var port: UInt16 { state.withLock { $0.port } }

  func answer(_ request: HTTPRequest) -> HTTPReply { handler(request, self) }

  func rejected(_ error: RequestError, _ summary: String?) {
    table.countRejected()
    onRejected(error, summary)
  }

  /// Binds and starts accepting; returns the port.
  func start(port requested: UInt16) throws -> UInt16 {
    if let running = state.withLock({ $0.started && !$0.stopped ? $0.port : nil }) { return running }
    let fd = Sockets.tcp()
    guard fd >= 0 else { throw PracticeServerError(description: "socket() failed: errno \(errno)") }
    Sockets.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
    guard Sockets.bindLoopback(fd, port: requested), listen(fd, 256) == 0 else {
      let code = errno
      close(fd)
      throw PracticeServerError(description: "cannot listen on 127.0.0.1:\(requested) (errno \(code))")
    }
    let port = Sockets.localPort(fd)
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

  /// Stops accepting and closes every connection not in the middle of an answer; those finish
  /// their answer and close (delays end early).
  func stop() {
    let (fd, port) = state.withLock { state -> (Int32, UInt16) in
      guard state.started, !state.stopped else { return (-1, 0) }
      state.stopped = true
      return (state.socket, state.port)
    }
    guard fd >= 0 else { return }
    table.closeAll()
    shutdown(fd, Int32(SHUT_RDWR))
    // Some systems do not wake a blocked accept() on shutdown: a connection does.
    let poke = Sockets.tcp()
    if poke >= 0 {
      _ = Sockets.connectLoopback(poke, port: port)
      close(poke)
    }
  }

  private func acceptLoop(_ fd: Int32) {
    accepting: while true {
      let client = accept(fd, nil, nil)
      if isStopped {
        if client >= 0 { close(client) }
        break
      }
      if client < 0 {
        switch errno {
        case EINTR, ECONNABORTED:
          continue
        case EMFILE, ENFILE, ENOBUFS, ENOMEM:
          // Out of descriptors or memory for now: wait for connections to close instead of
          // giving up accepting for good.
          usleep(10_000)
          continue
        default:
          break accepting
        }
      }
      Sockets.prepareAccepted(client, sendTimeout: limits.sendTimeout)
      switch table.admit(client) {
      case .admitted(let id):
        let thread = Thread { [self] in
          var connection = Connection(id: id, fd: client, listener: self)
          connection.run()
        }
        thread.name = "practice-server connection"
        thread.start()
      case .full:
        refuse(client)
      }
    }
    close(fd)
  }

  /// Answers a connection there is no room for with `503` and `Retry-After` (RFC 9110 §15.6.4)
  /// and closes it, without waiting on the client: the socket is made non-blocking, and a fresh
  /// socket's send buffer takes the short response whole.
  private func refuse(_ fd: Int32) {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    let reply = HTTPReply.error(
      503, "the server is already serving \(table.capacity) connections, its limit; try again shortly", headers: [("Retry-After", "1")])
    Sockets.sendAll(fd, ResponseWriter.bytes(reply, method: "GET", keepAlive: false))
    shutdown(fd, Int32(SHUT_WR))
    // Unread input would turn the close into a reset, which can destroy the 503 in flight.
    Sockets.discardPending(fd)
    close(fd)
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
}

/// Errors of starting the server.
public struct PracticeServerError: Error, CustomStringConvertible, Sendable {
  public let description: String
}
