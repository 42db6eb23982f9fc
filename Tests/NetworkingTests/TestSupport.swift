import Foundation
import PracticeServer
import WorkbookTesting

@testable import Networking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A GET of `path` decoding `T`, for tests.
struct Get<T: Decodable & Sendable>: APIRequest {
  typealias Response = T
  var path: String
  var query: [String: String] = [:]
  var headers: [String: String] = [:]
  var requiresAuth = false
  var timeout: TimeInterval?
}

/// A POST of `path`, optionally with an idempotency key.
struct PostRequest<T: Decodable & Sendable>: APIRequest {
  typealias Response = T
  var path: String
  var idempotencyKey: String?
  var body: RequestBody? = nil
  var method: HTTPMethod { .post }
}

extension Get {
  var method: HTTPMethod { .get }
}

struct Health: Decodable, Sendable, Equatable {
  var status: String
}

/// Runs `body` with a practice server started on a free port, and stops it afterwards.
func withServer<T>(_ body: (PracticeServer) async throws -> T) async throws -> T {
  let server = try PracticeServer.started()
  defer { server.stop() }
  return try await body(server)
}

/// One request with a plain URLSession: the status, the headers and the body.
func fetch(_ session: URLSession, _ request: URLRequest) async throws -> (HTTPURLResponse, Data) {
  let (data, response) = try await session.data(for: request)
  guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
  return (http, data)
}

/// A value behind an NSLock (visible to the thread sanitizer).
final class LockedBox<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value

  init(_ value: Value) { stored = value }

  var value: Value {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }

  func mutate<R>(_ body: (inout Value) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&stored)
  }
}

/// Awaits `task`'s error, as a `NetworkError`, or nil when it succeeded.
func failure<T>(of task: Task<T, any Error>) async -> NetworkError? {
  do {
    _ = try await task.value
    return nil
  } catch {
    return NetworkError(mapping: error)
  }
}
