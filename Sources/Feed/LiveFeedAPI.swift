// Given: `FeedAPI` on chapter 3's network layer, for the app and the demo. Nothing to write here.
import Foundation
import Networking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The feed's endpoints, declared the way chapter 3 declares every endpoint.
nonisolated enum FeedEndpoint: TargetType {
  case page(cursor: String?, limit: Int)
  case like(postID: String, liked: Bool)
  case comment(postID: String, text: String, idempotencyKey: String)

  var method: HTTPMethod {
    switch self {
    case .page: .get
    // A like is a resource of its own: PUT creates it, DELETE removes it. Both are idempotent
    // (RFC 9110 §9.2.2), so the retry policy may send either again after a lost answer.
    case .like(_, let liked): liked ? .put : .delete
    case .comment: .post
    }
  }

  var path: String {
    switch self {
    case .page: "/feed"
    case .like(let postID, _): "/posts/\(postID)/like"
    case .comment(let postID, _, _): "/posts/\(postID)/comments"
    }
  }

  var query: [String: String] {
    guard case .page(let cursor, let limit) = self else { return [:] }
    var query = ["limit": String(limit)]
    if let cursor { query["cursor"] = cursor }
    return query
  }

  var body: RequestBody? {
    guard case .comment(_, let text, _) = self else { return nil }
    return .json(["text": text])
  }

  var requiresAuth: Bool { true }

  var idempotencyKey: String? {
    guard case .comment(_, _, let key) = self else { return nil }
    return key
  }
}

/// `FeedAPI` over chapter 3's `NetworkManager`: retries, token refresh and plugins included.
public nonisolated struct LiveFeedAPI<C: Clock>: FeedAPI where C.Duration == Duration {
  public let client: NetworkManager<C>

  public init(client: NetworkManager<C>) {
    self.client = client
  }

  /// A client for the API at `apiURL` (such as the practice server's `/v1`), signed in with
  /// `token`; the refresh through `/auth/refresh` is chapter 3's `TokenStore`, which this only
  /// wires in.
  public static func signedIn(
    to apiURL: URL, token: AuthToken, session: URLSession, retryPolicy: RetryPolicy = RetryPolicy(),
    plugins: [any NetworkPlugin] = [], clock: C
  ) -> LiveFeedAPI {
    let builder = RequestBuilder(baseURL: apiURL)
    let tokens = TokenStore(token: token) { refreshToken in
      // The refresh goes through a client without the token store, so it is never intercepted.
      let plain = NetworkManager(session: session, builder: builder, retryPolicy: .never, clock: ContinuousClock())
      let response = try await plain.response(for: API.refresh(refreshToken: refreshToken))
      return try NetworkError.decode(TokenGrant.self, from: response.data, using: JSONCoding.decoder())
    }
    return LiveFeedAPI(
      client: NetworkManager(
        session: session, builder: builder, retryPolicy: retryPolicy, tokens: tokens, plugins: plugins, clock: clock))
  }

  public func feedPage(cursor: String?, limit: Int) async throws -> FeedPage {
    try await decode(FeedPage.self, .page(cursor: cursor, limit: limit), priority: .high)
  }

  public func setLike(_ liked: Bool, postID: String) async throws -> Post {
    try await decode(Post.self, .like(postID: postID, liked: liked), priority: .normal)
  }

  public func postComment(_ text: String, postID: String, idempotencyKey: String) async throws -> Comment {
    try await decode(Comment.self, .comment(postID: postID, text: text, idempotencyKey: idempotencyKey), priority: .normal)
  }

  /// Sends the request, then decodes with the API's conventions (snake_case keys, ISO-8601 dates).
  private func decode<T: Decodable & Sendable>(
    _ type: T.Type, _ endpoint: FeedEndpoint, priority: RequestPriority
  ) async throws -> T {
    let response = try await client.response(for: endpoint, priority: priority)
    return try await Self.decoded(T.self, from: response.data)
  }

  /// Decodes off the caller's actor. `@concurrent` (SE-0461) runs it on the global concurrent
  /// executor; without it, a `nonisolated async` function runs on its caller's actor under
  /// `NonisolatedNonsendingByDefault` (SE-0461), so a page decoded for the view model would be
  /// decoded on the main actor: chapter 3's rule for `send`.
  @concurrent
  private static func decoded<T: Decodable & Sendable>(_ type: T.Type, from data: Data) async throws -> T {
    try NetworkError.decode(T.self, from: data, using: JSONCoding.decoder())
  }
}
