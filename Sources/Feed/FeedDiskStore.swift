// Exercise 2, part 1 — The feed on disk (intermediate)
//
// The offline-first launch starts here: the last feed the user saw, saved as one JSON file.
// Chapter 1's session store taught the rules, and they hold here too: a save replaces the file
// in one step (write a temporary file, then rename), a missing file is an empty feed, and a
// file that does not decode is moved aside, never a crash and never silently overwritten.
// The disk fails too: a full one fails the save and keeps the previous one, a folder removed
// while the app runs is made again, a file where the folder should be is left alone, and a file
// that cannot be read is no feed and stays where it is.
// Keep only the top of the feed (its first posts, in the feed's order), so the file stays small
// however long the user scrolled.
import Foundation
import Workbook

/// What the device remembers of the feed between launches.
public nonisolated struct FeedSnapshot: Codable, Equatable, Sendable {
  /// Bumped whenever the encoding changes; a file from another version is discarded.
  public static let currentVersion = 1

  public var version: Int
  public var posts: [Post]
  public var nextCursor: String?
  public var savedAt: Date

  public init(posts: [Post], nextCursor: String?, savedAt: Date, version: Int = FeedSnapshot.currentVersion) {
    self.version = version
    self.posts = posts
    self.nextCursor = nextCursor
    self.savedAt = savedAt
  }
}

/// Where the feed is persisted. `FeedDiskStore` is the real one; tests add slow or failing ones.
public nonisolated protocol FeedPersistence: Sendable {
  /// The saved feed, or nil when there is none (or it could not be read).
  func load() async -> FeedSnapshot?
  /// Saves the feed, replacing the previous save in one step.
  func save(_ snapshot: FeedSnapshot) async throws(FeedError)
}

/// The feed saved as one JSON file, written atomically.
///
/// Saves keep the top of the feed: the first `maximumPosts` of `snapshot.posts`, in the order
/// given (the feed's order), which are the newest posts only when the feed is in date order. Do
/// not sort them by `createdAt`: a ranked feed is not in date order, and the next launch must
/// open on the posts the user saw at the top, not on the 200 most recently written.
/// If that cut any posts, the saved cursor is dropped (it points after the last post loaded, not
/// after the last post kept), so the next launch starts from the first page; if nothing was cut
/// (exactly `maximumPosts` posts included), the cursor is kept.
///
/// The rules of the file:
/// - `save` creates the file's directory whenever it is missing (a first launch, or a folder
///   removed while the app runs), and writes the snapshot as given (its `version` and `savedAt`
///   too). Any failure throws `FeedError.storage`. A save that fails, as on a full disk
///   (`ENOSPC`), leaves the previous save whole and loadable; a file standing where the directory
///   should be fails the save and stays where it is.
/// - `load` returns nil for a missing file (its folder removed, or a file in the folder's place,
///   included). A file that does not decode, or that decodes with a `version` other than
///   `FeedSnapshot.currentVersion`, is moved to `<file>.corrupt` (replacing an earlier one there,
///   so the copy kept is the latest) and loads as nil. A file that is there but cannot be read
///   (an I/O error such as `EIO`) loads as nil and stays where it is, not moved aside: its bytes
///   were never read, so nothing says they are corrupt.
/// - `erase` deletes the file and its `.corrupt` copy (both hold the user's posts); a missing
///   file is no error.
public actor FeedDiskStore: FeedPersistence {
  public let fileURL: URL
  public let maximumPosts: Int
  /// Every read and write of the file goes through `files`.
  private let files: any FileSystem

  /// A store for the feed at `fileURL`. `files` is the disk it reads and writes through: the real
  /// one unless a test passes one that fails (full, or a file that cannot be read).
  public init(fileURL: URL, maximumPosts: Int = 200, files: any FileSystem = RealFileSystem()) {
    self.fileURL = fileURL
    self.maximumPosts = max(1, maximumPosts)
    self.files = files
  }

  public func load() -> FeedSnapshot? {
    // TODO: read through `files` and decode; a missing or unreadable file is nil (placeholder: nil).
    nil
  }

  public func save(_ snapshot: FeedSnapshot) throws(FeedError) {
    // TODO: encode and write the snapshot atomically through `files`.
    throw .storage(reason: NotImplemented("FeedDiskStore.save").description)
  }

  /// Deletes the saved feed and its `.corrupt` copy (at logout: both hold the user's posts).
  public func erase() {
    // TODO: delete the saved file and its .corrupt copy (this empty body deletes nothing).
  }

  // Given — the file's JSON format (ISO-8601 dates).
  private static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }

  // Given — the same format, read back.
  private static var decoder: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}
