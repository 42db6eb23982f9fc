import Foundation

/// One post of the feed, as the practice server sends it and as the device persists it.
///
/// Posts are identified by `id` alone: the same post fetched twice (a page boundary that moved,
/// a refresh) is one post, and the newer copy wins.
public struct Post: Codable, Hashable, Sendable, Identifiable {
  public var id: String
  public var author: String
  public var text: String
  public var createdAt: Date
  public var likeCount: Int
  public var likedByMe: Bool
  public var commentCount: Int
  /// The image shown in the cell, if the post has one.
  public var imageURL: URL?

  public init(
    id: String, author: String, text: String, createdAt: Date, likeCount: Int = 0, likedByMe: Bool = false,
    commentCount: Int = 0, imageURL: URL? = nil
  ) {
    self.id = id
    self.author = author
    self.text = text
    self.createdAt = createdAt
    self.likeCount = likeCount
    self.likedByMe = likedByMe
    self.commentCount = commentCount
    self.imageURL = imageURL
  }

  /// The server's snake_case names, used on disk too, so a saved feed reads like an API page.
  enum CodingKeys: String, CodingKey {
    case id, author, text
    case createdAt = "created_at"
    case likeCount = "like_count"
    case likedByMe = "liked_by_me"
    case commentCount = "comment_count"
    case imageURL = "image_url"
  }
}

/// A comment the server accepted.
public struct Comment: Codable, Hashable, Sendable, Identifiable {
  public var id: String
  public var postID: String
  public var text: String

  public init(id: String, postID: String, text: String) {
    self.id = id
    self.postID = postID
    self.text = text
  }

  enum CodingKeys: String, CodingKey {
    case id, text
    case postID = "post_id"
  }
}

/// One page of the feed: its posts, newest first, and the opaque cursor of the next page.
///
/// `nextCursor == nil` means the feed has no more pages.
public struct FeedPage: Codable, Equatable, Sendable {
  public var posts: [Post]
  public var nextCursor: String?

  public init(posts: [Post], nextCursor: String?) {
    self.posts = posts
    self.nextCursor = nextCursor
  }

  enum CodingKeys: String, CodingKey {
    case posts
    case nextCursor = "next_cursor"
  }
}
