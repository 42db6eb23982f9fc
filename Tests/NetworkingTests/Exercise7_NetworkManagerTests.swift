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
    policy: RetryPolicy = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(10), jitter: .none)
  ) -> NetworkManager<ManualClock> {
    NetworkManager(
      session: session, builder: RequestBuilder(baseURL: base), retryPolicy: policy, tokens: tokens, plugins: plugins,
      clock: clock,
      random: .constant(0))
  }

  @Test func sendBuildsSendsChecksAndDecodes() async throws {
    let seen = Recorder<URLRequest>()
    let session = StubURLProtocol.session { request in
      seen.append(request)
      return (StubURLProtocol.response(for: request), Data(#"{"id":"u1","name":"Ada","email":"ada@example.com"}"#.utf8))
    }
    defer { session.finishTasksAndInvalidate() }
    let user = try await manager(session).send(Get<User>(path: "/users/me"))
    #expect(user.name == "Ada", "the response should be decoded with the API's conventions")
    #expect(seen.values.first?.url?.absoluteString == "https://api.example.com/v1/users/me", "the request goes to the built URL")

    let failing = StubURLProtocol.session { request in (StubURLProtocol.response(for: request, status: 404), Data("{}".utf8)) }
    defer { failing.finishTasksAndInvalidate() }
    let error = await failure(of: Task { try await manager(failing).send(Get<User>(path: "/users/x")) })
    #expect(error == .http(status: 404, body: Data("{}".utf8)), "a 404 should reach the caller as .http(404), got \(String(describing: error))")
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
    for _ in 0..<2 {
      guard await clock.waitForSleepers(1, giveUp: { done.value == 1 }) else { break }
      await clock.advance(by: .seconds(10))
    }
    await release(clock, until: done)
    let health = try? await task.value
    #expect(health == Health(status: "ok"), "two 503s and then a 200: the manager should retry and succeed")
    #expect(calls.value == 3, "3 attempts expected, saw \(calls.value)")
    #expect(clock.sleepHistory == [.seconds(1), .seconds(2)], "the waits come from the policy, on the injected clock: \(clock.sleepHistory)")
    #expect(metrics.metrics.requests == 3 && metrics.metrics.retries == 2, "plugins see every attempt: \(metrics.metrics)")
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
    if await clock.waitForSleepers(1, giveUp: { done.value == 1 }) { await clock.advance(by: .seconds(10)) }
    await release(clock, until: done)
    let health = try? await task.value
    #expect(health == Health(status: "processed"), "what process returns is what the caller gets, got \(String(describing: health))")
    #expect(prepared.values == ["yes", "yes"], "the request prepare returns is the one sent, on every attempt; the server saw \(prepared.values)")
    _ = try? await client.send(Get<Health>(path: "/health"))
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
      return AuthToken(accessToken: "fresh", refreshToken: "r2", expiresAt: Self.farFuture)
    }
    let result = try await manager(session, tokens: tokens).send(Get<Health>(path: "/users/me", requiresAuth: true))
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
      return AuthToken(accessToken: "t2", refreshToken: "r2", expiresAt: Self.farFuture)
    }
    let error = await failure(of: Task { try await manager(session, tokens: tokens).response(for: API.refresh(refreshToken: "r")) })
    #expect(error == .unauthorized, "a rejected refresh call is simply .unauthorized")
    #expect(refreshes.value == 0, "a 401 from the refresh endpoint must never trigger another refresh")
    #expect(authorizations.values == ["(none)"], "a public endpoint is sent once, without the access token: \(authorizations.values)")
  }

  @Test func priorityReachesTheURLSessionTask() {
    let session = StubURLProtocol.session { request in (StubURLProtocol.response(for: request), Data()) }
    defer { session.finishTasksAndInvalidate() }
    let client = manager(session)
    let request = URLRequest(url: base)
    for priority in RequestPriority.allCases {
      let task = client.dataTask(for: request, priority: priority) { _, _, _ in }
      #expect(task.priority == priority.taskPriority, "\(priority) should set URLSessionTask.priority to \(priority.taskPriority), got \(task.priority)")
      task.cancel()
    }
    #expect(RequestPriority.high.taskPriority > RequestPriority.low.taskPriority, "high must outrank low")
  }

  @Test("integration: cancelling the caller cancels the URLSession task at once")
  func cancellationReachesTheSession() async throws {
    try await withServer { server in
      server.chaos.delay(milliseconds: 20_000)
      let session = URLSession(configuration: .ephemeral)
      defer { session.invalidateAndCancel() }
      let client = NetworkManager(
        session: session, builder: RequestBuilder(baseURL: server.apiURL), retryPolicy: .never, clock: ManualClock())
      let task = Task { try await client.send(Get<Health>(path: "/feed")) }
      let arrived = await eventually { server.requestCount("/v1/feed") == 1 }
      #expect(arrived, "the request should reach the server")
      let started = ContinuousClock.now
      task.cancel()
      let error = await failure(of: task)
      #expect(error == .cancelled, "a cancelled caller should get .cancelled, got \(String(describing: error))")
      #expect(ContinuousClock.now - started < .seconds(5), "cancellation must stop the URLSession task, not wait for the 20 s response")
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
        guard await clock.waitForSleepers(1, giveUp: { done.value == 1 }) else { break }
        await clock.advance(by: .seconds(1))
      }
      await release(clock, until: done)
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
      let client = NetworkManager(session: session, builder: builder, tokens: tokens, clock: ManualClock())
      let user = try await client.send(Get<User>(path: "/users/me", requiresAuth: true))
      #expect(user.email == "ada@example.com", "after the refresh the profile should load")
      #expect(server.refreshCount == 1, "one refresh, saw \(server.refreshCount)")
    }
  }

  struct RefreshCall: APIRequest {
    typealias Response = AuthToken
    var refreshToken: String
    var method: HTTPMethod { .post }
    var path: String { "/auth/refresh" }
    var body: RequestBody? { .json(["refresh_token": refreshToken]) }
  }

  /// A client that waits longer or more often than it should would sleep on the clock forever:
  /// keep waking whatever sleeps, for about two seconds, so the test ends and reports the mistake
  /// (the waits it asked for stay in `sleepHistory`).
  func release(_ clock: ManualClock, until done: Counter) async {
    for _ in 0..<2_000 where done.value == 0 {
      if clock.sleepers > 0 { await clock.advance(by: .seconds(3_600)) }
      try? await Task.sleep(nanoseconds: 1_000_000)
    }
  }
}
