// Exercise 2 — Push (intermediate)
//
// The outbox goes to the server in order, in batches, and each batch is retried with chapter 3's
// `RetryPolicy` when the server or the network fails for a moment. A push is a POST, which a
// network layer must not repeat blindly; this one may, because every mutation carries its own id
// and the server applies an id once, answering a repeat with the result it stored. That only holds
// if a retry sends the very same mutations: the same ids, every attempt.
import Foundation
import Networking
import Workbook

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends mutations to `POST /v1/sync/push`.
public nonisolated struct Pusher<C: Clock>: Sendable where C.Duration == Duration {
  public let transport: any SyncTransport
  /// The server's root, such as `http://127.0.0.1:8080`.
  public let baseURL: URL
  /// Mutations per request, 1 to `PushBody.maximumBatch`.
  public let batchSize: Int
  public let policy: RetryPolicy
  public let clock: C
  public let random: RandomSource

  public init(
    transport: any SyncTransport, baseURL: URL, batchSize: Int = 50, policy: RetryPolicy = RetryPolicy(), clock: C,
    random: RandomSource = .system
  ) {
    self.transport = transport
    self.baseURL = baseURL
    self.batchSize = min(max(batchSize, 1), PushBody.maximumBatch)
    self.policy = policy
    self.clock = clock
    self.random = random
  }

  /// Pushes `mutations` in order, `batchSize` at a time, and returns the server's result for each,
  /// in the same order. A batch that still fails after its retries ends the push with that
  /// failure (the caller keeps every unanswered mutation in its outbox); results of the batches
  /// before it are lost with it, which is safe: the server answers them again from its store.
  /// Each batch carries `since`, the change token the caller last pulled; a server that refuses it
  /// as older than its tombstone horizon (410) ends the push with `.tokenExpired`.
  public func push(_ mutations: [Mutation], since: String? = nil) async throws(SyncError) -> [PushResult] {
    var results: [PushResult] = []
    var start = mutations.startIndex
    while start < mutations.endIndex {
      let end = min(start + batchSize, mutations.endIndex)
      let batch = Array(mutations[start..<end])
      results += try await send(batch, since: since)
      start = end
    }
    return results
  }

  /// One batch: one request body, encoded once and sent as is on every attempt.
  private func send(_ batch: [Mutation], since: String?) async throws(SyncError) -> [PushResult] {
    let body: Data
    do {
      body = try SyncJSON.encoder().encode(PushBody(mutations: batch, since: since))
    } catch {
      throw .malformed("the push could not be encoded: \(error)")
    }
    var request = URLRequest(url: baseURL.appendingPathComponent("v1/sync/push"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = body
    let reply: PushReply
    do {
      reply = try await policy.run(method: .post, idempotencyKey: batch.first?.id, clock: clock, random: random) { _ in
        let (data, response) = try await transport.send(request)
        if let failure = NetworkError.check(
          status: response.statusCode, body: data, retryAfter: response.value(forHTTPHeaderField: "Retry-After"))
        {
          throw failure
        }
        return try NetworkError.decode(PushReply.self, from: data, using: SyncJSON.decoder())
      }
    } catch .http(status: 410, _, _) {
      throw .tokenExpired
    } catch {
      throw SyncError(error)
    }
    guard reply.results.map(\.id) == batch.map(\.id) else {
      throw .malformed("the push answered \(reply.results.count) results for \(batch.count) mutations, or in another order")
    }
    return reply.results
  }
}
