// Exercise 7 — The manager (advanced)
//
// Tie it together: build the request, run it under the retry policy, add the token and replay a
// 401 once, pass every attempt through the plugins, send it with a real `URLSession`, check the
// status and decode. Two details decide whether it behaves in an app: cancelling the caller's
// task must cancel the `URLSessionTask` (or a closed screen keeps downloading), and the
// request's priority must reach the `URLSessionTask` (or a prefetch competes with what is on
// screen).
import Foundation
import Synchronization
import Workbook

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// How urgent a request is, passed to `URLSessionTask.priority`.
public nonisolated enum RequestPriority: Sendable, CaseIterable {
  /// Prefetching, analytics.
  case low
  case normal
  /// What the user is waiting for.
  case high

  /// The value for `URLSessionTask.priority` (0.25, 0.5, 0.75: URLSession's low, default, high).
  public var taskPriority: Float {
    switch self {
    case .low: return 0.25
    case .normal: return 0.5
    case .high: return 0.75
    }
  }
}

/// The app's one entry point to the API.
///
/// An actor, so its few pieces of mutable state (the request counter) need no lock; the slow work
/// (the session, the token store, the decode) runs outside it.
public actor NetworkManager<C: Clock> where C.Duration == Duration {
  public nonisolated let session: URLSession
  public nonisolated let builder: RequestBuilder
  public nonisolated let retryPolicy: RetryPolicy
  public nonisolated let tokens: TokenStore?
  public nonisolated let plugins: PluginChain
  private let clock: C
  private let random: RandomSource
  // Given — a test seam.
  /// A test seam, called by `dataTask(for:priority:completion:)` with each task it makes,
  /// before anything resumes it. An app passes nothing. A test records the tasks here, or cancels
  /// the caller at this exact point: `perform` has begun, and its task exists but has not started.
  private nonisolated let taskCreated: @Sendable (URLSessionTask) -> Void
  private var nextID = 0

  public init(
    session: URLSession, builder: RequestBuilder, retryPolicy: RetryPolicy = RetryPolicy(), tokens: TokenStore? = nil,
    plugins: [any NetworkPlugin] = [], clock: C, random: RandomSource = .system,
    taskCreated: @escaping @Sendable (URLSessionTask) -> Void = { _ in }
  ) {
    self.session = session
    self.builder = builder
    self.retryPolicy = retryPolicy
    self.tokens = tokens
    self.plugins = PluginChain(plugins)
    self.clock = clock
    self.random = random
    self.taskCreated = taskCreated
  }

  /// Sends `request` and decodes its response with the API's JSON conventions.
  ///
  /// The decode runs off the actor, so a large body decoding never holds up another call: two
  /// responses decode at the same time, each on a thread of its own.
  public func send<R: APIRequest>(_ request: R, priority: RequestPriority = .normal) async throws(NetworkError) -> R.Response {
    let response = try await response(for: request, priority: priority)
    return try await Self.decoded(R.Response.self, from: response.data)
  }

  /// Decodes on the global concurrent executor. `@concurrent` says so under both settings of
  /// SE-0461: with `NonisolatedNonsendingByDefault` on, a plain `nonisolated async` function runs
  /// on its caller's actor, which for `send` is the manager itself.
  @concurrent private static func decoded<T: Decodable & Sendable>(_ type: T.Type, from data: Data) async throws(NetworkError) -> T {
    try NetworkError.decode(T.self, from: data, using: JSONCoding.decoder())
  }

  /// Sends `target` and returns its successful (2xx) response.
  ///
  /// Retries what the policy allows, on the injected clock. A target that requires auth gets
  /// `Authorization: Bearer <token>` from the token store (the manager sets it itself; none for a
  /// nil or empty token) and, after a 401, is replayed once with a refreshed token; a target that
  /// does not is sent as it is and a 401 is final.
  ///
  /// Every attempt of one call shares one `RequestContext.id` (1 for the manager's first call,
  /// then counting up) and carries its own `attempt` number. Plugins see a status outside
  /// 200–299 as `.failure` (with `Retry-After`, read whatever its letter case, for a retry).
  ///
  /// The replay after a 401 belongs to the attempt that got the 401: the plugins see it with the
  /// same id and the same `attempt` number (it is not a retry; the retry policy never saw the 401).
  /// With no token store, a target that requires auth is sent without `Authorization` and a 401
  /// is final. A plugin whose `prepare` throws ends the attempt before anything is sent: no
  /// `willSend`, no `didReceive`, and the error goes to the retry policy as `NetworkError(mapping:)`
  /// makes it. Whether a call whose request cannot be built uses up an id is your choice.
  public func response(for target: some TargetType, priority: RequestPriority = .normal) async throws(NetworkError) -> HTTPResponse {
    nextID += 1
    let id = nextID
    let request = try builder.makeRequest(for: target)
    let requiresAuth = target.requiresAuth
    let tokens = requiresAuth ? self.tokens : nil
    let plugins = self.plugins
    return try await retryPolicy.run(
      method: target.method, idempotencyKey: target.idempotencyKey, clock: clock, random: random
    ) { @Sendable attempt in
      let context = RequestContext(id: id, attempt: attempt, requiresAuth: requiresAuth)
      guard let tokens else {
        return try await self.attempt(request, token: nil, context: context, plugins: plugins, priority: priority)
      }
      return try await tokens.authorized { @Sendable token in
        try await self.attempt(request, token: token, context: context, plugins: plugins, priority: priority)
      }
    }
  }

  /// One attempt through the plugins: prepare, will send, send, did receive, process.
  private nonisolated func attempt(
    _ request: URLRequest, token: String?, context: RequestContext, plugins: PluginChain, priority: RequestPriority
  ) async throws -> HTTPResponse {
    var request = request
    if let token, !token.isEmpty { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    request = try await plugins.prepare(request, context: context)
    plugins.willSend(request, context: context)
    let result: Result<HTTPResponse, NetworkError>
    do {
      let response = try await perform(request, priority: priority)
      let retryAfter = response.headers.first { $0.key.lowercased() == "retry-after" }?.value
      if let failure = NetworkError.check(status: response.status, body: response.data, retryAfter: retryAfter) {
        result = .failure(failure)
      } else {
        result = .success(response)
      }
    } catch {
      result = .failure(error)
    }
    plugins.didReceive(result, for: request, context: context)
    return try plugins.process(result, context: context).get()
  }

  /// Sends one request, with no retry, status check or plugin. Cancelling the calling task
  /// cancels the `URLSessionTask` at once and throws `.cancelled`, even when the cancellation
  /// comes before the task exists or before it was resumed: such a task is never resumed. Make
  /// the task with `dataTask(for:priority:completion:)`. A URLSession error is mapped with
  /// `NetworkError(mapping:)`; which error a response that is not HTTP becomes is your choice
  /// (`.transport(.badServerResponse)` is the usual one).
  public nonisolated func perform(_ request: URLRequest, priority: RequestPriority = .normal) async throws(NetworkError) -> HTTPResponse {
    let handle = TaskHandle()
    do {
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
          let task = dataTask(for: request, priority: priority) { data, response, error in
            if let error {
              continuation.resume(throwing: NetworkError(mapping: error))
            } else if let response = response as? HTTPURLResponse {
              continuation.resume(returning: HTTPResponse(response, data: data ?? Data()))
            } else {
              continuation.resume(throwing: NetworkError.transport(.badServerResponse))
            }
          }
          handle.start(task)
        }
      } onCancel: {
        handle.cancel()
      }
    } catch {
      throw NetworkError(mapping: error)
    }
  }

  // Given — it sets the priority from `taskPriority`, which is yours to write above.
  /// Where `perform` makes its task: the `URLSessionDataTask` for `request`, for `perform` to
  /// start. Call it with no lock held: a test may cancel the caller from inside it, which runs
  /// your cancellation handler right there, on this thread.
  public nonisolated func dataTask(
    for request: URLRequest, priority: RequestPriority,
    completion: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
  ) -> URLSessionDataTask {
    let task = session.dataTask(with: request, completionHandler: completion)
    task.priority = priority.taskPriority
    taskCreated(task)
    return task
  }
}

nonisolated extension HTTPResponse {
  init(_ response: HTTPURLResponse, data: Data) {
    var headers: [String: String] = [:]
    for (name, value) in response.allHeaderFields {
      if let name = name as? String { headers[name] = "\(value)" }
    }
    self.init(status: response.statusCode, headers: headers, data: data)
  }
}

/// The one task of `perform`, so a cancellation that arrives before it was created still cancels
/// it. Its state is reachable only through the lock.
nonisolated final class TaskHandle: @unchecked Sendable {
  private let state = Mutex<(task: URLSessionTask?, cancelled: Bool)>((nil, false))

  func start(_ task: URLSessionTask) {
    let cancelled = state.withLock { state -> Bool in
      state.task = task
      return state.cancelled
    }
    if cancelled { task.cancel() } else { task.resume() }
  }

  func cancel() {
    let task = state.withLock { state -> URLSessionTask? in
      state.cancelled = true
      return state.task
    }
    task?.cancel()
  }
}
