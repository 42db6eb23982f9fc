import Foundation
import Testing
import WorkbookTesting

@testable import Networking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Exercise 1 — Requests and typed errors", .timeLimit(.minutes(1)))
struct Exercise1_NetworkErrorTests {
  @Test func urlErrorCodesMapOntoTheCasesTheAppActsOn() {
    #expect(NetworkError(URLError(.notConnectedToInternet)) == .offline, "no connection at all is .offline: the app shows an offline state")
    #expect(NetworkError(URLError(.timedOut)) == .timeout, "a timed-out request is .timeout")
    #expect(NetworkError(URLError(.cancelled)) == .cancelled, "a cancelled task is .cancelled, which is never shown as an error")
    #expect(
      NetworkError(URLError(.networkConnectionLost)) == .transport(.networkConnectionLost),
      "a dropped connection is a transport error that keeps its URLError code (the retry policy needs it)")
    #expect(NetworkError(URLError(.cannotFindHost)) == .transport(.cannotFindHost), "other codes stay .transport with their code")
  }

  @Test func anyErrorIsMapped() {
    #expect(NetworkError(mapping: CancellationError()) == .cancelled, "a CancellationError is .cancelled")
    #expect(NetworkError(mapping: NetworkError.unauthorized) == .unauthorized, "a NetworkError passes through unchanged")
    #expect(NetworkError(mapping: URLError(.timedOut)) == .timeout, "a URLError goes through the URLError mapping")
    struct Unexpected: Error {}
    #expect(NetworkError(mapping: Unexpected()) == .transport(.unknown), "an error of no known kind is .transport(.unknown)")
    let decoding = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not JSON"))
    guard case .decoding(let text) = NetworkError(mapping: decoding) else {
      Issue.record("a DecodingError should be .decoding, got \(NetworkError(mapping: decoding))")
      return
    }
    #expect(text.contains("not JSON"), "the .decoding text should describe the DecodingError, got: \(text)")
  }

  @Test func onlyFiveHundredsAreServerErrors() {
    #expect(NetworkError.http(status: 500, body: Data()).isServerError, "500 is the server's fault")
    #expect(NetworkError.http(status: 503, body: Data()).isServerError, "503 is the server's fault")
    #expect(!NetworkError.http(status: 404, body: Data()).isServerError, "404 is the client's request, not the server's fault")
    #expect(!NetworkError.http(status: 600, body: Data()).isServerError, "600 is outside the 500s")
    #expect(!NetworkError.timeout.isServerError, "a timeout has no status at all")
  }

  @Test func statusCodesMapOntoErrors() {
    let body = Data(#"{"error":"nope"}"#.utf8)
    #expect(NetworkError.check(status: 200, body: body) == nil, "200 is a success")
    #expect(NetworkError.check(status: 204, body: Data()) == nil, "204 is a success")
    #expect(NetworkError.check(status: 401, body: body) == .unauthorized, "401 is .unauthorized, so the client can refresh the token")
    #expect(NetworkError.check(status: 404, body: body) == .http(status: 404, body: body), "other 4xx keep their status and body")
    #expect(
      NetworkError.check(status: 503, body: body, retryAfter: "2") == .http(status: 503, body: body, retryAfter: "2"),
      "5xx keep status, body and the Retry-After value")
    #expect(NetworkError.check(status: 302, body: body) == .http(status: 302, body: body), "a status outside 200–299 is not a success")
  }

  @Test func decodingFailuresAreTypedAndKeepTheUnderlyingError() {
    do {
      let value = try NetworkError.decode(Health.self, from: Data(#"{"state":"ok"}"#.utf8), using: JSONCoding.decoder())
      Issue.record("a body without the `status` key must not decode, got \(value)")
    } catch {
      guard case .decoding(let text) = error else {
        Issue.record("a decoder failure should be .decoding, got \(error)")
        return
      }
      #expect(text.contains("status"), "the .decoding text should describe the underlying DecodingError (the missing key), got: \(text)")
    }
    let empty = try? NetworkError.decode(EmptyResponse.self, from: Data(), using: JSONCoding.decoder())
    #expect(empty == EmptyResponse(), "an empty body should decode as EmptyResponse (a 204 has no JSON)")
  }

  @Test func everyCaseHasAUserFacingSentenceThatLeaksNoBody() {
    let secret = Data("stack trace: password=hunter2".utf8)
    let cases: [NetworkError] = [
      .badURL("x"), .transport(.cannotFindHost), .offline, .timeout, .http(status: 500, body: secret),
      .http(status: 404, body: secret), .unauthorized, .decoding("keyNotFound"), .encoding("x"), .cancelled,
    ]
    var seen = Set<String>()
    for error in cases {
      let text = error.errorDescription ?? ""
      #expect(!text.isEmpty, "\(error) needs a sentence for the user")
      #expect(!text.contains("hunter2"), "a user-facing message must never contain the response body: \(text)")
      seen.insert(text)
    }
    #expect(seen.count >= 8, "the cases need distinct messages (offline, timeout, unauthorized… are different situations), found \(seen.count)")
    #expect(NetworkError.offline.errorDescription?.lowercased().contains("offline") == true, "the offline message should say so")
  }

  @Test func aRealURLSessionFailureMapsToOffline() async throws {
    let session = StubURLProtocol.session { _ in throw URLError(.notConnectedToInternet) }
    defer { session.finishTasksAndInvalidate() }
    do {
      _ = try await session.data(for: URLRequest(url: URL(string: "https://api.example.com/v1/feed")!))
      Issue.record("the stub fails every request")
    } catch {
      #expect(NetworkError(mapping: error) == .offline, "URLSession's 'not connected' error should map to .offline, got \(NetworkError(mapping: error))")
    }
  }

  @Test("integration: a request timeout against a slow server maps to .timeout")
  func timeoutAgainstTheServer() async throws {
    try await withServer { server in
      server.chaos.delay(milliseconds: 20_000)
      let session = URLSession(configuration: .ephemeral)
      defer { session.invalidateAndCancel() }
      var request = URLRequest(url: server.baseURL.appendingPathComponent("v1/feed"))
      request.timeoutInterval = 0.3
      // URLSession's own timer ends the request; what is checked is the error it becomes.
      do {
        _ = try await session.data(for: request)
        Issue.record("the server answers after 20 s; a 0.3 s timeout must fire first")
      } catch {
        #expect(NetworkError(mapping: error) == .timeout, "a request timeout should map to .timeout, got \(NetworkError(mapping: error))")
      }
    }
  }

  @Test("an empty body is EmptyResponse and nothing else")
  func anEmptyBodyIsOnlyAnEmptyResponse() {
    #expect(
      throws: NetworkError.self, "an empty body is no JSON: as any type other than EmptyResponse it is .decoding"
    ) { try NetworkError.decode(Health.self, from: Data(), using: JSONCoding.decoder()) }
    do {
      _ = try NetworkError.decode(Health.self, from: Data(), using: JSONCoding.decoder())
    } catch {
      guard case .decoding = error else {
        Issue.record("an empty body for Health should be .decoding, got \(error)")
        return
      }
    }
  }

  @Test("the text a case carries is for logs, never for the user's sentence")
  func theCarriedTextStaysOutOfTheSentence() {
    for error in [NetworkError.badURL("SECRET-U"), .decoding("keyNotFound: SECRET-D"), .encoding("SECRET-E")] {
      let text = error.errorDescription ?? ""
      #expect(!text.isEmpty, "\(error) needs a sentence for the user")
      #expect(
        !text.contains("SECRET"),
        "the text of .badURL, .decoding and .encoding is for logs (a decoder's message quotes the response): keep it out of the sentence; got: \(text)"
      )
    }
  }

  @Test("every code that means no connection at all is .offline; any other keeps its code")
  func everyNoConnectionCodeIsOffline() {
    for code in [URLError.Code.notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff] {
      #expect(
        NetworkError(URLError(code)) == .offline,
        "\(code) means no connection at all (no radio, mobile data off, roaming off): it should be .offline, got \(NetworkError(URLError(code)))")
    }
    for code in [URLError.Code.secureConnectionFailed, .badServerResponse, .cannotConnectToHost] {
      #expect(
        NetworkError(URLError(code)) == .transport(code),
        "\(code) is a transport failure that keeps its code, got \(NetworkError(URLError(code)))")
    }
  }

  @Test("an empty body is no JSON object, even for a type whose fields are all optional")
  func anEmptyBodyIsNotAnEmptyObject() {
    struct Note: Decodable { var text: String? }
    do {
      let note = try NetworkError.decode(Note.self, from: Data(), using: JSONCoding.decoder())
      Issue.record("an empty body as a type other than EmptyResponse should be .decoding, got \(note)")
    } catch {
      guard case .decoding = error else {
        Issue.record("an empty body for Note should be .decoding, got \(error)")
        return
      }
    }
  }
}
