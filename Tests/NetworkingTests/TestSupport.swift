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

/// Wakes whatever `task` sleeps on `clock` until it has finished.
///
/// Each round waits for a sleeper or for the end of `task`, then moves time by `step`. With
/// `.threads` (the default, for a client whose requests run on URLSession's threads or the
/// practice server) the wait polls; with `.tasks` it also ends as soon as everything is parked
/// without a sleeper. A client that waits longer than it should is woken all the same, and the
/// waits it asked for stay in `clock.sleepHistory` for the test to report. One that is still
/// sleeping after `rounds` wake-ups sleeps more often than any right answer, and is cancelled, so
/// the test ends at once instead of hanging.
func wakeSleepers<T>(
  on clock: ManualClock, of task: Task<T, any Error>, until done: Counter, step: Duration = .seconds(3_600), rounds: Int = 10,
  _ progress: RunsOn = .threads
) async {
  for _ in 0..<rounds {
    guard await clock.waitForSleepers(1, progress, giveUp: { done.value > 0 }) else { return }
    await clock.advance(by: step)
  }
  if done.value == 0 { task.cancel() }
}

/// Runs `body` in a task of its own and returns how it ended, waking whatever it sleeps on `clock`
/// meanwhile (see `wakeSleepers(on:of:until:step:rounds:)`): a client that waits where it should not
/// still ends, and the test reports it instead of hanging.
func outcome<T: Sendable>(on clock: ManualClock, _ body: @escaping @Sendable () async throws -> T) async -> Result<T, any Error> {
  let done = Counter()
  let task = Task {
    defer { done.increment() }
    return try await body()
  }
  await wakeSleepers(on: clock, of: task, until: done)
  return await task.result
}

extension Result {
  /// The error, as a `NetworkError`, or nil for a success.
  var networkError: NetworkError? {
    guard case .failure(let error) = self else { return nil }
    return NetworkError(mapping: error)
  }
}
