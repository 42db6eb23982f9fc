// Given: how the engine reaches the server. Nothing to write here.
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends one HTTP request and returns the reply: `URLSession` in the app, a scripted or chaotic
/// server in tests. A transport throws only when no reply came (offline, a timeout); any status is
/// a reply.
public protocol SyncTransport: Sendable {
  func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// The real network.
public nonisolated struct URLSessionSyncTransport: SyncTransport {
  public let session: URLSession

  public init(session: URLSession = .shared) { self.session = session }

  public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    let (data, response) = try await session.data(for: request)
    guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
    return (data, http)
  }
}
