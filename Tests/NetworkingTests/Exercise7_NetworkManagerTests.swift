import Foundation
import PracticeServer
import Testing
import WorkbookTesting

@testable import Networking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Exercise 7 — The manager", .timeLimit(.minutes(1)))
struct Exercise7_NetworkManagerTests {
  static let farFuture = Date(timeIntervalSince1970: 4_000_000_000)
  let base = URL(string: "https://api.example.com/v1")!

  func manager(
    _ session: URLSession, clock: ManualClock = ManualClock(), tokens: TokenStore? = nil, plugins: [any NetworkPlugin] = [],
    policy: RetryPolicy = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(10), jitter: .none),
    taskCreated: @escaping @Sendable (URLSessionTask) -> Void = { _ in }
  ) -> NetworkManager<ManualClock> {
    NetworkManager(
      session: session, builder: RequestBuilder(baseURL: base), retryPolicy: policy, tokens: tokens, plugins: plugins,
      clock: clock,
      random: .constant(0), taskCreated: taskCreated)
  }

  @Test func sendBuildsSendsChecksAndDecodes() async throws {
    let seen = Recorder<URLRequest>()
    let session = StubURLProtocol.session { request in
      seen.append(request)
      return (StubURLProtocol.response(for: request), Data(#"{"id":"u1","name":"Ada","email":"ada@example.com"}"#.utf8))
    }
    defer { session.finishTasksAndInvalidate() }
    let clock = ManualClock()
    let client = manager(session, clock: clock)
    let user = try await outcome(on: clock) { try await client.send(Get<User>(path: "/users/me")) }.get()
    #expect(user.name == "Ada", "the response should be decoded with the API's conventions")
    #expect(seen.values.first?.url?.absoluteString == "https://api.example.com/v1/users/me", "the request goes to the built URL")

    let failing = StubURLProtocol.session { request in (StubURLProtocol.response(for: request, status: 404), Data("{}".utf8)) }
    defer { failing.finishTasksAndInvalidate() }
    let failingClient = manager(failing, clock: clock)
    let error = await outcome(on: clock) { try await failingClient.send(Get<User>(path: "/users/x")) }.networkError
    #expect(error == .http(status: 404, body: Data("{}".utf8)), "a 404 should reach the caller as .http(404), got \(String(describing: error))")
    #expect(clock.sleepHistory.isEmpty, "a 200 and a 404 are final: nothing to wait for, but the manager waited \(clock.sleepHistory)")
  }

  @Test func transientFailuresAreRetriedOnTheInjectedClock() async throws {
    let calls = Counter()
    let session = StubURLProtocol.session { request in
      if calls.increment() <= 2 { return (StubURLProtocol.response(for: request, status: 503), Data()) }
      return (StubURLProtocol.response(for: request), Data(#"{"status":"ok"}"#.utf8))
    }
    defer { session.finishTasksAndInvalidate() }
    let clock = ManualClock()
    let metrics = MetricsPlugin(clock: clock)
    let client = manager(session, clock: clock, plugins: [metrics])
    let done = Counter()
    let task = Task {
      defer { done.increment() }
      return try await client.send(Get<Health>(path: "/health"))
    }
    // Each attempt runs on URLSession's threads, so the waits for the next sleep poll (.threads).
    for _ in 0..<2 {
      guard await clock.waitForSleepers(1, .threads, giveUp: { done.value == 1 }) else { break }
      await clock.advance(by: .seconds(10))
    }
    await wakeSleepers(on: clock, of: task, until: done)
    let health = try? await task.value
    #expect(health == Health(status: "ok"), "two 503s and then a 200: the manager should retry and succeed")
    #expect(calls.value == 3, "3 attempts expected, saw \(calls.value)")
    #expect(clock.sleepHistory == [.seconds(1), .seconds(2)], "the waits come from the policy, on the injected clock: \(clock.sleepHistory)")
    #expect(metrics.metrics.requests == 3 && metrics.metrics.retries == 2, "plugins see every attempt: \(metrics.metrics)")
  }

  @Test("a call that waits out its backoff does not hold up another call")
  func aWaitingCallDoesNotHoldUpAnother() async throws {
    let session = StubURLProtocol.session { request in
      let status = request.url?.path.hasSuffix("/busy") == true ? 503 : 200
      return (StubURLProtocol.response(for: request, status: status), Data(#"{"status":"ok"}"#.utf8))
    }
    defer { session.finishTasksAndInvalidate() }
    let clock = ManualClock()
    let sent = Recorder<String>()
    let client = manager(session, clock: clock, taskCreated: { task in sent.append(task.originalRequest?.url?.path ?? "?") })
    let busyDone = Counter()
    let busy = Task {
      defer { busyDone.increment() }
      return try await client.send(Get<Health>(path: "/busy"))
    }
    let slept = await clock.waitForSleepers(1, .threads, giveUp: { busyDone.value == 1 })
    #expect(slept, "a 503 should be retried after a wait on the injected clock")
    guard slept else { return }
    // The first call is held on the clock before its retry; a second call starts now.
    let quick = Crowd(1) { _ in try await client.send(Get<Health>(path: "/health")) }
    // Until its task exists, the second call runs on Swift tasks alone: if it waits for the first
    // call, everything is parked without it, and the wait says so at once.
    let started = await eventually { quick.allFinished || sent.values.contains { $0.hasSuffix("/health") } }
    #expect(started, "while one call sleeps before its retry, another call must go ahead: the second call is stuck behind the first")
    guard started else {
      await wakeSleepers(on: clock, of: busy, until: busyDone)
      quick.cancelAll()
      return
    }
    await eventually(.threads) { quick.allFinished }
    let health = try? await quick.tasks[0].value
    #expect(health == Health(status: "ok"), "the second call should get its answer while the first one waits")
    #expect(busyDone.value == 0 && clock.sleepers == 1, "the first call should still be waiting for its retry")
    await wakeSleepers(on: clock, of: busy, until: busyDone)
  }

  /// Blocks a thread until the test opens it, and tells the test when a thread is blocked.
  final class DecodeBlocker: @unchecked Sendable {
    private let entered = DispatchSemaphore(value: 0)
    private let exit = DispatchSemaphore(value: 0)

    func block() {
      entered.signal()
      exit.wait()
    }

    /// Whether a decode has reached `block()` (it stays there until `open()`).
    var hasEntered: Bool {
      guard entered.wait(timeout: .now()) == .success else { return false }
      entered.signal()
      return true
    }

    func open() { exit.signal() }
  }

  /// A response whose decoding blocks its thread when its name is "slow": a large body taking its
  /// time in `JSONDecoder`, held exactly as long as the test wants.
  struct SlowlyDecoded: Decodable, Sendable {
    static let blocker = DecodeBlocker()
    let name: String

    enum CodingKeys: String, CodingKey { case name }

    init(from decoder: any Decoder) throws {
      name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
      if name == "slow" { Self.blocker.block() }
    }
  }

  @Test("decoding happens off the manager: while one response decodes, another call is sent and decoded")
  func decodingLeavesTheManagerFree() async throws {
    let session = StubURLProtocol.session { request in
      let name = request.url?.lastPathComponent ?? "?"
      return (StubURLProtocol.response(for: request), Data(#"{"name":"\#(name)"}"#.utf8))
    }
    defer { session.finishTasksAndInvalidate() }
    let client = manager(session)
    let blocker = SlowlyDecoded.blocker
    let slowEnded = Counter()
    let slow = Task {
      defer { slowEnded.increment() }
      return try await client.send(Get<SlowlyDecoded>(path: "/slow"))
    }
    defer { blocker.open() }
    await eventually(.threads, giveUp: { slowEnded.value > 0 }) { blocker.hasEntered }
    guard blocker.hasEntered else {
      Issue.record("send should decode the response; the call ended first: \(await slow.result)")
      return
    }
    // One decode now holds a thread. If that thread were the manager's, the next call could not start.
    let quickEnded = Counter()
    let quick = Task {
      defer { quickEnded.increment() }
      return try await client.send(Get<SlowlyDecoded>(path: "/quick"))
    }
    await eventually(.threads) { quickEnded.value == 1 }
    #expect(
      quickEnded.value == 1,
      "while one response decodes, another call must be sent and decoded: decode in a @concurrent function, not on the actor (a plain nonisolated async function runs on its caller's actor under SE-0461)"
    )
    blocker.open()
    #expect(try await slow.value.name == "slow", "the slow response is decoded once it may go on")
    #expect(try await quick.value.name == "quick", "the quick response is decoded")
  }

  /// Records each point the manager calls, marks the request it prepares, and rewrites a
  /// successful body, so a test can see that both changes were used.
  struct RecordingPlugin: NetworkPlugin {
    let events = Recorder<String>()

    static func describe(_ result: Result<HTTPResponse, NetworkError>) -> String {
      switch result {
      case .success(let response): "\(response.status)"
      case .failure(.http(let status, _, _)): "\(status)"
      case .failure(let error): "\(error)"
      }
    }

    func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
      events.append("prepare \(context.id)/\(context.attempt)")
      var request = request
      request.setValue("yes", forHTTPHeaderField: "X-Prepared")
      return request
    }

    func willSend(_ request: URLRequest, context: RequestContext) {
      events.append("willSend \(context.id)/\(context.attempt) prepared: \(request.value(forHTTPHeaderField: "X-Prepared") ?? "no")")
    }

    func didReceive(_ result: Result<HTTPResponse, NetworkError>, for request: URLRequest, context: RequestContext) {
      events.append("didReceive \(context.id)/\(context.attempt) \(Self.describe(result))")
    }

    func process(_ result: Result<HTTPResponse, NetworkError>, context: RequestContext) -> Result<HTTPResponse, NetworkError> {
      events.append("process \(context.id)/\(context.attempt) \(Self.describe(result))")
      guard case .success(var response) = result else { return result }
      response.data = Data(#"{"status":"processed"}"#.utf8)
      return .success(response)
    }
  }

  @Test("every attempt passes through the plugins in order, and one call keeps one id")
  func pluginsSeeEveryAttemptInOrder() async throws {
    let calls = Counter()
    let prepared = Recorder<String>()
    let session = StubURLProtocol.session { request in
      prepared.append(request.value(forHTTPHeaderField: "X-Prepared") ?? "no")
      if calls.increment() == 1 { return (StubURLProtocol.response(for: request, status: 503), Data()) }
      return (StubURLProtocol.response(for: request), Data(#"{"status":"ok"}"#.utf8))
    }
    defer { session.finishTasksAndInvalidate() }
    let clock = ManualClock()
    let plugin = RecordingPlugin()
    let client = manager(session, clock: clock, plugins: [plugin])
    let done = Counter()
    let task = Task {
      defer { done.increment() }
      return try await client.send(Get<Health>(path: "/health"))
    }
    if await clock.waitForSleepers(1, .threads, giveUp: { done.value == 1 }) { await clock.advance(by: .seconds(10)) }
    await wakeSleepers(on: clock, of: task, until: done)
    let health = try? await task.value
    #expect(health == Health(status: "processed"), "what process returns is what the caller gets, got \(String(describing: health))")
    #expect(prepared.values == ["yes", "yes"], "the request prepare returns is the one sent, on every attempt; the server saw \(prepared.values)")
    _ = await outcome(on: clock) { try await client.send(Get<Health>(path: "/health")) }
    let expected = [
      "prepare 1/1", "willSend 1/1 prepared: yes", "didReceive 1/1 503", "process 1/1 503",
      "prepare 1/2", "willSend 1/2 prepared: yes", "didReceive 1/2 200", "process 1/2 200",
      "prepare 2/1", "willSend 2/1 prepared: yes", "didReceive 2/1 200", "process 2/1 200",
    ]
    #expect(
      plugin.events.values == expected,
      "each attempt: prepare, willSend, perform, didReceive, process, with one id per call (1, then 2) and the attempt number; got \(plugin.events.values)"
    )
  }

  @Test("a 401 refreshes the token and replays the request once with it")
  func unauthorizedIsReplayedWithTheNewToken() async throws {
    let authorizations = Recorder<String>()
    let session = StubURLProtocol.session { request in
      let header = request.value(forHTTPHeaderField: "Authorization") ?? "(none)"
      authorizations.append(header)
      let status = header == "Bearer fresh" ? 200 : 401
      return (StubURLProtocol.response(for: request, status: status), Data(#"{"status":"ok"}"#.utf8))
    }
    defer { session.finishTasksAndInvalidate() }
    let refreshes = Counter()
    let tokens = TokenStore(token: AuthToken(accessToken: "stale", refreshToken: "r", expiresAt: Self.farFuture)) { _ in
      refreshes.increment()
      return TokenGrant(accessToken: "fresh", refreshToken: "r2", expiresIn: 3_600)
    }
    let clock = ManualClock()
    let client = manager(session, clock: clock, tokens: tokens)
    let result = try await outcome(on: clock) { try await client.send(Get<Health>(path: "/users/me", requiresAuth: true)) }.get()
    #expect(result.status == "ok", "the replay with the fresh token should succeed")
    #expect(authorizations.values == ["Bearer stale", "Bearer fresh"], "sent with the stale token, then once with the fresh one: \(authorizations.values)")
    #expect(refreshes.value == 1, "one refresh")
  }

  @Test("a public endpoint never carries the token and a 401 from it is final")
  func publicEndpointsAreNotIntercepted() async throws {
    let authorizations = Recorder<String>()
    let session = StubURLProtocol.session { request in
      authorizations.append(request.value(forHTTPHeaderField: "Authorization") ?? "(none)")
      return (StubURLProtocol.response(for: request, status: 401), Data())
    }
    defer { session.finishTasksAndInvalidate() }
    let refreshes = Counter()
    let tokens = TokenStore(token: AuthToken(accessToken: "t", refreshToken: "r", expiresAt: Self.farFuture)) { _ in
      refreshes.increment()
      return TokenGrant(accessToken: "t2", refreshToken: "r2", expiresIn: 3_600)
    }
    let clock = ManualClock()
    let client = manager(session, clock: clock, tokens: tokens)
    let error = await outcome(on: clock) { try await client.response(for: API.refresh(refreshToken: "r")) }.networkError
    #expect(error == .unauthorized, "a rejected refresh call is simply .unauthorized, got \(String(describing: error))")
    #expect(refreshes.value == 0, "a 401 from the refresh endpoint must never trigger another refresh")
    #expect(authorizations.values == ["(none)"], "a public endpoint is sent once, without the access token: \(authorizations.values)")
  }

  @Test func priorityReachesTheURLSessionTask() async {
    let session = StubURLProtocol.session { request in (StubURLProtocol.response(for: request), Data()) }
    defer { session.finishTasksAndInvalidate() }
    let sent = Recorder<Float>()
    let client = manager(session, taskCreated: { task in sent.append(task.priority) })
    let request = URLRequest(url: base)
    for priority in RequestPriority.allCases {
      let task = client.dataTask(for: request, priority: priority) { _, _, _ in }
      #expect(task.priority == priority.taskPriority, "\(priority) should set URLSessionTask.priority to \(priority.taskPriority), got \(task.priority)")
      task.cancel()
    }
    #expect(RequestPriority.high.taskPriority > RequestPriority.low.taskPriority, "high must outrank low")
    let made = sent.count
    for priority in RequestPriority.allCases {
      _ = try? await client.perform(request, priority: priority)
    }
    let expected = RequestPriority.allCases.map(\.taskPriority)
    #expect(
      Array(sent.values.dropFirst(made)) == expected,
      "perform should make its task with dataTask(for:priority:completion:) and the caller's priority (low, normal, high): the tasks it made had \(Array(sent.values.dropFirst(made)))"
    )
  }

  @Test("the priority a caller gives send reaches the URLSessionTask, through the retry policy and the plugins")
  func priorityFromTheCallerReachesTheURLSessionTask() async throws {
    let session = StubURLProtocol.session { request in (StubURLProtocol.response(for: request), Data(#"{"status":"ok"}"#.utf8)) }
    defer { session.finishTasksAndInvalidate() }
    let sent = Recorder<Float>()
    for priority in RequestPriority.allCases {
      let clock = ManualClock()
      let client = manager(session, clock: clock, plugins: [RecordingPlugin()], taskCreated: { task in sent.append(task.priority) })
      _ = try await outcome(on: clock) { try await client.send(Get<Health>(path: "/health"), priority: priority) }.get()
    }
    #expect(
      sent.values == RequestPriority.allCases.map(\.taskPriority),
      "send(_:priority:) with low, normal and high should make tasks with \(RequestPriority.allCases.map(\.taskPriority)); they had \(sent.values): pass the caller's priority down to perform"
    )
  }

  @Test("a cancellation that arrives before the URLSession task is resumed still cancels it")
  func cancellationBeforeTheTaskStarts() async throws {
    let requests = Counter()
    let session = StubURLProtocol.session { request in
      requests.increment()
      return (StubURLProtocol.response(for: request), Data(#"{"status":"ok"}"#.utf8))
    }
    defer { session.finishTasksAndInvalidate() }
    // The caller is cancelled from inside dataTask(for:priority:completion:): perform has begun,
    // its task exists and nothing has resumed it. The cancellation handler runs right there.
    let caller = LockedBox<Task<HTTPResponse, any Error>?>(nil)
    let made = Counter()
    let client = manager(
      session,
      taskCreated: { _ in
        made.increment()
        caller.value?.cancel()
      })
    let start = Gate()
    let task = Task {
      await start.pass()
      return try await client.perform(URLRequest(url: base.appendingPathComponent("health")))
    }
    caller.mutate { $0 = task }
    start.open()
    let error = await failure(of: task)
    #expect(made.value == 1, "perform should make its one task with dataTask(for:priority:completion:); it made \(made.value)")
    guard made.value == 1 else { return }
    #expect(
      error == .cancelled,
      "the caller was cancelled after perform made its task and before it resumed it: it should get .cancelled, got \(String(describing: error))")
    #expect(
      requests.value == 0,
      "a task whose caller is already cancelled must be cancelled, never resumed: keep the task and a cancelled flag behind one lock and check the flag when you store the task; the request was sent \(requests.value) time(s)"
    )
  }

  @Test("integration: cancelling the caller cancels the URLSession task at once")
  func cancellationReachesTheSession() async throws {
    try await withServer { server in
      server.chaos.delay(milliseconds: 20_000)
      let session = URLSession(configuration: .ephemeral)
      defer { session.invalidateAndCancel() }
      let made = Recorder<URLSessionTask>()
      let client = NetworkManager(
        session: session, builder: RequestBuilder(baseURL: server.apiURL), retryPolicy: .never, clock: ManualClock(),
        taskCreated: { made.append($0) })
      let done = Counter()
      let task = Task {
        defer { done.increment() }
        return try await client.send(Get<Health>(path: "/feed"))
      }
      // The request travels on URLSession's threads and the server's: poll for its arrival.
      let arrived = await eventually(.threads, giveUp: { done.value == 1 }) { server.requestCount("/v1/feed") == 1 }
      #expect(arrived, "the request should reach the server")
      guard arrived else { return }
      task.cancel()
      await settle()  // a cancellation handler that hands the work to a task of its own has run it now
      let states = made.values.map(\.state)
      #expect(!states.isEmpty, "perform should make its task with dataTask(for:priority:completion:)")
      let stopped = !states.isEmpty && states.allSatisfy { $0 == .canceling || $0 == .completed }
      #expect(
        stopped,
        "cancelling the caller must cancel its URLSession task at once, while the server still holds the response (states: \(states.map(\.rawValue)); 0 is running)"
      )
      if !stopped { server.stop() }  // ends the held response now, so the test reports instead of waiting 20 s
      let error = await failure(of: task)
      #expect(error == .cancelled, "a cancelled caller should get .cancelled, got \(String(describing: error))")
    }
  }

  @Test("integration: real 503s with Retry-After, then a 200, through the manager")
  func retriesAgainstTheServer() async throws {
    try await withServer { server in
      server.chaos.failNext(2, status: 503, retryAfter: 1)
      let session = URLSession(configuration: .ephemeral)
      defer { session.finishTasksAndInvalidate() }
      let clock = ManualClock()
      let client = NetworkManager(
        session: session, builder: RequestBuilder(baseURL: server.apiURL),
        retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: .seconds(4), maxDelay: .seconds(30), jitter: .full), clock: clock,
        random: .constant(1))
      let done = Counter()
      let task = Task {
        defer { done.increment() }
        return try await client.send(Get<CursorPage<Post>>(path: "/feed", query: ["limit": "5"]))
      }
      for _ in 0..<2 {
        guard await clock.waitForSleepers(1, .threads, giveUp: { done.value == 1 }) else { break }
        await clock.advance(by: .seconds(1))
      }
      await wakeSleepers(on: clock, of: task, until: done)
      let outcome = await task.result
      let page = try? outcome.get()
      #expect(page?.items.count == 5, "after two 503s the third attempt should return the first 5 posts; got \(outcome)")
      #expect(clock.sleepHistory == [.seconds(1), .seconds(1)], "Retry-After: 1 should be honoured: \(clock.sleepHistory)")
    }
  }

  @Test("integration: an expired token on the server is refreshed once and the call replayed")
  func refreshAgainstTheServer() async throws {
    try await withServer { server in
      let session = URLSession(configuration: .ephemeral)
      defer { session.finishTasksAndInvalidate() }
      let issued = server.issueTokens()
      server.chaos.expireTokens()
      let builder = RequestBuilder(baseURL: server.apiURL)
      let tokens = TokenStore(token: AuthToken(accessToken: issued.accessToken, refreshToken: issued.refreshToken, expiresAt: Self.farFuture)) {
        refreshToken in
        let plain = NetworkManager(session: session, builder: builder, retryPolicy: .never, clock: ContinuousClock())
        return try await plain.send(RefreshCall(refreshToken: refreshToken))
      }
      let clock = ManualClock()
      let client = NetworkManager(session: session, builder: builder, tokens: tokens, clock: clock)
      let user = try await outcome(on: clock) { try await client.send(Get<User>(path: "/users/me", requiresAuth: true)) }.get()
      #expect(user.email == "ada@example.com", "after the refresh the profile should load")
      #expect(clock.sleepHistory.isEmpty, "a 401 is answered by a refresh and a replay, not by a wait: \(clock.sleepHistory)")
      #expect(server.refreshCount == 1, "one refresh, saw \(server.refreshCount)")
    }
  }

  struct RefreshCall: APIRequest {
    typealias Response = TokenGrant
    var refreshToken: String
    var method: HTTPMethod { .post }
    var path: String { "/auth/refresh" }
    var body: RequestBody? { .json(["refresh_token": refreshToken]) }
  }

  @Test("the replay after a 401 is part of the attempt that got it: same id, same attempt number")
  func theReplayKeepsItsAttempt() async throws {
    let session = StubURLProtocol.session { request in
      let status = request.value(forHTTPHeaderField: "Authorization") == "Bearer fresh" ? 200 : 401
      return (StubURLProtocol.response(for: request, status: status), Data(#"{"status":"ok"}"#.utf8))
    }
    defer { session.finishTasksAndInvalidate() }
    let tokens = TokenStore(token: AuthToken(accessToken: "stale", refreshToken: "r", expiresAt: Self.farFuture)) { _ in
      TokenGrant(accessToken: "fresh", refreshToken: "r2", expiresIn: 3_600)
    }
    let clock = ManualClock()
    let plugin = RecordingPlugin()
    let metrics = MetricsPlugin(clock: clock)
    let client = manager(session, clock: clock, tokens: tokens, plugins: [plugin, metrics])
    _ = try await outcome(on: clock) { try await client.send(Get<Health>(path: "/users/me", requiresAuth: true)) }.get()
    let expected = [
      "prepare 1/1", "willSend 1/1 prepared: yes", "didReceive 1/1 unauthorized", "process 1/1 unauthorized",
      "prepare 1/1", "willSend 1/1 prepared: yes", "didReceive 1/1 200", "process 1/1 200",
    ]
    #expect(
      plugin.events.values == expected,
      "the replay belongs to attempt 1 (the retry policy never saw the 401), so the plugins see 1/1 twice; got \(plugin.events.values)")
    #expect(
      metrics.metrics.requests == 2 && metrics.metrics.retries == 0,
      "two requests went out, and a replay is not a retry: \(metrics.metrics)")
    #expect(clock.sleepHistory.isEmpty, "a replay after a refresh does not wait: \(clock.sleepHistory)")
  }

  @Test("with no token store, a target that requires auth goes out without a token and its 401 is final")
  func noTokenStoreMeansNoToken() async throws {
    let authorizations = Recorder<String>()
    let session = StubURLProtocol.session { request in
      authorizations.append(request.value(forHTTPHeaderField: "Authorization") ?? "(none)")
      return (StubURLProtocol.response(for: request, status: 401), Data())
    }
    defer { session.finishTasksAndInvalidate() }
    let clock = ManualClock()
    let client = manager(session, clock: clock)
    let error = await outcome(on: clock) { try await client.response(for: Get<Health>(path: "/users/me", requiresAuth: true)) }.networkError
    #expect(error == .unauthorized, "a 401 with nothing to refresh is final: .unauthorized, got \(String(describing: error))")
    #expect(authorizations.values == ["(none)"], "sent once, with no Authorization header: \(authorizations.values)")
  }

  /// Fails every `prepare`, as a signing plugin does when its key is missing.
  struct FailingPlugin: NetworkPlugin {
    let error: any Error
    func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest { throw error }
  }

  @Test("a plugin whose prepare throws ends the attempt before anything is sent")
  func aThrowingPrepareSendsNothing() async throws {
    struct KeyMissing: Error {}
    let requests = Counter()
    let session = StubURLProtocol.session { request in
      requests.increment()
      return (StubURLProtocol.response(for: request), Data(#"{"status":"ok"}"#.utf8))
    }
    defer { session.finishTasksAndInvalidate() }
    let cases: [(any Error, NetworkError)] = [(NetworkError.offline, .offline), (KeyMissing(), .transport(.unknown))]
    for (thrown, expected) in cases {
      let clock = ManualClock()
      let plugin = RecordingPlugin()
      let client = manager(session, clock: clock, plugins: [plugin, FailingPlugin(error: thrown)])
      let error = await outcome(on: clock) { try await client.response(for: Get<Health>(path: "/health")) }.networkError
      #expect(
        error == expected, "prepare threw \(thrown): the caller gets it as NetworkError(mapping:) makes it, \(expected); got \(String(describing: error))")
      #expect(
        plugin.events.values == ["prepare 1/1"],
        "a request that was never prepared is never sent: no willSend, no didReceive, no process; the plugins saw \(plugin.events.values)")
    }
    #expect(requests.value == 0, "nothing may reach the network when prepare fails, sent \(requests.value)")
  }

  @Test("the priorities are URLSession's own: low 0.25, normal 0.5, high 0.75")
  func prioritiesAreURLSessionsOwn() {
    let values = RequestPriority.allCases.map(\.taskPriority)
    let expected = [URLSessionTask.lowPriority, URLSessionTask.defaultPriority, URLSessionTask.highPriority]
    #expect(
      values == expected,
      "low, normal and high should be URLSessionTask.lowPriority, defaultPriority and highPriority, \(expected); got \(values)")
  }
}
