// Given: the feed's models (posts, comments, pages). Nothing to write here.
import Foundation
import Networking

/// A post of the feed: chapter 3's `Post`, as the API and the practice server define it.
///
/// Posts are identified by `id` alone: the same post fetched twice (a page boundary that moved,
/// a refresh) is one post, and the newer copy wins.
public typealias Post = Networking.Post

/// A comment the server accepted.
public nonisolated struct Comment: Codable, Hashable, Sendable, Identifiable {
  public var id: String
  public var postID: String
  public var text: String

  public init(id: String, postID: String, text: String) {
    self.id = id
    self.postID = postID
    self.text = text
  }

  /// `post_id` on the wire, after the API decoder's snake_case conversion.
  enum CodingKeys: String, CodingKey {
    case id, text
    case postID = "postId"
  }
}

/// One page of the feed: its posts, newest first, and the opaque cursor of the next page.
///
/// `nextCursor == nil` means the feed has no more pages.
public nonisolated struct FeedPage: Codable, Equatable, Sendable {
  public var posts: [Post]
  public var nextCursor: String?

  public init(posts: [Post], nextCursor: String?) {
    self.posts = posts
    self.nextCursor = nextCursor
  }
}
