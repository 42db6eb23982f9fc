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
    // TODO: POST each batch, with `since`, to v1/sync/push through `policy.run`, the same body on every attempt; a 410 is `.tokenExpired`.
    throw .malformed(NotImplemented("Pusher.push").description)
  }
}
