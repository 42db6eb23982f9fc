import Foundation
import PracticeServer
import Testing
import WorkbookTesting

@testable import Sync

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The convergence simulation trusts `InProcessServer` to answer as the practice server does over
/// HTTP. One script of pushes and pulls runs against both; every answer must have the same status
/// and the same body, but for the change tokens, which name each server's own run.
@Suite("InProcessServer answers as the practice server over HTTP", .timeLimit(.minutes(1)))
struct InProcessServerTests {
  /// One request of the script.
  enum Step {
    case push(String)
    case changes(limit: String?, since: Since)
    case request(method: String, path: String)
    case expireTokens
  }

  /// Which token a pull sends.
  enum Since {
    case none
    /// The `next` of this server's last page.
    case last
    case literal(String)
  }

  /// What a server answered, with every `next` token replaced by a placeholder.
  struct Answer: Equatable, CustomStringConvertible {
    var status: Int
    var contentType: String?
    var body: String

    var description: String { "\(status) \(contentType ?? "(no type)") \(body)" }
  }

  static func mutation(_ id: String, note: String, base: Int, set: String = #"{"title":"x"}"#, delete: Bool = false) -> String {
    #"{"id":"\#(id)","note":"\#(note)","base":\#(base),"set":\#(set),"delete":\#(delete),"editedAt":1800000000}"#
  }

  static let script: [Step] = {
    let hundredAndOne = (0..<101).map { mutation("big-\($0)", note: "big-\($0)", base: 0) }.joined(separator: ",")
    return [
      .changes(limit: nil, since: .none),
      .push(#"{"mutations":[\#(mutation("a1", note: "n1", base: 0)),\#(mutation("a2", note: "n2", base: 0, set: #"{"title":"y","color":"red"}"#))]}"#),
      .push(#"{"mutations":[\#(mutation("a1", note: "n1", base: 0))]}"#),
      .push(#"{"mutations":[\#(mutation("a3", note: "n1", base: 0, set: #"{"body":"stale"}"#))]}"#),
      .push(#"{"mutations":[\#(mutation("a4", note: "n2", base: 1, set: "{}", delete: true)),\#(mutation("a5", note: "n2", base: 2))]}"#),
      .push(#"{"mutations":[]}"#),
      .push("{\"mutations\":[\(hundredAndOne)]}"),
      .push(#"{"mutations":[\#(mutation("a6", note: "n3", base: 0, set: "{}"))]}"#),
      .push("not json"),
      .changes(limit: "1", since: .none),
      .changes(limit: "1", since: .last),
      .changes(limit: "1", since: .last),
      .changes(limit: "500", since: .none),
      .changes(limit: "0", since: .none),
      .changes(limit: "501", since: .none),
      .changes(limit: "ten", since: .none),
      .changes(limit: nil, since: .literal("not-a-token")),
      .changes(limit: "2", since: .none),
      .expireTokens,
      .changes(limit: "2", since: .last),
      .changes(limit: nil, since: .literal("")),
      .request(method: "GET", path: "v1/sync/push"),
      .request(method: "DELETE", path: "v1/sync/changes"),
      .request(method: "GET", path: "v1/sync/nowhere"),
    ]
  }()

  /// Plays the script through `transport` to the server at `baseURL`.
  static func play(_ transport: any SyncTransport, baseURL: URL, expire: () -> Void) async throws -> [Answer] {
    var answers: [Answer] = []
    var last: String?
    for step in script {
      var request: URLRequest
      switch step {
      case .expireTokens:
        expire()
        continue
      case .push(let body):
        request = URLRequest(url: baseURL.appendingPathComponent("v1/sync/push"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.utf8)
      case .changes(let limit, let since):
        var components = URLComponents(url: baseURL.appendingPathComponent("v1/sync/changes"), resolvingAgainstBaseURL: false)!
        var items: [URLQueryItem] = []
        if let limit { items.append(URLQueryItem(name: "limit", value: limit)) }
        switch since {
        case .none: break
        case .last: items.append(URLQueryItem(name: "since", value: last ?? ""))
        case .literal(let token): items.append(URLQueryItem(name: "since", value: token))
        }
        components.queryItems = items.isEmpty ? nil : items
        request = URLRequest(url: components.url!)
      case .request(let method, let path):
        request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
      }
      let (data, response) = try await transport.send(request)
      var body = String(decoding: data, as: UTF8.self)
      if var object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
        if let next = object["next"] as? String {
          last = next
          object["next"] = "(token)"
        }
        body = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
      }
      let contentType = response.value(forHTTPHeaderField: "Content-Type")
      answers.append(Answer(status: response.statusCode, contentType: contentType, body: body))
    }
    return answers
  }

  @Test func theInProcessServerAnswersEveryStepAsTheServerOverHTTPDoes() async throws {
    let server = try PracticeServer.started()
    defer { server.stop() }
    let overHTTP = try await Self.play(URLSessionSyncTransport(), baseURL: server.baseURL, expire: server.sync.expireTokens)
    let service = SyncService()
    let inProcess = try await Self.play(InProcessServer(service: service), baseURL: InProcessServer.baseURL, expire: service.expireTokens)
    #expect(overHTTP.count == inProcess.count, "both servers answer every step of the script")
    for (index, (http, local)) in zip(overHTTP, inProcess).enumerated() {
      #expect(
        http == local,
        "step \(index + 1) of the script (\(Self.script.filter { if case .expireTokens = $0 { false } else { true } }[index])): over HTTP the server answered \(http), in process \(local)"
      )
    }
    let statuses = overHTTP.map(\.status)
    #expect(
      statuses == [200, 200, 200, 200, 200, 400, 400, 400, 400, 200, 200, 200, 200, 400, 400, 400, 410, 200, 410, 200, 405, 405, 404],
      "the script covers success, replays, limits and every refusal; the server answered \(statuses)")
    #expect(server.sync.notes.map(\.id) == service.notes.map(\.id), "both servers end with the same notes")
    #expect(server.sync.appliedCount == service.appliedCount, "both servers applied the same edits")
  }

  // MARK: Dropped connections

  /// One push of a single mutation `id` to `baseURL`.
  static func push(_ id: String, to baseURL: URL) -> URLRequest {
    var request = URLRequest(url: baseURL.appendingPathComponent("v1/sync/push"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(#"{"mutations":[\#(mutation(id, note: id, base: 0))]}"#.utf8)
    return request
  }

  /// The `URLError` code a request fails with, or nil when it gets an answer.
  static func failure(_ request: URLRequest, through transport: any SyncTransport) async -> URLError.Code? {
    do {
      _ = try await transport.send(request)
      return nil
    } catch {
      return (error as? URLError)?.code ?? URLError.Code(rawValue: Int.min)
    }
  }

  @Test func aLostRequestAndALostReplyFailInProcessWithTheCodeURLSessionReportsOverHTTP() async throws {
    let server = try PracticeServer.started()
    defer { server.stop() }
    // A session of its own for each request: a fresh connection, which no client retries on its
    // own (a request that fails on a reused connection may be sent again without being asked).
    let overHTTP: (URLRequest) async -> URLError.Code? = { request in
      let session = URLSession(configuration: .ephemeral)
      defer { session.finishTasksAndInvalidate() }
      do {
        _ = try await session.data(for: request)
        return nil
      } catch {
        return (error as? URLError)?.code ?? URLError.Code(rawValue: Int.min)
      }
    }
    server.syncChaos.configure(seed: 1, rates: .init(requestLost: 100))
    let requestLostOverHTTP = await overHTTP(Self.push("lost-request", to: server.baseURL))
    server.syncChaos.configure(seed: 1, rates: .init(replyLost: 100))
    let replyLostOverHTTP = await overHTTP(Self.push("lost-reply", to: server.baseURL))
    #expect(
      requestLostOverHTTP == ChaosNetwork.droppedConnection && replyLostOverHTTP == ChaosNetwork.droppedConnection,
      "over HTTP, a connection closed without a reply fails with \(String(describing: requestLostOverHTTP)) (request lost) and \(String(describing: replyLostOverHTTP)) (reply lost); ChaosNetwork throws \(ChaosNetwork.droppedConnection)"
    )
    #expect(server.requestCount("/v1/sync/push") == 2, "each request reached the server once, not retried: \(server.requestCount("/v1/sync/push"))")
    #expect(!server.sync.applied("lost-request"), "a lost request is not applied")
    #expect(server.sync.applied("lost-reply"), "a lost reply's mutation was applied before the connection closed")

    // A device's first request with no reply closes the connection, as the practice server does
    // (its second times out instead, as `URLSession` reports a server that never answers).
    let network = ChaosNetwork(seed: 1, history: History())
    network.faults.configure(seed: 1, rates: .init(requestLost: 100))
    let requestLostInProcess = await Self.failure(Self.push("lost-request", to: InProcessServer.baseURL), through: network.link(for: "A"))
    network.faults.configure(seed: 1, rates: .init(replyLost: 100))
    let replyLostInProcess = await Self.failure(Self.push("lost-reply", to: InProcessServer.baseURL), through: network.link(for: "B"))
    #expect(requestLostInProcess == requestLostOverHTTP, "in process, a lost request fails with \(String(describing: requestLostInProcess))")
    #expect(replyLostInProcess == replyLostOverHTTP, "in process, a lost reply fails with \(String(describing: replyLostInProcess))")
    #expect(!network.server.applied("lost-request") && network.server.applied("lost-reply"), "in process too, only the lost reply's mutation is applied")
    let secondOfA = await Self.failure(Self.push("lost-again", to: InProcessServer.baseURL), through: network.link(for: "A"))
    #expect(secondOfA == .timedOut, "a device's second request with no reply times out: \(String(describing: secondOfA))")
  }
}
