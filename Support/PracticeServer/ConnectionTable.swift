import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The connections a listener is serving: how many there may be, which ones are idle, and the
/// counters that show the server's resources stay bounded however hard it is pushed.
///
/// Every connection has a thread, so capping connections caps threads. An idle connection (a
/// kept-alive one waiting for a request it has received nothing of, or a new one that has sent
/// nothing within `Limits.newConnectionGrace`) holds a slot it may never use, so when the table
/// is full the oldest idle one is closed to make room (RFC 9112 §9.5 lets a server close an idle
/// connection at any time; clients retry on a fresh one). A new connection is admitted as
/// `.reading`, never idle: its first request may be on the wire, and closing it then would drop
/// that request. A connection closing after its last response gives up its slot before an idle
/// one does: its client already has its answer, and clients that open a connection per request
/// would otherwise fill the table with connections that are only saying goodbye.
///
/// Socket descriptors are shut down only under the table's lock and closed only after their
/// entry is removed under it, so a shutdown can never hit a descriptor number the system has
/// already given to a new connection.
final class ConnectionTable: @unchecked Sendable {
  enum Phase {
    /// Waiting for a request nothing of which has arrived: a kept-alive connection between
    /// requests, or a new one silent past its grace. Idle: may be closed to make room.
    case waiting
    /// A new connection within its grace, or part of a request has arrived.
    case reading
    /// A complete request is being answered.
    case answering
    /// The last response is written and the connection is closing (`Sockets.lingeringClose`):
    /// its client has its answer, so its slot goes first to a new connection.
    case closing
  }

  private struct Entry {
    var fd: Int32
    var phase: Phase
    var idleSince: Int
    var evicted = false
  }

  private let condition = NSCondition()
  private var entries: [Int: Entry] = [:]
  private var nextID = 0
  private var tick = 0
  private var closing = false
  private var counters = PracticeServer.Statistics()
  private var pressureChecks = 0
  let capacity: Int

  init(capacity: Int) { self.capacity = max(1, capacity) }

  enum Admission: Equatable {
    case admitted(id: Int)
    case full
  }

  /// Takes a slot for a newly accepted connection, closing the oldest idle connection if that is
  /// what it takes; `.full` when every slot is busy with a request.
  func admit(_ fd: Int32) -> Admission {
    condition.lock()
    defer { condition.unlock() }
    guard !closing else { return .full }
    counters.acceptedConnections += 1
    if entries.count >= capacity {
      // A connection that is closing after its last response; else one that is idle, with no
      // byte of a next request already waiting in the socket.
      var peek: UInt8 = 0
      let closing = entries.first { $0.value.phase == .closing && !$0.value.evicted }
      let idle = entries.filter { $0.value.phase == .waiting && !$0.value.evicted && recv($0.value.fd, &peek, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0 }
        .min { $0.value.idleSince < $1.value.idleSince }
      if let (id, entry) = closing ?? idle {
        entries[id]?.evicted = true
        shutdown(entry.fd, Int32(SHUT_RDWR))
        if entry.phase == .waiting { counters.idleConnectionsClosed += 1 }
        // Its thread wakes at once and leaves; the wait is only a safety net.
        let deadline = Date().addingTimeInterval(1)
        while entries.count >= capacity && condition.wait(until: deadline) {}
      }
      guard entries.count < capacity else {
        counters.refusedConnections += 1
        return .full
      }
    }
    nextID += 1
    tick += 1
    entries[nextID] = Entry(fd: fd, phase: .reading, idleSince: tick)
    counters.openConnections = entries.count
    counters.peakOpenConnections = max(counters.peakOpenConnections, entries.count)
    return .admitted(id: nextID)
  }

  /// Records what the connection is doing; false when it must close instead: the server is
  /// stopping, or the connection was closed to make room while it was idle.
  func move(_ id: Int, to phase: Phase) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    guard !closing, let entry = entries[id], !entry.evicted else { return false }
    if phase == .waiting && entry.phase != .waiting {
      tick += 1
      entries[id]?.idleSince = tick
    }
    entries[id]?.phase = phase
    return true
  }

  /// Removes the connection and closes its socket: the last thing its thread does, so the thread
  /// stops being counted here too, in the same step that frees its slot. Counted this way,
  /// connection threads never outnumber the slots, even for the moment a thread takes to return.
  func leave(_ id: Int) {
    condition.lock()
    defer { condition.unlock() }
    counters.connectionThreads -= 1
    guard let entry = entries.removeValue(forKey: id) else { return }
    close(entry.fd)
    counters.openConnections = entries.count
    condition.broadcast()
  }

  /// Stops every connection that is not answering a request; those that are finish that answer
  /// and then close, because `move` refuses them from now on.
  func closeAll() {
    condition.lock()
    defer { condition.unlock() }
    closing = true
    for entry in entries.values where entry.phase != .answering { shutdown(entry.fd, Int32(SHUT_RDWR)) }
  }

  /// Whether every slot is taken: a head still arriving then has `Limits.headerTimeoutWhenFull`.
  var isFull: Bool {
    condition.lock()
    defer { condition.unlock() }
    return entries.count >= capacity
  }

  /// Counts a reader waking to see whether the server is full (`Limits.headerTimeoutWhenFull`):
  /// tests wait for these wake-ups instead of for time to pass.
  func countPressureCheck() {
    condition.lock()
    defer { condition.unlock() }
    pressureChecks += 1
  }

  /// Wake-ups counted by `countPressureCheck()`.
  var pressureCheckCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return pressureChecks
  }

  func threadStarted() {
    update {
      $0.connectionThreads += 1
      $0.peakConnectionThreads = max($0.peakConnectionThreads, $0.connectionThreads)
    }
  }

  /// Counts a request refused before any route saw it.
  func countRejected() { update { $0.rejectedRequests += 1 } }

  /// Changes the counters under the table's lock.
  private func update(_ change: (inout PracticeServer.Statistics) -> Void) {
    condition.lock()
    defer { condition.unlock() }
    change(&counters)
  }

  var statistics: PracticeServer.Statistics {
    condition.lock()
    defer { condition.unlock() }
    var statistics = counters
    statistics.idleConnections = entries.values.filter { $0.phase == .waiting && !$0.evicted }.count
    return statistics
  }
}
