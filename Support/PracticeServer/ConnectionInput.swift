import Foundation

/// The bytes a connection has received and not used yet, and reads that wait for more until a
/// deadline.
///
/// Bytes past the current request stay here for the next one: a client may send several requests
/// back to back without waiting for answers (pipelining, RFC 9112 §9.3.2), and each request's body
/// is exactly the bytes its framing says, never more.
struct ConnectionInput {
  let fd: Int32
  private var storage: [UInt8] = []
  private var start = 0
  private var scratch = [UInt8](repeating: 0, count: 65_536)

  init(fd: Int32) { self.fd = fd }

  /// The bytes received and not used yet.
  var unread: ArraySlice<UInt8> { storage[start...] }
  var isEmpty: Bool { start == storage.count }

  /// Marks the first `count` unread bytes as used.
  mutating func consume(_ count: Int) {
    start = min(storage.count, start + count)
  }

  /// Waits for more bytes, until `deadline`, and appends them to `unread`.
  mutating func fill(until deadline: ContinuousClock.Instant) -> Sockets.Input {
    if start == storage.count {
      storage.removeAll(keepingCapacity: storage.capacity <= 1 << 20)
      start = 0
    } else if start >= 65_536 {
      storage.removeFirst(start)
      start = 0
    }
    let fd = fd
    let result = scratch.withUnsafeMutableBytes { Sockets.receive(fd, into: $0, until: deadline) }
    if case .bytes(let count) = result { storage.append(contentsOf: scratch[0..<count]) }
    return result
  }

  /// Exactly `count` bytes, waiting for them until `deadline`.
  mutating func take(_ count: Int, until deadline: ContinuousClock.Instant) throws(RequestError) -> Data {
    var data = Data(capacity: min(count, 1 << 20))
    while data.count < count {
      if isEmpty { try more(until: deadline) }
      let available = min(count - data.count, storage.count - start)
      data.append(contentsOf: storage[start..<(start + available)])
      start += available
    }
    return data
  }

  /// One line, without its CRLF, waiting for it until `deadline`.
  mutating func line(maximumLength: Int, tooLong: RequestError, until deadline: ContinuousClock.Instant) throws(RequestError) -> [UInt8] {
    var scanned = 0
    while true {
      let bytes = unread
      while scanned < bytes.count {
        let byte = bytes[bytes.startIndex + scanned]
        if byte == ASCII.lf { throw RequestError(400, "a bare LF ends a line: every line ends with CRLF (RFC 9112 §2.2)") }
        if byte == ASCII.cr {
          guard scanned + 1 < bytes.count else { break }
          guard bytes[bytes.startIndex + scanned + 1] == ASCII.lf else {
            throw RequestError(400, "a CR must be followed by LF: every line ends with CRLF (RFC 9112 §2.2)")
          }
          let line = Array(bytes.prefix(scanned))
          consume(scanned + 2)
          return line
        }
        scanned += 1
        guard scanned <= maximumLength else { throw tooLong }
      }
      try more(until: deadline)
    }
  }

  /// Waits for at least one more byte; the connection closing or the deadline passing first
  /// means the request is incomplete.
  private mutating func more(until deadline: ContinuousClock.Instant) throws(RequestError) {
    switch fill(until: deadline) {
    case .bytes: return
    case .timedOut: throw RequestError(408, "the body did not arrive in time")
    case .closed, .failed: throw RequestError(400, "the connection ended before the body did")
    }
  }
}
