// Exercise 1 — Cursor pagination without duplicates (intermediate)
//
// A feed screen asks for the next page when the user nears the bottom, and a fast scroll asks
// several times before the first answer arrives. Make `loadNextPage()` safe under that: one
// fetch per cursor however many callers ask (chapter 1's `SingleFlightStore` does exactly
// that), no post twice in `posts` (the server's pages may overlap when new posts arrive), and no
// request at all once the server said there is no next page. A failed page is not remembered:
// the next call tries the same cursor again. And a page that was in flight when a refresh replaced
// the feed belongs to the old feed: when it arrives, drop it, even if its cursor matches.
import DataStore
import Foundation
import Workbook

/// The posts of the feed in display order, loaded page by page through a `FeedAPI`.
///
/// Appending a page is O(p) for p posts in the page (an index from id to position makes the
/// duplicate check O(1)); `posts` is a copy-on-write array, so reading it is O(1).
public actor FeedRepository {
  /// The cursor under which the first page is fetched (the API's `nil`).
  static let firstPageKey = ""

  public nonisolated let api: any FeedAPI
  public nonisolated let pageSize: Int
  /// Every post loaded so far, newest first, each id once.
  public private(set) var posts: [Post] = []
  /// False once the server answered a page without a next cursor.
  public private(set) var hasMore = true

  private var nextCursor: String?
  // TODO: add what you need: an index from id to position, a `SingleFlightStore` of pages (chapter 1)…

  public init(api: any FeedAPI, pageSize: Int = 20) {
    self.api = api
    self.pageSize = pageSize
  }

  /// Fetches the page after the last one loaded and appends its new posts.
  ///
  /// Returns the posts this call added (empty when another caller added them first, when a
  /// refresh replaced the feed while the page was in flight, or when there are no more pages).
  /// Concurrent callers share one request for the same cursor.
  ///
  /// A post whose id is already in the feed is not added again: its newer copy replaces the old
  /// one where it stands (the order of `posts` does not change), and it is not among the posts
  /// returned. The same id twice in one page is one post too, the later copy winning. A failed
  /// page throws: whether you rethrow the API's error as it is or map it with `FeedError(_:)` is
  /// your choice (`OfflineFeed` maps either).
  @discardableResult
  public func loadNextPage() async throws -> [Post] {
    // TODO: fetch the page after the cursor once, however many callers, and skip posts seen before.
    throw NotImplemented("FeedRepository.loadNextPage")
  }

  /// Replaces everything with a freshly fetched first page (pull-to-refresh). The cursor
  /// continues from `page`, and the pages fetched before are forgotten (start a new
  /// `SingleFlightStore`), so the next `loadNextPage` fetches again instead of reusing a page of
  /// the old feed.
  public func replace(with page: FeedPage) {
    // TODO: start over from this first page and forget pages in flight (does nothing yet).
  }

  /// Fills the feed with posts saved on disk, unless a page from the network has already been
  /// applied, by `loadNextPage()` or `replace(with:)` (saved posts are older: they must never
  /// replace fresh ones). Returns whether it did.
  ///
  /// A restore starts the feed over like `replace(with:)`, cursor included: the next
  /// `loadNextPage()` asks for the page after `saved.nextCursor`, and a saved page without a cursor
  /// means no more pages (`hasMore` false, no request) until a refresh replaces the feed.
  ///
  /// The check and the replacement happen in one step on this actor, so a launch that restores
  /// the saved feed and fetches the first page at the same time cannot end with the older posts.
  /// Whether a `loadNextPage()` in flight when the restore runs is applied or dropped when it
  /// arrives is your choice: no test depends on it.
  @discardableResult
  public func restore(_ saved: FeedPage) -> Bool {
    // TODO: fill the feed from `saved` unless a network page came first (placeholder: false).
    false
  }

  /// Replaces the stored copy of one post (after a like, say). Unknown ids are ignored.
  public func update(_ post: Post) {
    // TODO: replace the stored copy of the post, if loaded (this empty body changes nothing).
  }

  /// The post with `id`, if loaded.
  public func post(id: String) -> Post? {
    // TODO: look the post up by id (placeholder: nil).
    nil
  }

  /// The cursor of the next page, nil before the first page or after the last.
  public var cursor: String? { nextCursor }

  /// The posts and the cursor of the next page, read together: what a save writes. Read as
  /// `posts` and then `cursor`, they are two calls to this actor, and a page applied between them
  /// pairs the posts with a cursor past posts they do not hold.
  public var contents: FeedPage { FeedPage(posts: posts, nextCursor: nextCursor) }
}
