// Exercise 4 — Optimistic actions, safe retries (advanced)
//
// A like must feel instant: flip the heart and the count at once, then tell the server. If the
// server says no, put back exactly what was there before and report the failure; the user
// must never be left looking at a like that does not exist.
//
// A comment is not idempotent: sent twice, it is posted twice. So the comment gets one
// idempotency key when the user taps "Send", and every retry of that comment reuses it; the
// server recognises the key and returns the first comment instead of creating another.
//
// Implement `toggleLike` and `comment`, and the three repository changes at the bottom of this
// file: each one reads and writes a post in one call on the repository's actor.
import Foundation
import Workbook

/// Likes and comments, applied to the repository's posts optimistically.
public actor FeedActions {
  public nonisolated let api: any FeedAPI
  public nonisolated let repository: FeedRepository
  /// How many times a comment is sent before the failure is reported (at least 1).
  public nonisolated let maximumCommentAttempts: Int
  private let makeKey: @Sendable () -> String
  // TODO: add what you need to keep one like request per post in flight and the latest wish.

  public init(
    api: any FeedAPI, repository: FeedRepository, maximumCommentAttempts: Int = 3,
    makeKey: @escaping @Sendable () -> String = { UUID().uuidString }
  ) {
    self.api = api
    self.repository = repository
    self.maximumCommentAttempts = max(1, maximumCommentAttempts)
    self.makeKey = makeKey
  }

  /// Likes the post if it is not liked, unlikes it otherwise, and returns the post as the
  /// server confirmed it.
  ///
  /// The repository shows the new state before the request is sent: `likedByMe` flipped and
  /// `likeCount` moved by one, never below 0 (an unlike of a post the server counted at 0 stays
  /// at 0). If the request fails, the post goes back to the server's last copy of it (unless
  /// another change replaced the optimistic copy meanwhile: that change owns the post now), and
  /// the error is thrown, mapped with `FeedError(_:)` (`.offline`, else `.network(...)`). On
  /// success the server's copy is stored, even over a newer local change: it is the server's word
  /// on the post, newer than anything the app guessed. A post that is not in the repository throws
  /// `.failed(reason:)` and sends nothing. Whether a like cancelled in flight rolls back or
  /// stays is your choice (the request may or may not have reached the server): no test depends
  /// on it.
  ///
  /// One request per post is in flight at a time. A tap while one is in flight changes the
  /// screen at once and only records what the user wants now; when the request returns, the
  /// latest wish is sent if it differs from what the server confirmed, so the server applies the
  /// taps' outcome in the order they were made. Two requests in flight for one post (a like and
  /// an unlike) may be applied by the server in either order and answered in either order: the
  /// screen would end on the last answer to arrive, the server on the last request it applied.
  /// Every tap of a burst returns the server's final copy (or the failure that ended it).
  @discardableResult
  public func toggleLike(postID: String) async throws(FeedError) -> Post {
    // TODO: flip the like at once, send it, keep the server's copy or roll back.
    throw .failed(reason: NotImplemented("FeedActions.toggleLike").description)
  }

  /// Posts a comment, retrying failures up to `maximumCommentAttempts` times with one
  /// idempotency key, so the server keeps at most one copy however many attempts reach it.
  ///
  /// Being offline is not retried (the next attempt would fail the same way at once), and neither
  /// is a failure once the calling task is cancelled (the user left: the attempt in flight ends,
  /// its error is thrown, no new one starts). Errors are mapped with `FeedError(_:)`. Once the
  /// server has accepted the comment, the post's `commentCount` goes up by one: not before, since
  /// a comment, unlike a like, is not shown until it exists. A post that is not in the repository
  /// (a refresh dropped it) is still commented on; there is just no count to move.
  ///
  /// Yours to choose: whether a refusal the server would repeat (a 4xx other than 408 and 429) is
  /// retried (the one key makes a retry harmless either way), which attempt's error is thrown
  /// when all fail, and whether attempts wait between them (`FeedActions` has no clock; chapter
  /// 3's manager already waits between its own retries of one request).
  public func comment(_ text: String, on postID: String) async throws(FeedError) -> Comment {
    // TODO: send with one idempotency key, retrying, and count the comment once accepted.
    throw .failed(reason: NotImplemented("FeedActions.comment").description)
  }
}

/// Changes an action makes to a post in one step on the repository's actor: a read, then an
/// `update` in a second call, would let another change land between the two and be overwritten.
extension FeedRepository {
  /// Shows the post liked (or not) at once: `likedByMe` set to `liked` and the count moved by one,
  /// never below 0; nothing changes when it already shows `liked`. Returns the copy shown, nil
  /// when the post is not in the feed.
  func showLike(_ liked: Bool, postID: String) -> Post? {
    // TODO: set the like and move the count in one step (placeholder: shows nothing, returns nil).
    nil
  }

  /// Puts `previous` back, but only while the post is still the `optimistic` copy: a change that
  /// replaced it meanwhile (a refresh, the server's answer to another tap) owns the post now.
  func rollBack(postID: String, from optimistic: Post, to previous: Post) {
    // TODO: put `previous` back only while the post is still `optimistic`.
    // Placeholder: the naive version, which puts `previous` back whatever happened meanwhile.
    update(previous)
  }

  /// Adds one to the post's comment count, if the post is in the feed.
  func countComment(on postID: String) {
    // TODO: add one to the post's comment count (this body counts nothing).
  }
}
