import Foundation
import PracticeServer
import Testing
import WorkbookTesting

/// Runs `body` with a practice server started on a free port with `limits`, and stops it after.
func withServer<T>(_ limits: PracticeServer.Limits = .init(), _ body: (PracticeServer) async throws -> T) async throws -> T {
  let server = try PracticeServer.started(configuration: .init(limits: limits))
  defer { server.stop() }
  return try await body(server)
}

extension PracticeServer.Limits {
  /// The default limits with `change` applied: a test lowers a limit to reach it with a few bytes.
  static func with(_ change: (inout Self) -> Void) -> Self {
    var limits = Self()
    change(&limits)
    return limits
  }
}

extension PracticeServer {
  /// The port the server listens on.
  var port: UInt16 { UInt16(baseURL.port ?? 0) }
}

/// Runs blocking socket work on a thread of its own, never on a thread of the Swift concurrency
/// pool: a test that blocks a pool thread while it waits for the server could hold up the other
/// tests running beside it.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread { continuation.resume(with: Result { try body() }) }
    thread.name = "practice-server test client"
    thread.start()
  }
}

/// What came back for one raw request.
struct Exchange: Sendable {
  var response: RawResponse
  /// Whether the server closed the connection after the response.
  var closed: Bool
}

/// Sends `bytes` on a fresh connection, reads one response, and waits to see whether the server
/// then closes the connection (when `expectClose`; otherwise the connection is left open).
func exchange(_ server: PracticeServer, _ bytes: [UInt8], method: String = "GET", expectClose: Bool = true) async throws -> Exchange {
  let port = server.port
  return try await onThread {
    let connection = try RawConnection(port: port)
    connection.send(bytes)
    let response = try connection.response(method: method)
    return Exchange(response: response, closed: expectClose ? connection.waitForClose() : false)
  }
}

func exchange(_ server: PracticeServer, _ text: String, method: String = "GET", expectClose: Bool = true) async throws -> Exchange {
  try await exchange(server, Array(text.utf8), method: method, expectClose: expectClose)
}

/// A well-formed `GET path` that asks the server to close the connection after answering.
func get(_ path: String, headers: [String] = []) -> String {
  (["GET \(path) HTTP/1.1", "Host: 127.0.0.1"] + headers + ["Connection: close", "", ""]).joined(separator: "\r\n")
}

/// Checks that the server still answers `GET /health` with 200 on a fresh connection: whatever
/// came before did not take it down.
func expectStillServing(_ server: PracticeServer, after what: String, sourceLocation: SourceLocation = #_sourceLocation) async {
  do {
    let health = try await exchange(server, get("/health"))
    #expect(
      health.response.status == 200 && health.response.text == #"{"status":"ok"}"#,
      "after \(what), GET /health should still get 200 {\"status\":\"ok\"}, got \(health.response.status) \(health.response.text)",
      sourceLocation: sourceLocation)
  } catch {
    Issue.record("after \(what), the server should still answer GET /health: \(error)", sourceLocation: sourceLocation)
  }
}
