import Foundation
import Testing
import WorkbookTesting

@testable import Networking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Exercise 5 — Plugins: tokens, redacted logs, metrics", .timeLimit(.minutes(1)))
struct Exercise5_PluginTests {
  struct Tagger: NetworkPlugin {
    let name: String
    let events: Recorder<String>

    func prepare(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
      events.append("\(name).prepare")
      var request = request
      let previous = request.value(forHTTPHeaderField: "X-Order") ?? ""
      request.setValue(previous + name, forHTTPHeaderField: "X-Order")
      return request
    }
    func willSend(_ request: URLRequest, context: RequestContext) { events.append("\(name).willSend") }
    func didReceive(_ result: Result<HTTPResponse, NetworkError>, for request: URLRequest, context: RequestContext) {
      events.append("\(name).didReceive")
    }
    func process(_ result: Result<HTTPResponse, NetworkError>, context: RequestContext) -> Result<HTTPResponse, NetworkError> {
      events.append("\(name).process")
      return result.map { response in
        var response = response
        response.headers["X-Seen", default: ""] += name
        return response
      }
    }
  }

  let request = URLRequest(url: URL(string: "https://api.example.com/v1/me")!)

  @Test func pluginsRunInOrderAtEveryPoint() async throws {
    let events = Recorder<String>()
    let chain = PluginChain([Tagger(name: "A", events: events), Tagger(name: "B", events: events)])
    let context = RequestContext(id: 1)
    let prepared = try await chain.prepare(request, context: context)
    chain.willSend(prepared, context: context)
    let result: Result<HTTPResponse, NetworkError> = .success(HTTPResponse(status: 200))
    chain.didReceive(result, for: prepared, context: context)
    let processed = chain.process(result, context: context)
    #expect(prepared.value(forHTTPHeaderField: "X-Order") == "AB", "each plugin prepares the request the previous one returned, in order")
    #expect((try? processed.get())?.headers["X-Seen"] == "AB", "each plugin processes the result the previous one returned, in order")
    #expect(
      events.values == ["A.prepare", "B.prepare", "A.willSend", "B.willSend", "A.didReceive", "B.didReceive", "A.process", "B.process"],
      "plugins run in the order given, at each of the four points; got \(events.values)")
  }

  @Test func theAccessTokenPluginAddsABearerHeaderOnlyWhenThereIsAToken() async throws {
    let auth = RequestContext(id: 1, requiresAuth: true)
    let withToken = try await AccessTokenPlugin { "abc" }.prepare(request, context: auth)
    #expect(withToken.value(forHTTPHeaderField: "Authorization") == "Bearer abc", "a request that needs auth gets Bearer <token>")
    let none = try await AccessTokenPlugin { nil }.prepare(request, context: auth)
    #expect(none.value(forHTTPHeaderField: "Authorization") == nil, "no token: no Authorization header at all, never an empty `Bearer `")
    let empty = try await AccessTokenPlugin { "" }.prepare(request, context: auth)
    #expect(empty.value(forHTTPHeaderField: "Authorization") == nil, "an empty token is no token: no `Bearer ` header")
    let open = try await AccessTokenPlugin { "abc" }.prepare(request, context: RequestContext(id: 1, requiresAuth: false))
    #expect(open.value(forHTTPHeaderField: "Authorization") == nil, "a public endpoint (login, refresh) must not carry the token")
  }

  @Test("the log never contains a secret, whatever its letter case")
  func logsAreRedacted() {
    let lines = Recorder<String>()
    let logger = LoggingPlugin { lines.append($0) }
    var request = URLRequest(url: URL(string: "https://api.example.com/v1/login?Access_Token=SECRET-Q1&page=2&email=SECRET-Q2%40mail.test")!)
    request.httpMethod = "POST"
    request.setValue("Bearer SECRET-H1", forHTTPHeaderField: "authorization")
    request.setValue("session=SECRET-H2", forHTTPHeaderField: "COOKIE")
    request.setValue("SECRET-H3", forHTTPHeaderField: "x-Api-Key")
    request.setValue("fine", forHTTPHeaderField: "X-Trace")
    request.httpBody = Data(
      #"{"Password":"SECRET-B1","user":{"email":"SECRET-B2","refresh_token":"SECRET-B3"},"items":[{"token":"SECRET-B4"}],"accessToken":"SECRET-B5","page":2}"#
        .utf8)
    let context = RequestContext(id: 1)
    logger.willSend(request, context: context)
    let response = HTTPResponse(
      status: 200, headers: ["Set-Cookie": "id=SECRET-R1", "Content-Type": "application/json"],
      data: Data(#"{"access_token":"SECRET-R2","refresh_token":"SECRET-R3","name":"Ada"}"#.utf8))
    logger.didReceive(.success(response), for: request, context: context)
    logger.didReceive(.failure(.http(status: 400, body: Data(#"{"password":"SECRET-R4"}"#.utf8))), for: request, context: context)
    #expect(!lines.values.isEmpty, "the logger should log the request and the response")
    for line in lines.values {
      #expect(!line.contains("SECRET"), "a secret reached the log: \(line)")
    }
    let text = lines.values.joined(separator: "\n")
    #expect(text.contains("X-Trace: fine"), "harmless headers are logged as they are:\n\(text)")
    #expect(text.contains("page=2"), "harmless query items are logged as they are:\n\(text)")
    #expect(text.contains("\"name\":\"Ada\""), "harmless body fields are logged as they are:\n\(text)")
    #expect(text.contains("POST"), "the method is logged")
    #expect(text.contains("200"), "the status of a response is logged (200):\n\(text)")
    #expect(text.contains("400"), "a failure is logged with its status (400):\n\(text)")
  }

  @Test("a body that is not JSON is logged as its size only: nobody checked it for secrets")
  func aBodyThatIsNotJSONIsLoggedAsItsSize() {
    let form = Data("user=ada&password=SECRET-F1".utf8)
    let logged = Redactor.body(form)
    #expect(!logged.contains("SECRET"), "a form body reached the log: \(logged)")
    #expect(logged == "<\(form.count) bytes>", "a body that is not a JSON object or array is logged as <N bytes>, got \(logged)")
  }

  @Test func redactorHeadersIgnoreLetterCase() {
    let masked = Redactor.headers(["AUTHORIZATION": "a", "Set-cookie": "b", "X-API-KEY": "c", "Accept": "d"])
    #expect(masked["AUTHORIZATION"] == Redactor.mask && masked["Set-cookie"] == Redactor.mask, "header names are case-insensitive")
    #expect(masked["X-API-KEY"] == Redactor.mask, "X-API-Key in any case is secret")
    #expect(masked["Accept"] == "d", "other headers stay")
  }

  @Test func metricsCountAttemptsAndMeasureThemOnTheInjectedClock() {
    let clock = ManualClock()
    let metrics = MetricsPlugin(clock: clock)
    let ok: Result<HTTPResponse, NetworkError> = .success(HTTPResponse(status: 200))
    metrics.willSend(request, context: RequestContext(id: 1, attempt: 1))
    clock.advance(by: .milliseconds(300))
    metrics.didReceive(.failure(.timeout), for: request, context: RequestContext(id: 1, attempt: 1))
    metrics.willSend(request, context: RequestContext(id: 1, attempt: 2))
    clock.advance(by: .milliseconds(100))
    metrics.didReceive(ok, for: request, context: RequestContext(id: 1, attempt: 2))
    metrics.willSend(request, context: RequestContext(id: 2, attempt: 1))
    clock.advance(by: .milliseconds(50))
    metrics.didReceive(ok, for: request, context: RequestContext(id: 2, attempt: 1))
    let snapshot = metrics.metrics
    #expect(snapshot.requests == 3, "three attempts were sent, counted \(snapshot.requests)")
    #expect(snapshot.retries == 1, "one attempt was a retry, counted \(snapshot.retries)")
    #expect(snapshot.successes == 2 && snapshot.failures == 1, "2 successes and 1 failure, got \(snapshot.successes)/\(snapshot.failures)")
    #expect(
      snapshot.durations == [.milliseconds(300), .milliseconds(100), .milliseconds(50)], "durations come from the injected clock, got \(snapshot.durations)")
    #expect(abs(snapshot.successRate - 2.0 / 3.0) < 0.0001, "success rate is successes / finished attempts, got \(snapshot.successRate)")
  }

  @Test("metrics count attempts from many threads at once without losing one")
  func metricsCountConcurrentAttempts() {
    // A stress test, kept as evidence: each event is one withLock, so there is no window to force.
    let metrics = MetricsPlugin(clock: ManualClock())
    let request = self.request
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for index in 0..<500 {
        let context = RequestContext(id: thread * 1_000 + index, attempt: index % 2 + 1)
        metrics.willSend(request, context: context)
        let result: Result<HTTPResponse, NetworkError> = index % 4 == 0 ? .failure(.timeout) : .success(HTTPResponse(status: 200))
        metrics.didReceive(result, for: request, context: context)
      }
    }
    let snapshot = metrics.metrics
    #expect(
      snapshot.requests == 4_000 && snapshot.retries == 2_000,
      "8 threads sent 500 attempts each, half of them retries: counted \(snapshot.requests) attempts and \(snapshot.retries) retries (an update split over two withLock calls loses counts)"
    )
    #expect(
      snapshot.successes == 3_000 && snapshot.failures == 1_000 && snapshot.durations.count == 4_000,
      "3,000 successes, 1,000 failures and 4,000 durations expected; got \(snapshot.successes), \(snapshot.failures) and \(snapshot.durations.count)"
    )
  }

  @Test("a response outside 200–299 counts as a failure, even when it arrives as a response")
  func aServerErrorResponseIsAFailure() {
    let metrics = MetricsPlugin(clock: ManualClock())
    metrics.willSend(request, context: RequestContext(id: 1))
    metrics.didReceive(.success(HTTPResponse(status: 500)), for: request, context: RequestContext(id: 1))
    let snapshot = metrics.metrics
    #expect(
      snapshot.successes == 0 && snapshot.failures == 1,
      "a 500 is a failure whether a client hands it over as .success(response) or as .failure(.http): got \(snapshot.successes) successes, \(snapshot.failures) failures"
    )
  }

  @Test("the token replaces an Authorization header the request already had")
  func theAccessTokenReplacesAnOldHeader() async throws {
    var request = self.request
    request.setValue("Bearer old", forHTTPHeaderField: "Authorization")
    let prepared = try await AccessTokenPlugin { "abc" }.prepare(request, context: RequestContext(id: 1, requiresAuth: true))
    let header = prepared.value(forHTTPHeaderField: "Authorization")
    #expect(header == "Bearer abc", "a request carries one Authorization header, the current token's; got \(String(describing: header))")
  }

  @Test("a secret field's value is masked whole, whatever its type")
  func secretValuesAreMaskedWhole() {
    let body = Data(
      #"{"token":{"value":"SECRET-1"},"password":12345678,"email":["SECRET-2"],"refresh_token":null,"user":{"access_token":{"a":["SECRET-3"]},"id":7}}"#
        .utf8)
    let logged = Redactor.body(body)
    #expect(
      logged
        == #"{"email":"<redacted>","password":"<redacted>","refresh_token":"<redacted>","token":"<redacted>","user":{"access_token":"<redacted>","id":7}}"#,
      "a secret key's value is replaced by the mask whether it is a string, a number, null, an object or an array (a PIN is a number; a token may be an object); got \(logged)"
    )
  }

  @Test("a name is secret when it is a secret name, not when it contains one")
  func onlyWholeSecretNamesAreMasked() {
    let logged = Redactor.body(Data(#"{"Email":"SECRET-1","email_verified":"yes","token_type":"Bearer"}"#.utf8))
    #expect(!logged.contains("SECRET"), "Email is email in another case: masked; got \(logged)")
    #expect(
      logged.contains(#""email_verified":"yes""#) && logged.contains(#""token_type":"Bearer""#),
      "email_verified and token_type are not secret names (they only contain one): logged as they are; got \(logged)")
    let url = Redactor.url(URL(string: "https://api.example.com/v1/a?token_type=bearer&TOKEN=SECRET-2&z=1")!)
    #expect(!url.contains("SECRET"), "TOKEN is token in another case: masked; got \(url)")
    #expect(url.hasPrefix("https://api.example.com/v1/a?token_type=bearer&TOKEN="), "a harmless item stays as it is, in its place; got \(url)")
    #expect(url.hasSuffix("&z=1"), "the items after a secret one stay as they are, in order; got \(url)")
  }

  @Test("a cancelled attempt counts as a failure")
  func aCancelledAttemptIsAFailure() {
    let metrics = MetricsPlugin(clock: ManualClock())
    metrics.willSend(request, context: RequestContext(id: 1))
    metrics.didReceive(.failure(.cancelled), for: request, context: RequestContext(id: 1))
    let snapshot = metrics.metrics
    #expect(
      snapshot.failures == 1 && snapshot.successes == 0 && snapshot.durations.count == 1,
      "a cancelled attempt was sent and did not succeed: one failure with its duration; got \(snapshot.successes) successes, \(snapshot.failures) failures, \(snapshot.durations.count) durations"
    )
  }

  @Test("for a request that needs no auth the token is not even asked for")
  func aPublicRequestDoesNotAskForTheToken() async throws {
    let asked = Counter()
    let plugin = AccessTokenPlugin {
      asked.increment()
      return "abc"
    }
    _ = try await plugin.prepare(request, context: RequestContext(id: 1, requiresAuth: false))
    #expect(
      asked.value == 0,
      "the token may wait for a refresh, and the refresh request needs no auth: asking for the token there waits for itself; asked \(asked.value) time(s)"
    )
  }
}
