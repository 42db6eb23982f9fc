// Exercise 6 — An endpoint catalog, stubs and pagination (intermediate)
//
// Describe the whole API as data, one enum case per endpoint, in the style of Moya's TargetType:
// its path, method, query, body, whether it needs the token, and a sample response. With that,
// a stubbing client can serve the samples (for tests and previews), and the screens get the
// small types they need: a response envelope with field errors, page- and cursor-based pages,
// and a `LoadingState` that keeps what is on screen while a refresh runs or fails.
import Foundation
import Workbook

/// Where the API lives. Each base URL carries the `/v1` prefix every path is appended to:
/// production is `https://api.example.com/v1`; staging and development are hosts of their own
/// (say `https://staging.api.example.com/v1` and a local port), never production's. Which hosts
/// and port they are is your choice. A `custom` URL is used exactly as given, with nothing
/// appended: whoever names another server names its prefix too.
public nonisolated enum APIEnvironment: Sendable, Equatable {
  case development
  case staging
  case production
  /// Any other server, such as the local practice server.
  case custom(URL)

  public var baseURL: URL {
    switch self {
    case .development: return URL(string: "http://127.0.0.1:8080/v1")!
    case .staging: return URL(string: "https://staging.api.example.com/v1")!
    case .production: return URL(string: "https://api.example.com/v1")!
    case .custom(let url): return url
    }
  }
}

/// A user, as `/users/me` returns it.
public nonisolated struct User: Codable, Sendable, Equatable {
  public var id: String
  public var name: String
  public var email: String

  public init(id: String, name: String, email: String) {
    self.id = id
    self.name = name
    self.email = email
  }
}

/// A post, as the posts, search and feed endpoints return it.
public nonisolated struct Post: Codable, Sendable, Equatable, Identifiable {
  public var id: String
  public var author: String
  public var text: String
  public var createdAt: Date
  public var likeCount: Int
  public var likedByMe: Bool
  public var commentCount: Int
  public var imageUrl: URL?

  public init(
    id: String, author: String, text: String, createdAt: Date, likeCount: Int = 0, likedByMe: Bool = false,
    commentCount: Int = 0, imageUrl: URL? = nil
  ) {
    self.id = id
    self.author = author
    self.text = text
    self.createdAt = createdAt
    self.likeCount = likeCount
    self.likedByMe = likedByMe
    self.commentCount = commentCount
    self.imageUrl = imageUrl
  }
}

nonisolated struct LoginBody: Encodable, Sendable {
  var email: String
  var password: String
}

nonisolated struct RegisterBody: Encodable, Sendable {
  var name: String
  var email: String
  var password: String
}

nonisolated struct RefreshBody: Encodable, Sendable {
  var refreshToken: String
}

nonisolated struct NameBody: Encodable, Sendable {
  var name: String
}

nonisolated struct TextBody: Encodable, Sendable {
  var text: String
}

/// Every endpoint of the API.
///
/// | case | method | path | query | token |
/// |---|---|---|---|---|
/// | `login` | POST | `/auth/login` | | no |
/// | `register` | POST | `/auth/register` | | no |
/// | `refresh` | POST | `/auth/refresh` | | no |
/// | `logout` | POST | `/auth/logout` | | yes |
/// | `profile` | GET | `/users/me` | | yes |
/// | `updateProfile` | PUT | `/users/me` | | yes |
/// | `uploadAvatar` | POST | `/users/me/avatar` (multipart, one file part named `avatar`) | | yes |
/// | `posts` | GET | `/posts` | `page`, `limit` | yes |
/// | `post` | GET | `/posts/{id}` | | yes |
/// | `createPost` | POST | `/posts` | | yes |
/// | `updatePost` | PUT | `/posts/{id}` | | yes |
/// | `deletePost` | DELETE | `/posts/{id}` | | yes |
/// | `search` | GET | `/search` | `q` | yes |
/// | `custom` | its own | its own | its own | its own |
///
/// Bodies are JSON in the API's conventions (`JSONCoding`): login and register send their
/// fields, refresh sends `refresh_token`, a profile or post update sends `name` or `text`.
/// The avatar's one part carries the case's data, filename and MIME type.
///
/// What each endpoint answers, which its `sampleData` is an example of: login, register and
/// refresh an `AuthToken`; profile, updateProfile and uploadAvatar a `User`; posts and search a
/// `Page<Post>`; post, createPost and updatePost a `Post`; logout, deletePost and custom an empty
/// body.
public nonisolated enum API: TargetType {
  case login(email: String, password: String)
  case register(name: String, email: String, password: String)
  case refresh(refreshToken: String)
  case logout
  case profile
  case updateProfile(name: String)
  case uploadAvatar(Data, filename: String, mimeType: String)
  /// Page-based: `page` from 1.
  case posts(page: Int, limit: Int)
  case post(id: String)
  case createPost(text: String)
  case updatePost(id: String, text: String)
  case deletePost(id: String)
  case search(query: String)
  /// An endpoint the catalog does not know yet.
  case custom(method: HTTPMethod, path: String, query: [String: String], requiresAuth: Bool)

  /// Examples for tests and previews.
  public static let examples: [API] = [
    .login(email: "ada@example.com", password: "secret"), .register(name: "Ada", email: "ada@example.com", password: "secret"),
    .refresh(refreshToken: "r1"), .logout, .profile, .updateProfile(name: "Ada L."),
    .uploadAvatar(Data([1, 2, 3]), filename: "me.png", mimeType: "image/png"), .posts(page: 1, limit: 20), .post(id: "p1"),
    .createPost(text: "Hello"), .updatePost(id: "p1", text: "Hello again"), .deletePost(id: "p1"), .search(query: "swift"),
    .custom(method: .get, path: "/health", query: [:], requiresAuth: false),
  ]

  public var path: String {
    switch self {
    case .login: return "/auth/login"
    case .register: return "/auth/register"
    case .refresh: return "/auth/refresh"
    case .logout: return "/auth/logout"
    case .profile, .updateProfile: return "/users/me"
    case .uploadAvatar: return "/users/me/avatar"
    case .posts, .createPost: return "/posts"
    case .post(let id), .updatePost(let id, _), .deletePost(let id): return "/posts/\(id)"
    case .search: return "/search"
    case .custom(_, let path, _, _): return path
    }
  }

  public var method: HTTPMethod {
    switch self {
    case .login, .register, .refresh, .logout, .uploadAvatar, .createPost: return .post
    case .updateProfile, .updatePost: return .put
    case .deletePost: return .delete
    case .profile, .posts, .post, .search: return .get
    case .custom(let method, _, _, _): return method
    }
  }

  public var query: [String: String] {
    switch self {
    case .posts(let page, let limit): return ["page": String(page), "limit": String(limit)]
    case .search(let query): return ["q": query]
    case .custom(_, _, let query, _): return query
    default: return [:]
    }
  }

  public var body: RequestBody? {
    switch self {
    case .login(let email, let password): return .json(LoginBody(email: email, password: password))
    case .register(let name, let email, let password): return .json(RegisterBody(name: name, email: email, password: password))
    case .refresh(let token): return .json(RefreshBody(refreshToken: token))
    case .updateProfile(let name): return .json(NameBody(name: name))
    case .createPost(let text), .updatePost(_, let text): return .json(TextBody(text: text))
    case .uploadAvatar(let data, let filename, let mimeType):
      var form = MultipartFormData()
      form.append(data, name: "avatar", filename: filename, contentType: mimeType)
      return .multipart(form)
    default: return nil
    }
  }

  /// Everything but signing in, signing up and refreshing needs the token. The refresh call
  /// must never carry (or wait for) the access token it is renewing.
  public var requiresAuth: Bool {
    switch self {
    case .login, .register, .refresh: return false
    case .custom(_, _, _, let requiresAuth): return requiresAuth
    default: return true
    }
  }

  /// A response the real server could send, in its JSON conventions (snake_case keys such as
  /// `like_count` and `image_url`). The profile sample is a user named Ada, like the one
  /// `examples` registers. The single post's sample is a post with a picture: its `image_url` is a
  /// URL, never null (a feed also has posts without one, but this sample shows the field filled).
  public var sampleData: Data {
    let post = """
      {"id":"p1","author":"ada","text":"Hello","created_at":"2024-05-01T12:00:00Z","like_count":3,\
      "liked_by_me":false,"comment_count":1,"image_url":"https://api.example.com/images/p1.png"}
      """
    let token = """
      {"access_token":"a1","refresh_token":"r1","expires_in":3600,"token_type":"Bearer"}
      """
    switch self {
    case .login, .register, .refresh: return Data(token.utf8)
    case .profile, .updateProfile, .uploadAvatar:
      return Data(#"{"id":"u1","name":"Ada","email":"ada@example.com"}"#.utf8)
    case .posts, .search: return Data(#"{"items":[\#(post)],"page":1,"limit":20,"total":1}"#.utf8)
    case .post, .createPost, .updatePost: return Data(post.utf8)
    case .logout, .deletePost, .custom: return Data()
    }
  }
}

/// A field the server rejected, and why.
public nonisolated struct FieldError: Codable, Sendable, Equatable {
  public var field: String
  public var message: String

  public init(field: String, message: String) {
    self.field = field
    self.message = message
  }
}

/// The server's envelope: `{"data": …}` on success, `{"errors": [{"field", "message"}]}` when
/// a form did not validate.
public nonisolated struct APIResponse<T: Decodable & Sendable>: Decodable, Sendable {
  public var data: T?
  public var errors: [FieldError]?

  public init(data: T?, errors: [FieldError]? = nil) {
    self.data = data
    self.errors = errors
  }

  /// The messages for one field, in order, for showing under that field.
  public func messages(for field: String) -> [String] {
    (errors ?? []).filter { $0.field == field }.map(\.message)
  }

  /// The data, or a `ValidationError` when the envelope has field errors or no data. Field
  /// errors win over data that came with them (the form did not validate): the error carries them
  /// all, in order. An empty `errors` list is no error.
  public func unwrap() throws(ValidationError) -> T {
    if let errors, !errors.isEmpty { throw ValidationError(fields: errors) }
    guard let data else { throw ValidationError(fields: []) }
    return data
  }
}

/// A form the server rejected, field by field.
public nonisolated struct ValidationError: Error, Sendable, Equatable {
  public var fields: [FieldError]
}

/// One page of a page-based list (`?page=&limit=`), pages counted from 1.
public nonisolated struct Page<Item: Decodable & Sendable>: Decodable, Sendable {
  public var items: [Item]
  public var page: Int
  public var limit: Int
  public var total: Int

  /// Whether a page after this one exists: the items up to the end of this page (`page · limit`)
  /// are fewer than `total`. Page 2 of 20 items by 10 is the last page.
  public var hasMore: Bool { page * limit < total }
  /// The number of the next page, or nil after the last one.
  public var nextPage: Int? { hasMore ? page + 1 : nil }
}

/// One page of a cursor-based list: the items and the opaque cursor of the next page (nil at
/// the end). Decodes `items` or, as the feed sends it, `posts`.
public nonisolated struct CursorPage<Item: Decodable & Sendable>: Decodable, Sendable {
  public var items: [Item]
  public var nextCursor: String?

  public init(items: [Item], nextCursor: String?) {
    self.items = items
    self.nextCursor = nextCursor
  }

  enum CodingKeys: String, CodingKey {
    case items, posts, nextCursor
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    items = try container.decodeIfPresent([Item].self, forKey: .items) ?? container.decode([Item].self, forKey: .posts)
    nextCursor = try container.decodeIfPresent(String.self, forKey: .nextCursor)
  }
}

/// A list loaded page after page with cursors. Items already shown are never shown twice, even
/// when the server repeats one on the next page (it moved while the user scrolled).
public nonisolated struct CursorPagination<Item: Identifiable & Decodable & Sendable>: Sendable where Item.ID: Sendable {
  public private(set) var items: [Item] = []
  /// The cursor to send for the next page; nil before the first page and after the last.
  public private(set) var nextCursor: String?
  /// True once a page came back without a next cursor.
  public private(set) var isExhausted = false
  private var seen: Set<Item.ID> = []

  public init() {}

  /// Appends the page's new items, in order, and remembers its cursor. Ignored once exhausted.
  /// Only a nil cursor ends the list; whether an empty cursor (`""`) does too is
  /// your choice (the server never sends one).
  public mutating func apply(_ page: CursorPage<Item>) {
    guard !isExhausted else { return }
    for item in page.items where seen.insert(item.id).inserted {
      items.append(item)
    }
    nextCursor = page.nextCursor
    isExhausted = page.nextCursor == nil
  }

  /// Starts over, for pull to refresh: no items, no cursor, not exhausted.
  public mutating func reset() {
    self = CursorPagination()
  }
}

/// What a screen shows for something it loads. Loading and failing keep the value already on
/// screen, so a refresh never blanks the list.
public nonisolated enum LoadingState<Value: Sendable>: Sendable {
  case idle
  case loading(previous: Value?)
  case loaded(Value)
  case failed(NetworkError, previous: Value?)

  /// The value to show, if any, whatever the state.
  public var value: Value? {
    switch self {
    case .idle: return nil
    case .loading(let previous), .failed(_, let previous): return previous
    case .loaded(let value): return value
    }
  }

  public var isLoading: Bool {
    if case .loading = self { return true }
    return false
  }

  public var error: NetworkError? {
    if case .failed(let error, _) = self { return error }
    return nil
  }

  /// Moves to `.loading`, keeping the value on screen.
  public mutating func startLoading() {
    self = .loading(previous: value)
  }

  /// Moves to `.loaded` on success, to `.failed` (keeping the value) on failure. A cancelled load
  /// is not a failure: the state goes back to the value it had, or to `.idle`. That is
  /// `.loaded(value)` whenever there is a value to show, and `.idle` when there is none; an error
  /// shown before the load started is not brought back.
  public mutating func finish(with result: Result<Value, NetworkError>) {
    switch result {
    case .success(let value):
      self = .loaded(value)
    case .failure(.cancelled):
      self = value.map { .loaded($0) } ?? .idle
    case .failure(let error):
      self = .failed(error, previous: value)
    }
  }
}

nonisolated extension LoadingState: Equatable where Value: Equatable {}

/// Serves every target's `sampleData` without a network: at once, or after a delay on the
/// injected clock (to show spinners in previews and to test slow paths).
public nonisolated struct StubbingClient<C: Clock>: Sendable where C.Duration == Duration {
  public enum Behavior: Sendable {
    case immediate
    case delayed(Duration)
  }

  public let behavior: Behavior
  public let clock: C

  public init(behavior: Behavior = .immediate, clock: C) {
    self.behavior = behavior
    self.clock = clock
  }

  /// The sample body of `target`, after the delay. A task already cancelled when it calls gets
  /// `.cancelled`, `.immediate` or not: a stub behaves like the network, which answers a
  /// cancelled task with nothing.
  public func data(for target: some TargetType) async throws(NetworkError) -> Data {
    if case .delayed(let delay) = behavior {
      do {
        try await clock.sleep(for: delay)
      } catch {
        throw .cancelled
      }
    }
    if Task.isCancelled { throw .cancelled }
    return target.sampleData
  }

  /// The sample body of `target`, decoded as `type` with the API's JSON conventions.
  public func decode<T: Decodable>(_ type: T.Type, for target: some TargetType) async throws(NetworkError) -> T {
    let data = try await data(for: target)
    return try NetworkError.decode(T.self, from: data, using: JSONCoding.decoder())
  }
}
