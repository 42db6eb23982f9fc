// Given: the server as the feed sees it, and the feed's errors. Nothing to write here.
import Foundation
import Networking

/// What the feed needs from the server, and nothing more.
///
/// The feed's types depend on this protocol rather than on the network layer, so tests drive
/// them with a scripted double and the app plugs in `LiveFeedAPI` (chapter 3's client talking to
/// the practice server).
public nonisolated protocol FeedAPI: Sendable {
  /// The page after `cursor` (nil: the first page, newest posts), at most `limit` posts.
  func feedPage(cursor: String?, limit: Int) async throws -> FeedPage
  /// Likes or unlikes a post and returns the server's copy of it. Safe to retry: liking twice
  /// leaves one like. Over HTTP a like is `PUT /posts/{id}/like` and an unlike `DELETE` on the
  /// same resource, both idempotent methods (RFC 9110 §9.2.2), so chapter 3's policy retries them.
  func setLike(_ liked: Bool, postID: String) async throws -> Post
  /// Posts a comment. The server creates at most one comment per `idempotencyKey`, so a retry
  /// with the same key returns the first comment instead of posting a second one.
  func postComment(_ text: String, postID: String, idempotencyKey: String) async throws -> Comment
}

/// Why a feed operation failed, in the terms the screen needs.
public nonisolated enum FeedError: Error, Equatable, Sendable, CustomStringConvertible {
  /// There is no connection: show what is saved and say so.
  case offline
  /// The request failed in another way (chapter 3's error, with its status or code).
  case network(NetworkError)
  /// The operation could not even start (an unknown post, say); `reason` is for logs.
  case failed(reason: String)
  /// The saved feed could not be read or written.
  case storage(reason: String)

  /// Any error of the layers below, in the feed's terms.
  public init(_ error: any Error) {
    if let error = error as? FeedError {
      self = error
      return
    }
    switch NetworkError(mapping: error) {
    case .offline, .transport(.cannotConnectToHost), .transport(.cannotFindHost), .transport(.networkConnectionLost):
      self = .offline
    case let other:
      self = .network(other)
    }
  }

  /// The same failure as chapter 3's `NetworkError`, for a `LoadingState`.
  public var networkError: NetworkError {
    switch self {
    case .offline: .offline
    case .network(let error): error
    case .failed, .storage: .transport(.unknown)
    }
  }

  public var description: String {
    switch self {
    case .offline: "You are offline. Showing the posts saved on this device."
    case .network(let error): "The feed could not be loaded (\(error))."
    case .failed(let reason): "That did not work (\(reason))."
    case .storage(let reason): "The saved feed could not be used (\(reason))."
    }
  }
}
