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
  /// Each post's row in `posts`, by id; checked on every use and rebuilt when stale.
  @ObservationIgnored private var positions: [String: Int] = [:]

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
    guard case .idle = state else { return }
    state.startLoading()
    let feed = self.feed
    let network = Task { () -> Result<Void, FeedError> in
      do throws(FeedError) {
        try await feed.refresh()
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    await feed.restoreSaved()
    let saved = await feed.posts
    let savedStatus = await feed.status
    // Posts and status change together, in one main-actor turn, so the screen never shows one
    // without the other.
    if state.isLoading && !saved.isEmpty {
      state = .loading(previous: saved)
      status = savedStatus
    }
    await finish(await network.value)
  }

  /// Pull-to-refresh: the posts stay on screen until the new first page replaces them.
  ///
  /// Ends like a launch: loaded and `message` cleared on success; offline with posts on screen,
  /// loaded with the message set and `status == .offline`; any other failure `.failed` with the
  /// posts kept and the message set. `status` is the feed's afterwards.
  public func refresh() async {
    state.startLoading()
    let result: Result<Void, FeedError>
    do throws(FeedError) {
      try await feed.refresh()
      result = .success(())
    } catch {
      result = .failure(error)
    }
    await finish(result)
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
    guard let index = row(of: post.id) else { return }
    let posts = self.posts
    await images?.visibleRowsChanged(index..<(index + 1), of: posts)
    guard index >= posts.count - prefetchDistance, !isLoadingMore else { return }
    isLoadingMore = true
    defer { isLoadingMore = false }
    do throws(FeedError) {
      try await feed.loadNextPage()
      let posts = await feed.posts
      // A refresh (or the launch) still in flight owns the kind of state: its page replaces the
      // posts and ends the loading, so this page only changes what the loading state shows.
      state = state.isLoading ? .loading(previous: posts) : .loaded(posts)
    } catch {
      message = error.description
    }
    status = await feed.status
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
    guard let index = row(of: post.id) else { return }
    state.changePosts { posts in
      posts[index].likedByMe.toggle()
      posts[index].likeCount = max(0, posts[index].likeCount + (posts[index].likedByMe ? 1 : -1))
    }
    do throws(FeedError) {
      try await actions.toggleLike(postID: post.id)
      message = nil
    } catch {
      message = error.description
    }
    // The repository holds the confirmed or the rolled-back copy: show that one post. Pages that
    // landed meanwhile moved the rows, so the post is found again.
    guard let latest = await actions.repository.post(id: post.id), let index = row(of: post.id) else { return }
    state.changePosts { $0[index] = latest }
  }

  /// Where the post with `id` is in `posts`, in O(1): `positions` is rebuilt (O(n), once per page
  /// or refresh that replaced the posts) only when it no longer points at that post.
  private func row(of id: String) -> Int? {
    let posts = self.posts
    if let index = positions[id], index < posts.count, posts[index].id == id { return index }
    positions = Dictionary(posts.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    return positions[id]
  }

  /// Clears the failure message (the user dismissed it).
  public func dismissMessage() {
    message = nil
  }

  private func finish(_ result: Result<Void, FeedError>) async {
    let posts = await feed.posts
    status = await feed.status
    switch result {
    case .success:
      message = nil
      state = .loaded(posts)
    case .failure(let error):
      message = error.description
      // Offline with saved posts is not an error screen: the posts are the content.
      if error == .offline && !posts.isEmpty {
        state = .loaded(posts)
      } else {
        state = .failed(error.networkError, previous: posts.isEmpty ? state.value : posts)
      }
    }
  }
}

extension LoadingState {
  /// Changes the posts in place, keeping the kind of state: a like during a refresh must not end
  /// the refresh's loading state, nor hide the error of a failed one. The state lets go of its
  /// array while `change` runs, so the array has one owner and changing one post is O(1), not a
  /// copy of the whole feed; no state without posts (idle, or nothing loaded yet) changes.
  fileprivate mutating func changePosts(_ change: (inout Value) -> Void) {
    switch self {
    case .loaded(var posts):
      self = .idle
      change(&posts)
      self = .loaded(posts)
    case .loading(var posts?):
      self = .idle
      change(&posts)
      self = .loading(previous: posts)
    case .failed(let error, var posts?):
      self = .idle
      change(&posts)
      self = .failed(error, previous: posts)
    case .idle, .loading(nil), .failed(_, nil):
      return
    }
  }
}
