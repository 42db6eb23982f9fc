// Exercise 5 — The screen's view model (advanced)
//
// Everything the feed screen shows lives here, on the main actor, observable by SwiftUI through
// the Observation framework (`@Observable`): a `LoadingState` of the posts (chapter 3), whether
// the posts shown are the saved ones or the app is offline, and a message for failures that
// must not replace the list (a like that did not go through).
//
// The state must move in the order a user can follow: idle → loading → loaded, and on refresh
// loading(previous posts) → loaded, never through an empty list. A failure keeps the posts.
import Foundation
import Networking
import Observation
import Workbook

/// The feed screen's state and actions, on the main actor.
@MainActor
@Observable
public final class FeedViewModel {
  /// The posts and whether they are loading or failed; a failure keeps the posts on screen.
  public private(set) var state: LoadingState<[Post]> = .idle
  /// Where the posts came from: saved on disk, live, or offline.
  public private(set) var status: OfflineFeed.Status = .empty
  /// A one-line message for a failure that does not replace the list; nil when there is none.
  /// Set by every failure (launch, refresh, next page, like) and by an offline launch or refresh;
  /// cleared when a launch or refresh succeeds (whether a like that succeeds clears it too is
  /// your choice). Its wording is yours (the error's `description` will do).
  public private(set) var message: String?
  /// True while a next page is being fetched (the spinner row at the bottom).
  public private(set) var isLoadingMore = false

  @ObservationIgnored public let feed: OfflineFeed
  @ObservationIgnored public let actions: FeedActions
  @ObservationIgnored public let images: FeedImages?
  /// How close to the end a row must be to trigger the next page.
  @ObservationIgnored public let prefetchDistance: Int

  public init(feed: OfflineFeed, actions: FeedActions, images: FeedImages? = nil, prefetchDistance: Int = 5) {
    self.feed = feed
    self.actions = actions
    self.images = images
    self.prefetchDistance = prefetchDistance
  }

  /// The posts on screen.
  public var posts: [Post] { state.value ?? [] }

  /// First appearance: the saved posts as soon as the disk has them, then the first page.
  /// (`feed.launch()` returns only when both are done, so it cannot show the saved posts in
  /// between: run `restoreSaved` and the network yourself.)
  ///
  /// States: idle → loading → (loading with the saved posts) → loaded, or failed keeping
  /// whatever was shown. Offline with saved posts ends loaded, with `status == .offline`.
  /// Offline with nothing saved fails with `.offline` (whether its `previous` is nil or `[]` is
  /// your choice: `posts` is empty either way).
  ///
  /// Runs once: unless `state` is `.idle`, it returns at once and asks for nothing, so a screen
  /// that appears again (back from a detail view) does not load twice.
  public func onAppear() async {
    // TODO: show loading, then the saved posts, then the first page or the failure (does nothing yet).
  }

  /// Pull-to-refresh: the posts stay on screen until the new first page replaces them.
  ///
  /// Ends like a launch: loaded and `message` cleared on success; offline with posts on screen,
  /// loaded with the message set and `status == .offline`; any other failure `.failed` with the
  /// posts kept and the message set. `status` is the feed's afterwards.
  public func refresh() async {
    // TODO: keep the posts on screen until the new first page replaces them (does nothing yet).
  }

  /// Called as each row appears: loads the next page when `post` is near the end, and moves
  /// the image prefetch window.
  ///
  /// "Near the end" is one of the last `prefetchDistance` rows: index ≥ `posts.count -
  /// prefetchDistance` (with 20 posts and 5, rows 15–19; row 14 loads nothing). The window moves
  /// first, as if the row that appeared were the last one visible (`index..<index + 1`), so the
  /// images of the `lookahead` posts below it are prefetched. A next page that arrives shows the
  /// feed's posts as `.loaded` (whether it also clears `message` is your choice), except while a
  /// refresh or the launch is still loading: then they show as `.loading(previous:)`, and the
  /// refresh ends the loading when its own page lands. A failed one keeps the posts and the
  /// state as they were and sets `message`; either way `status` is the
  /// feed's afterwards (offline when the page failed offline). While one next page is in flight
  /// (`isLoadingMore`), another call only moves the window and returns at once: it sends no
  /// request and does not wait for the page in flight. `isLoadingMore` is false again when the
  /// call that loaded returns.
  ///
  /// It runs on the main actor for every row that scrolls in, so it costs O(1) however long the
  /// feed: the row is found through an index from id to position, not by searching the posts.
  public func rowAppeared(_ post: Post) async {
    // TODO: find the row by id in O(1), move the prefetch window, load the next page near the end (does nothing yet).
  }

  /// Likes or unlikes a post; the heart moves at once and moves back if the server says no.
  /// Change the post in `state` before awaiting the action, then show the repository's copy of
  /// that post, which is the confirmed or the rolled-back one. O(1) however long the feed, like
  /// `rowAppeared`: the post is found through the id index and changed in place, never by a
  /// search or a copy of the whole feed.
  ///
  /// A like changes the posts, never the kind of state: during a refresh the state stays
  /// `.loading` (with the new posts), after a failure it stays `.failed` with its error, and only
  /// a `.loaded` state stays `.loaded`. A failed like sets `message`.
  public func toggleLike(_ post: Post) async {
    // TODO: change the post in `state` in place first, then await the action and show the repository's copy (does nothing yet).
  }

  /// Clears the failure message (the user dismissed it).
  public func dismissMessage() {
    message = nil
  }
}
