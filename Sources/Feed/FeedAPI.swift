import Foundation

/// What the feed needs from the server, and nothing more.
///
/// The feed's types depend on this protocol rather than on the network layer, so tests drive
/// them with a scripted double and the app plugs in `LiveFeedAPI` (chapter 3's client talking to
/// the practice server).
public protocol FeedAPI: Sendable {
  /// The page after `cursor` (nil: the first page, newest posts), at most `limit` posts.
  func feedPage(cursor: String?, limit: Int) async throws -> FeedPage
  /// Likes or unlikes a post and returns the server's copy of it. Safe to retry: liking twice
  /// leaves one like.
  func setLike(_ liked: Bool, postID: String) async throws -> Post
  /// Posts a comment. The server creates at most one comment per `idempotencyKey`, so a retry
  /// with the same key returns the first comment instead of posting a second one.
  func postComment(_ text: String, postID: String, idempotencyKey: String) async throws -> Comment
}

/// Why a feed operation failed, in the terms the screen needs.
public enum FeedError: Error, Equatable, Sendable, CustomStringConvertible {
  /// There is no connection: show what is cached and say so.
  case offline
  /// The server or the connection failed in another way; `reason` is for logs, not for users.
  case failed(reason: String)
  /// The persisted feed could not be read or written.
  case storage(reason: String)

  public var description: String {
    switch self {
    case .offline: "You are offline. Showing the posts saved on this device."
    case .failed(let reason): "The feed could not be loaded (\(reason))."
    case .storage(let reason): "The saved feed could not be used (\(reason))."
    }
  }
}
