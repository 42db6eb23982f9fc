import Foundation

/// One client connection, served on a thread of its own: requests are read and answered in
/// order until the client closes, asks to close, sends something the server refuses, or goes
/// quiet past the header deadline (RFC 9112 §9.3: HTTP/1.1 connections persist by default).
///
/// Each request is read in two timed phases. The head must arrive whole within
/// `headerTimeout` of the server starting to wait for it, and the body within `bodyTimeout`
/// after that: whole deadlines, not per read, so a client trickling bytes cannot stretch them.
/// Once every slot is taken, a head has `headerTimeoutWhenFull` (a second by default) instead,
/// and a new connection silent past `newConnectionGrace` is idle, to be closed to make room.
struct Connection {
  let id: Int
  let fd: Int32
  let listener: Listener
  private var input: ConnectionInput
  private var isFirstRequest = true

  init(id: Int, fd: Int32, listener: Listener) {
    self.id = id
    self.fd = fd
    self.listener = listener
    input = ConnectionInput(fd: fd)
  }

  private enum Next {
    case nextRequest
    /// Close at once: the client has gone, or the connection was idle.
    case close
    /// Close after the client has seen the end of the response (see `Sockets.lingeringClose`).
    case closeAfterResponse
  }

  mutating func run() {
    let table = listener.table
    table.threadStarted()
    defer { table.leave(id) }
    while true {
      switch serveOne() {
      case .nextRequest: continue
      case .close: return
      case .closeAfterResponse:
        // The client has its answer: from here the slot may go to a new connection.
        _ = table.move(id, to: .closing)
        Sockets.lingeringClose(fd)
        return
      }
    }
  }

  private mutating func serveOne() -> Next {
    let limits = listener.limits
    let table = listener.table
    // A new connection is about to send its first request, so it is never idle at first: closing
    // it to make room would drop a request the client had every reason to think was being read.
    // Silent past its grace, it is idle like a kept-alive connection between requests.
    let isNew = isFirstRequest
    var reading = !input.isEmpty || isNew
    isFirstRequest = false
    guard table.move(id, to: reading ? .reading : .waiting) else { return .close }

    let waitBegan = ContinuousClock.now
    let headDeadline = waitBegan.advanced(by: limits.headerTimeout)
    var graceEnd = isNew && input.isEmpty ? waitBegan.advanced(by: limits.newConnectionGrace) : nil
    // While a head arrives, the reader wakes this often to see whether the server is full.
    var pressureCheck = waitBegan.advanced(by: limits.headerTimeoutWhenFull)
    var scanner = HeadScanner(limits: limits)
    let found: HeadScanner.Head
    do throws(RequestError) {
      while true {
        if let head = try scanner.scan(input.unread) {
          found = head
          break
        }
        var wake = headDeadline
        if let graceEnd { wake = min(wake, graceEnd) }
        if reading { wake = min(wake, pressureCheck) }
        switch input.fill(until: wake) {
        case .bytes:
          graceEnd = nil
          if !reading {
            reading = true
            pressureCheck = ContinuousClock.now.advanced(by: limits.headerTimeoutWhenFull)
            guard table.move(id, to: .reading) else { return .close }
          }
        case .closed, .failed:
          return .close
        case .timedOut:
          let now = ContinuousClock.now
          if now >= headDeadline {
            // Nothing of a request yet: an idle connection, closed quietly (RFC 9112 §9.5).
            guard scanner.hasStarted else { return .close }
            throw RequestError(408, "the request line and headers did not all arrive within \(limits.headerTimeout), this server's header deadline")
          }
          if let end = graceEnd, now >= end {
            graceEnd = nil
            reading = false
            guard table.move(id, to: .waiting) else { return .close }
          }
          if reading && now >= pressureCheck {
            table.countPressureCheck()
            // A silent new connection within its grace keeps its slot: the grace, not this
            // check, decides when it becomes idle.
            if (scanner.hasStarted || graceEnd == nil) && table.isFull {
              guard scanner.hasStarted else { return .close }
              throw RequestError(
                408, "the server is full, and the request line and headers took longer than \(limits.headerTimeoutWhenFull) to arrive")
            }
            pressureCheck = now.advanced(by: limits.headerTimeoutWhenFull)
          }
        }
      }
    } catch {
      return refuse(error, summary: scanner.summary(of: input.unread))
    }

    guard table.move(id, to: .answering) else { return .close }
    let head: RequestHead
    do throws(RequestError) {
      head = try RequestHead.parse(input.unread, found, limits: limits)
    } catch {
      return refuse(error, summary: scanner.summary(of: input.unread))
    }
    input.consume(found.end)

    let body: Data
    do throws(RequestError) {
      if head.expectsContinue && head.framing != .none {
        // RFC 9110 §10.1.1: the client holds the body back until it hears the server wants it.
        Sockets.sendAll(fd, Data("HTTP/1.1 100 Continue\r\n\r\n".utf8))
      }
      let bodyDeadline = ContinuousClock.now.advanced(by: limits.bodyTimeout)
      switch head.framing {
      case .none: body = Data()
      case .length(let count): body = try input.take(count, until: bodyDeadline)
      case .chunked: body = try input.chunkedBody(limits: limits, until: bodyDeadline)
      }
    } catch {
      return refuse(error, summary: head.summary, method: head.method)
    }

    let request = HTTPRequest(method: head.method, path: head.path, query: head.query, headers: head.headers, body: body)
    let reply = listener.answer(request)
    // A lost request or reply (the sync routes' chaos): close without writing anything.
    if reply.droppedBecause != nil { return .close }
    let keepAlive = !head.wantsClose && !listener.isStopped
    let written = ResponseWriter.write(
      reply, to: fd, method: head.method, keepAlive: keepAlive, announceKeepAlive: head.minorVersion == 0, pause: listener.pause)
    guard written else { return .close }
    return keepAlive ? .nextRequest : .closeAfterResponse
  }

  /// Answers a refused request with its status and closes: after a framing error nobody knows
  /// where the next request would start (RFC 9112 §9.6).
  private func refuse(_ error: RequestError, summary: String?, method: String = "GET") -> Next {
    listener.rejected(error, summary)
    ResponseWriter.write(HTTPReply.error(error.status, error.message), to: fd, method: method, keepAlive: false) { _ in true }
    return .closeAfterResponse
  }
}
