import Foundation
import Sync
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A transport that decides, request by request, what the network does: deliver the request to
/// a server (the practice server over URLSession, or `InProcessServer`), lose the answer after the
/// server applied it, or answer in the server's place. It records every request, and it stops a
/// client that keeps asking (a pull that never ends) with a lost connection after `limit`
/// requests, so such code fails at once instead of at the suite's time limit.
final class ScriptedSyncTransport: SyncTransport {
  /// What happens to one request.
  enum Step: Sendable {
    /// The server gets it and its answer comes back.
    case deliver
    /// The server gets it and applies it; the answer is lost and the client sees the connection drop.
    case replyLost
    /// The request never leaves: the client sees this error.
    case fail(URLError.Code)
    /// The network answers in the server's place, which never sees the request.
    case answer(status: Int, body: Data)
  }

  private struct State {
    var script: [Step]
    var requests: [URLRequest] = []
  }

  private let server: (any SyncTransport)?
  private let afterScript: Step
  private let limit: Int
  private let state: Mutex<State>

  /// `script` is played one step per request; after it, every request gets `afterScript`.
  init(server: (any SyncTransport)?, script: [Step] = [], afterScript: Step = .deliver, limit: Int = 40) {
    self.server = server
    self.afterScript = afterScript
    self.limit = limit
    state = Mutex(State(script: script))
  }

  /// Every request the client sent, in order, the ones past `limit` included.
  var requests: [URLRequest] { state.withLock { $0.requests } }

  /// Whether the client sent more than `limit` requests.
  var ranAway: Bool { requests.count > limit }

  func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    let step = state.withLock { state -> Step in
      state.requests.append(request)
      if state.requests.count > limit { return .fail(.notConnectedToInternet) }
      return state.script.isEmpty ? afterScript : state.script.removeFirst()
    }
    switch step {
    case .deliver:
      return try await deliver(request)
    case .replyLost:
      _ = try await deliver(request)
      throw URLError(.networkConnectionLost)
    case .fail(let code):
      throw URLError(code)
    case .answer(let status, let body):
      let response = HTTPURLResponse(
        url: request.url ?? InProcessServer.baseURL, statusCode: status, httpVersion: "HTTP/1.1",
        headerFields: ["Content-Type": "application/json"])!
      return (body, response)
    }
  }

  private func deliver(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    guard let server else { throw URLError(.cannotConnectToHost) }
    return try await server.send(request)
  }
}

/// The pieces of sent requests a test reads back.
extension URLRequest {
  /// The mutation ids of a push, in the order they were sent (empty when the body is not a push).
  var pushedIDs: [String] {
    guard let body = httpBody, let push = try? SyncJSON.decoder().decode(PushBody.self, from: body) else { return [] }
    return push.mutations.map(\.id)
  }

  /// The value of a query parameter, nil when the URL has none by that name.
  func query(_ name: String) -> String? {
    guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
    return components.queryItems?.first { $0.name == name }?.value
  }
}

/// Edits for the push and pull tests: ids and notes in the server's alphabet, a fixed edit time.
enum Edits {
  static let editedAt = Date(timeIntervalSince1970: 1_800_000_000)

  /// `count` edits of one note, each on the version the one before it makes (0, 1, 2, …): sent in
  /// order they all apply; sent out of order, the later ones come back 412.
  static func chain(_ count: Int, note: String = "n1", prefix: String = "m") -> [Mutation] {
    (0..<count).map { index in
      Mutation(id: "\(prefix)-\(index)", note: note, base: index, set: ["title": "t\(index)"], editedAt: editedAt)
    }
  }

  /// `count` new notes, `note-0` to `note-(count-1)`, one edit each.
  static func newNotes(_ count: Int, prefix: String = "m") -> [Mutation] {
    (0..<count).map { index in
      Mutation(id: "\(prefix)-\(index)", note: "note-\(index)", base: 0, set: ["title": "t\(index)"], editedAt: editedAt)
    }
  }
}
