import Foundation
import Testing
import WorkbookTesting

@testable import PracticeServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A full server still serves the clients that talk: connections that say nothing, or say it
/// slowly, cannot hold every slot, and a connection whose first request is on its way is never the
/// one closed to make room.
@Suite("Practice server — a crowded server still serves the clients that talk", .timeLimit(.minutes(1)))
struct CrowdedServerTests {
  @Test("a newly admitted connection is not idle: with every slot new, the next one is refused, and no new one is closed")
  func newConnectionsAreNeverIdle() throws {
    let table = ConnectionTable(capacity: 2)
    let pairs = (0..<3).map { _ in Self.socketPair() }
    defer { for pair in pairs { close(pair.1) } }
    let first = table.admit(pairs[0].0)
    let second = table.admit(pairs[1].0)
    let third = table.admit(pairs[2].0)
    #expect(first != .full && second != .full, "two slots take two connections")
    #expect(
      third == .full,
      "both slots hold connections whose first request may be on the wire: the third is refused rather than one of them closed; got \(third)")
    #expect(table.statistics.idleConnectionsClosed == 0, "no new connection is closed to make room, got \(table.statistics.idleConnectionsClosed)")
  }

  @Test("a connection closing after its answer gives its slot to a new one, before any idle connection")
  func closingConnectionsMakeRoomFirst() async throws {
    let table = ConnectionTable(capacity: 2)
    let (idleEnd, idlePeer) = Self.socketPair()
    let (closingEnd, closingPeer) = Self.socketPair()
    defer { for fd in [idlePeer, closingPeer] { close(fd) } }
    guard case .admitted(let idle) = table.admit(idleEnd), case .admitted(let closing) = table.admit(closingEnd) else {
      Issue.record("two slots take two connections")
      return
    }
    _ = table.move(idle, to: .waiting)
    _ = table.move(closing, to: .closing)
    // The closing connection's thread, as in the server: it leaves once its socket is shut down.
    let left = Thread {
      var byte: UInt8 = 0
      while recv(closingEnd, &byte, 1, 0) > 0 {}
      table.leave(closing)
    }
    left.start()
    let (newEnd, newPeer) = Self.socketPair()
    defer { close(newPeer) }
    let admitted = try await onThread { table.admit(newEnd) }
    #expect(admitted != .full, "a closing connection makes room for a new one, got \(admitted)")
    #expect(table.move(idle, to: .waiting), "the idle connection keeps its slot while a closing one can give it up")
    #expect(table.statistics.idleConnectionsClosed == 0, "no idle connection was closed, got \(table.statistics.idleConnectionsClosed)")
  }

  /// A connected pair of sockets: the first end for the table, the second for the test to close.
  static func socketPair() -> (Int32, Int32) {
    var fds: [Int32] = [-1, -1]
    #if canImport(Glibc)
      let made = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds)
    #else
      let made = socketpair(AF_UNIX, SOCK_STREAM, 0, &fds)
    #endif
    #expect(made == 0, "a socket pair for the table")
    return (fds[0], fds[1])
  }

  @Test("a new connection within its grace keeps its slot, even on a full server: the next one gets 503, and its own request is then served")
  func aNewConnectionKeepsItsSlotWithinItsGrace() async throws {
    let limits = PracticeServer.Limits.with {
      $0.maximumConnections = 1
      $0.newConnectionGrace = .seconds(30)
      // The full server's reader wakes often; each wake-up is a chance to drop the silent
      // connection, and the test waits for two of them.
      $0.headerTimeoutWhenFull = .milliseconds(5)
      // Past the test's own waits, so a test held up on a busy machine never meets it.
      $0.headerTimeout = .seconds(60)
    }
    try await withServer(limits) { server in
      let port = server.port
      let quiet = try await onThread { try RawConnection(port: port) }
      let checked = await eventually(.threads) {
        let statistics = server.statistics
        return statistics.peakConnectionThreads == 1 && (server.pressureChecks >= 2 || statistics.connectionThreads == 0)
      }
      let threads = server.statistics.connectionThreads
      #expect(checked, "the first connection's thread started and woke twice to see whether the server is full")
      #expect(
        threads == 1,
        "the only slot is full, and its connection has sent nothing within its 30 s grace: it keeps the slot; its thread left after \(server.pressureChecks) full-server checks"
      )
      let extra = try await exchange(server, get("/health"))
      #expect(extra.response.status == 503, "the only slot holds a new connection within its grace: 503, got \(extra.response.status)")
      let served = try await onThread {
        quiet.send(get("/health"))
        return try quiet.response().status
      }
      #expect(served == 200, "the first connection's request, sent late but within its grace, is served: 200, got \(served)")
    }
  }

  @Test("connections that send nothing yield their slots: with 200 silent ones open, a client that talks is served")
  func silentConnectionsYield() async throws {
    let limits = PracticeServer.Limits.with {
      $0.maximumConnections = 8
      $0.newConnectionGrace = .milliseconds(20)
      $0.headerTimeout = .seconds(60)
    }
    try await withServer(limits) { server in
      let port = server.port
      var silent = try await onThread { try (0..<200).map { _ in try RawConnection(port: port) } }
      // Every slot held by a silent connection past its grace, and no other connection open.
      let everySlotIdle: @Sendable () -> Bool = {
        let statistics = server.statistics
        return statistics.openConnections == 8 && statistics.idleConnections == 8
      }
      let settled = await eventually(.threads) { server.statistics.acceptedConnections == 200 && everySlotIdle() }
      #expect(settled, "all 200 silent connections are accepted and the 8 holding slots are idle, got \(server.statistics)")
      for round in 1...5 {
        let closedBefore = server.statistics.idleConnectionsClosed
        let health = try await exchange(server, get("/health"))
        let closed = server.statistics.idleConnectionsClosed - closedBefore
        #expect(
          health.response.status == 200 && closed == 1,
          "request \(round): 8 silent connections held every slot; one of them yields its slot to a client that talks: 200 after 1 silent connection closed, got \(health.response.status) after \(closed)"
        )
        // The client that talked has gone; one more silent connection takes its slot, so the next
        // request again finds every slot held by a silent connection.
        silent.append(try await onThread { try RawConnection(port: port) })
        let full = await eventually(.threads, everySlotIdle)
        #expect(full, "request \(round): a new silent connection fills the freed slot and its grace ends, got \(server.statistics)")
      }
      #expect(server.statistics.peakOpenConnections <= 8, "never more than 8 open, got \(server.statistics.peakOpenConnections)")
      withExtendedLifetime(silent) {}
    }
  }

  @Test("once the server is full, a head that arrives slowly gets 408 at headerTimeoutWhenFull, not at the header deadline")
  func aFullServerCutsSlowHeads() async throws {
    let limits = PracticeServer.Limits.with {
      $0.maximumConnections = 2
      $0.headerTimeout = .seconds(60)
      $0.headerTimeoutWhenFull = .milliseconds(200)
    }
    try await withServer(limits) { server in
      let port = server.port
      let statuses = try await onThread {
        let slow = try (0..<2).map { _ in
          let connection = try RawConnection(port: port)
          connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1")
          return connection
        }
        // Both slots hold a head in progress, so the server is full.
        return slow.map { connection -> (Int, String) in
          guard let response = try? connection.response() else { return (0, "") }
          return (response.status, String(decoding: response.body, as: UTF8.self))
        }
      }
      #expect(
        statuses.allSatisfy { $0.0 == 408 && $0.1.contains("the server is full") },
        "with the server full, each slow head gets 408 for taking longer than headerTimeoutWhenFull (200 ms), long before the 60 s header deadline; got \(statuses)"
      )
      await expectStillServing(server, after: "two slow heads on a full server")
    }
  }
}
