import Foundation
import PracticeServer
import Testing
import WorkbookTesting

/// What a client can make the server hold: time (deadlines), threads (the connection cap) and
/// memory (the request log), each bounded however the client behaves.
@Suite("Practice server — time, threads and memory stay bounded", .timeLimit(.minutes(1)))
struct ResourceLimitTests {
  @Test("headers trickled a byte at a time get 408 at the header deadline (slowloris)")
  func slowHeaders() async throws {
    try await withServer(PracticeServer.Limits.with { $0.headerTimeout = .milliseconds(300) }) { server in
      let port = server.port
      let (response, trickled) = try await onThread {
        let connection = try RawConnection(port: port)
        connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        // A slow client is the point here, so this loop takes real time: one byte, then up to
        // 20 ms waiting for an answer, at most 500 times. A server with a deadline per read
        // would never answer; one with a deadline for the whole head answers after 300 ms.
        for trickled in 0..<500 {
          if let response = try? connection.response(within: .milliseconds(20)) { return (response, trickled) }
          if connection.isClosed { break }
          connection.send("a")
        }
        return (RawResponse(status: 0, headers: [], body: []), 500)
      }
      #expect(
        response.status == 408,
        "a head still incomplete at the 300 ms deadline should get 408 Request Timeout, however steadily its bytes arrive; got \(response.status) after \(trickled) bytes"
      )
      await expectStillServing(server, after: "a slowloris client")
    }
  }

  @Test("a connection that sends nothing is closed quietly at the header deadline")
  func silentConnection() async throws {
    try await withServer(PracticeServer.Limits.with { $0.headerTimeout = .milliseconds(200) }) { server in
      let port = server.port
      let (closed, failure) = try await onThread {
        let connection = try RawConnection(port: port)
        let failure = (try? connection.response()) == nil
        return (connection.isClosed, failure)
      }
      #expect(closed && failure, "with nothing of a request received there is nothing to answer: the server closes without a response (RFC 9112 §9.5)")
      #expect(server.statistics.rejectedRequests == 0, "an idle connection is not a rejected request")
    }
  }

  @Test("a body that stops arriving gets 408 at the body deadline")
  func slowBody() async throws {
    try await withServer(PracticeServer.Limits.with { $0.bodyTimeout = .milliseconds(300) }) { server in
      let result = try await exchange(server, BadRequest.post(["Content-Length: 54"], body: "{\"email\":"))
      #expect(result.response.status == 408 && result.closed, "45 bytes of body never came: 408 and close, got \(result.response.status)")
      #expect(server.requestCount("/v1/auth/login") == 0, "a request without its body never reaches the route")
    }
  }

  @Test("a connection beyond the cap gets 503 with Retry-After, and the server serves again once there is room")
  func connectionCap() async throws {
    try await withServer(PracticeServer.Limits.with { $0.maximumConnections = 4 }) { server in
      let port = server.port
      let (refused, openAtRefusal) = try await onThread {
        // Four connections each hold a slot with a response in progress (one byte per 50 ms).
        let holders = try (0..<4).map { index -> RawConnection in
          let connection = try RawConnection(port: port)
          connection.send(get("/files/hold\(index)?size=100000&rate=1&delay_ms=50"))
          return connection
        }
        for holder in holders { _ = try holder.response(headOnly: true) }
        let extra = try RawConnection(port: port)
        extra.send(get("/health"))
        let refused = try extra.response()
        let open = server.statistics.openConnections
        _ = extra.waitForClose()
        return (refused, open)
      }
      #expect(
        refused.status == 503 && refused.header("Retry-After") == "1" && refused.header("Connection") == "close",
        "with all 4 slots busy answering, a fifth connection should get 503, Retry-After: 1 and Connection: close, got \(refused.status)")
      #expect(openAtRefusal == 4, "the refused connection never took a slot: 4 open, got \(openAtRefusal)")
      let drained = await eventually(.threads) { server.statistics.openConnections == 0 }
      #expect(drained, "once the holders hang up, their slots are freed")
      #expect(server.statistics.refusedConnections == 1 && server.statistics.peakConnectionThreads <= 4, "one refusal, never more than 4 threads")
      await expectStillServing(server, after: "a full house")
    }
  }

  @Test("when every slot is taken, the oldest idle kept-alive connection is closed to make room")
  func idleConnectionsMakeRoom() async throws {
    // The header deadline is past the test's own waits: an idle connection closed at its deadline
    // on a busy machine would look like one closed to make room.
    let limits = PracticeServer.Limits.with {
      $0.maximumConnections = 2
      $0.headerTimeout = .seconds(60)
    }
    try await withServer(limits) { server in
      let port = server.port
      // The first must be idle before the second is opened: a response is written before its
      // thread goes back to waiting, so two quick exchanges could go idle in either order.
      let first = try await onThread {
        let first = try RawConnection(port: port)
        first.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        _ = try first.response()
        return first
      }
      let firstIdle = await eventually(.threads) { server.statistics.idleConnections == 1 }
      #expect(firstIdle, "the first kept-alive connection should be idle before the second opens")
      let second = try await onThread {
        let second = try RawConnection(port: port)
        second.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        _ = try second.response()
        return second
      }
      let idle = await eventually(.threads) { server.statistics.idleConnections == 2 }
      #expect(idle, "both kept-alive connections should be idle, waiting for a next request")
      let third = try await exchange(server, get("/health"))
      #expect(third.response.status == 200, "a new connection is served by closing an idle one, not refused: 200, got \(third.response.status)")
      let (firstClosed, secondOpen) = try await onThread {
        let closed = first.waitForClose()
        second.send(get("/health"))
        return (closed, (try? second.response().status) == 200)
      }
      #expect(firstClosed, "the oldest idle connection is the one closed (RFC 9112 §9.5 lets a server close idle connections)")
      #expect(secondOpen, "the other idle connection still serves its next request")
      #expect(server.statistics.idleConnectionsClosed == 1 && server.statistics.refusedConnections == 0, "one idle connection closed, none refused")
    }
  }

  @Test("stop() closes idle kept-alive connections at once, not at their deadline")
  func stopClosesIdleConnections() async throws {
    let server = try PracticeServer.started(configuration: .init(limits: PracticeServer.Limits.with { $0.headerTimeout = .seconds(600) }))
    defer { server.stop() }
    let port = server.port
    let connection = try await onThread {
      let connection = try RawConnection(port: port)
      connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      _ = try connection.response()
      return connection
    }
    let idle = await eventually(.threads) { server.statistics.idleConnections == 1 }
    #expect(idle, "the kept-alive connection should be idle before the server stops")
    server.stop()
    let closed = try await onThread { connection.waitForClose() }
    #expect(closed, "stop() must close an idle connection now; its 10-minute header deadline is far past the wait's safety net")
    let gone = await eventually(.threads) { server.statistics.connectionThreads == 0 }
    #expect(gone, "no connection thread outlives stop()")
  }

  @Test("the request log keeps the most recent requests, bounded in number and in bytes")
  func requestLogIsARing() async throws {
    try await withServer(
      PracticeServer.Limits.with {
        $0.requestLogEntries = 10
        $0.requestLogBytes = 8_192
        $0.countedPaths = 5
      }
    ) { server in
      for index in 1...25 { _ = try await exchange(server, get("/nothing/\(index)")) }
      #expect(
        server.requestLog.map(\.path) == (16...25).map { "/nothing/\($0)" },
        "10 entries: the last 10 requests, oldest first, got \(server.requestLog.map(\.path))")
      #expect(
        server.requestCount("/nothing/25") == 1 && server.requestCount("/nothing/1") == 0, "5 counted paths: the newest are counted, the oldest forgotten")
      #expect(server.statistics.countedPaths == 5, "never more than 5 counted paths, got \(server.statistics.countedPaths)")
      let padding = String(repeating: "x", count: 3_000)
      for _ in 1...5 { _ = try await exchange(server, get("/health", headers: ["X-Padding: \(padding)"])) }
      let statistics = server.statistics
      #expect(
        statistics.requestLogBytes <= 8_192 && statistics.requestLogEntries < 5,
        "five 3 KB requests do not fit in 8 KB: the oldest are dropped; got \(statistics.requestLogEntries) entries, \(statistics.requestLogBytes) bytes")
    }
  }

  @Test("under load (300 slow connections, then 2,000 requests) connections, threads and the request log stay flat")
  func boundedUnderLoad() async throws {
    let limits = PracticeServer.Limits.with {
      $0.maximumConnections = 32
      $0.headerTimeout = .milliseconds(500)
      $0.requestLogEntries = 100
      $0.countedPaths = 50
    }
    try await withServer(limits) { server in
      let load = Load(port: server.port, server: server)
      let slow = try await onThread { try load.slowConnections(300) }
      #expect(slow[503, default: 0] + slow[408, default: 0] == 300, "every slow connection gets 503 or 408, got \(slow)")
      #expect(
        slow[408, default: 0] >= 1 && slow[503, default: 0] >= 1,
        "slow connections fill the 32 slots and get 408 at their deadline; the rest get 503 at once; got \(slow)")
      let freed = await eventually(.threads) { server.statistics.openConnections == 0 }
      #expect(freed, "the slow connections' slots are freed once they are answered and gone")

      let requests = try await onThread { try load.requests() }
      #expect(requests.answered == 2_000, "every one of the 2,000 requests is answered with its own status, got \(requests.answered)")
      #expect(
        requests.midway.requestLogEntries == 100 && requests.end.requestLogEntries == 100 && requests.end.countedPaths == 50,
        "the request log holds 100 entries after 1,000 requests and after 2,000, and 50 counted paths: it does not grow with traffic; got \(requests.midway.requestLogEntries), \(requests.end.requestLogEntries), \(requests.end.countedPaths)"
      )
      #expect(
        requests.end.requestLogBytes <= requests.midway.requestLogBytes * 2,
        "the log's bytes stay flat too: \(requests.midway.requestLogBytes) after 1,000 requests, \(requests.end.requestLogBytes) after 2,000")
      #expect(
        requests.end.peakConnectionThreads <= 32 && requests.end.peakOpenConnections <= 32,
        "never more than 32 connections or connection threads, got \(requests.end.peakOpenConnections) and \(requests.end.peakConnectionThreads)")
      let drained = await eventually(.threads) { server.statistics.openConnections == 0 && server.statistics.connectionThreads == 0 }
      #expect(drained, "once the clients are gone, no connection or connection thread remains")
      await expectStillServing(server, after: "the load")
    }
  }
}

/// The load test's client, from one thread, waiting only for responses.
struct Load: Sendable {
  var port: UInt16
  var server: PracticeServer

  /// Slowloris: `count` connections that send part of a head and then nothing. The first ones
  /// take every slot until the header deadline; the rest are refused at once. Returns how many
  /// got each status, after closing them all.
  func slowConnections(_ count: Int) throws -> [Int: Int] {
    let slow = try (0..<count).map { _ in
      let connection = try RawConnection(port: port)
      connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1")
      return connection
    }
    var statuses: [Int: Int] = [:]
    for connection in slow { statuses[(try? connection.response().status) ?? 0, default: 0] += 1 }
    return statuses
  }

  struct Outcome: Sendable {
    var answered = 0
    var midway = PracticeServer.Statistics()
    var end = PracticeServer.Statistics()
  }

  /// 1,600 requests, 100 pipelined down each of 16 kept-alive connections (a third of them to
  /// paths of their own, 404s, so the counted paths fill up too), then 400 requests on a
  /// connection each, a connection thread started and ended per request.
  func requests() throws -> Outcome {
    var outcome = Outcome()
    for round in 0..<16 {
      let connection = try RawConnection(port: port)
      let paths = (0..<100).map { $0 % 3 == 0 ? "/load/\(round)-\($0)" : "/health" }
      connection.send(paths.map { "GET \($0) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }.joined())
      for path in paths where try connection.response().status == (path == "/health" ? 200 : 404) { outcome.answered += 1 }
      if round == 9 { outcome.midway = server.statistics }
    }
    for index in 0..<400 {
      let connection = try RawConnection(port: port)
      connection.send(get(index % 2 == 0 ? "/health" : "/v1/feed?limit=1"))
      if try connection.response().status == 200 { outcome.answered += 1 }
    }
    outcome.end = server.statistics
    return outcome
  }
}
