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
    // TODO: 0.25, 0.5 or 0.75 (placeholder: 0.5 for every priority, so `dataTask` looks right).
    0.5
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
    // TODO: get the response, then decode its body as `R.Response`.
    throw .encoding(NotImplemented("NetworkManager.send").description)
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
    // TODO: build, then retry: token, plugins, `perform`, status check, one replay after a 401.
    throw .encoding(NotImplemented("NetworkManager.response(for:)").description)
  }

  /// Sends one request, with no retry, status check or plugin. Cancelling the calling task
  /// cancels the `URLSessionTask` at once and throws `.cancelled`, even when the cancellation
  /// comes before the task exists or before it was resumed: such a task is never resumed. Make
  /// the task with `dataTask(for:priority:completion:)`. A URLSession error is mapped with
  /// `NetworkError(mapping:)`; which error a response that is not HTTP becomes is your choice
  /// (`.transport(.badServerResponse)` is the usual one).
  public nonisolated func perform(_ request: URLRequest, priority: RequestPriority = .normal) async throws(NetworkError) -> HTTPResponse {
    // TODO: wrap `dataTask` in a continuation, cancelled with the caller.
    throw .encoding(NotImplemented("NetworkManager.perform").description)
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

// Given — a response from what URLSession returns.
nonisolated extension HTTPResponse {
  init(_ response: HTTPURLResponse, data: Data) {
    var headers: [String: String] = [:]
    for (name, value) in response.allHeaderFields {
      if let name = name as? String { headers[name] = "\(value)" }
    }
    self.init(status: response.statusCode, headers: headers, data: data)
  }
}
