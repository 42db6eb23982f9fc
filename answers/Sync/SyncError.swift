// Given: how a sync fails. Nothing to write here.
import Foundation
import Networking

/// Why a sync step failed. Each case says what the engine does next: the outbox keeps every
/// unsent edit whatever the case.
public nonisolated enum SyncError: Error, Equatable, Sendable {
  /// No connection: try again when the network comes back.
  case offline
  /// The server answered with this status where the step needed a success (5xx, 429, a 400).
  case server(status: Int)
  /// The server's body did not decode, or a reply did not match its request.
  case malformed(String)
  /// The change token is one the server no longer knows (410), on a pull, or on a push whose token
  /// predates the server's tombstone horizon: start again from the beginning (before pushing again).
  case tokenExpired
  /// The disk refused a read or a write; the text says which and why.
  case disk(String)
  /// The sync was cancelled.
  case cancelled
  /// The edit breaks a limit the protocol states (`EditLimits`), so the server would refuse it
  /// for good: it was not queued, and the text says which limit.
  case invalidEdit(String)
}

nonisolated extension SyncError {
  /// What a network failure means for a sync.
  public init(_ error: NetworkError) {
    switch error {
    case .offline, .timeout, .transport: self = .offline
    case .cancelled: self = .cancelled
    case .http(let status, _, _): self = .server(status: status)
    case .unauthorized: self = .server(status: 401)
    case .decoding(let text), .encoding(let text), .badURL(let text): self = .malformed(text)
    }
  }
}
