import Foundation
import Synchronization

/// The state behind `/v1`: users, tokens, posts, likes and comments. Every access goes through
/// one lock; handlers never hold it while they wait.
public final class APIStore: Sendable {
  /// The user who exists from the start.
  public static let seededEmail = "ada@example.com"
  public static let seededPassword = "correct-horse"

  struct UserRecord {
    var id: String
    var name: String
    var email: String
    var password: String
    var avatarBytes: Int?
  }

  struct AccessRecord {
    var email: String
    var generation: Int
    var expiresAt: Date
  }

  /// A refresh token's owner and its family: the chain of refresh tokens one sign-in started, each
  /// rotated into the next (RFC 9700 §4.14.2).
  struct RefreshRecord {
    var email: String
    var family: Int
  }

  struct Comment {
    var id: String
    var author: String
    var text: String
    var createdAt: Date
  }

  struct PostRecord {
    var id: String
    var author: String
    var text: String
    var createdAt: Date
    var baseLikes: Int
    var likers: Set<String> = []
    var baseComments: Int
    var comments: [Comment] = []
  }

  struct State {
    var users: [String: UserRecord] = [:]
    var access: [String: AccessRecord] = [:]
    /// The refresh tokens that work: at most one per family, its newest.
    var refresh: [String: RefreshRecord] = [:]
    /// Refresh tokens rotated away, and their family: presenting one again is reuse.
    var retired: [String: Int] = [:]
    var nextFamily = 0
    /// How many refreshes presented a retired refresh token.
    var refreshTokenReuses = 0
    /// Newest first.
    var posts: [PostRecord] = []
    var nextPost = 0
    var nextToken = 0
    var nextComment = 0
    /// "postID\nkey" → comment id.
    var commentKeys: [String: String] = [:]
  }

  private let state: Mutex<State>
  private let tokenLifetime: TimeInterval

  init(configuration: PracticeServer.Configuration) {
    tokenLifetime = configuration.tokenLifetime
    var initial = State()
    initial.users[Self.seededEmail] = UserRecord(id: "u1", name: "Ada", email: Self.seededEmail, password: Self.seededPassword)
    let authors = ["ada", "grace", "linus", "barbara", "ken"]
    let start = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01T00:00:00Z
    let count = max(0, configuration.postCount)
    if count > 0 {
      for number in (1...count).reversed() {
        initial.posts.append(
          PostRecord(
            id: "p\(number)", author: authors[number % authors.count], text: "Post \(number): notes from the workbook",
            createdAt: start.addingTimeInterval(TimeInterval(number) * 600), baseLikes: (number * 7) % 50,
            baseComments: number % 4))
      }
    }
    initial.nextPost = count
    state = Mutex(initial)
  }

  func issueTokens(email: String, generation: Int) -> (accessToken: String, refreshToken: String) {
    state.withLock { Self.issue(&$0, email: email, generation: generation, lifetime: tokenLifetime).tokens }
  }

  /// How many refreshes presented a refresh token that had been rotated away: each revoked its family.
  var refreshTokenReuses: Int { state.withLock { $0.refreshTokenReuses } }

  /// Whether `refreshToken` would be accepted now: it is its family's newest and the family stands.
  func acceptsRefreshToken(_ refreshToken: String) -> Bool {
    state.withLock { $0.refresh[refreshToken] != nil }
  }

  /// Tokens for a sign-in (a new family, `family == nil`) or for a refresh (the family goes on).
  private static func issue(_ state: inout State, email: String, family continued: Int? = nil, generation: Int, lifetime: TimeInterval) -> (
    tokens: (accessToken: String, refreshToken: String), json: [String: Any]
  ) {
    let family: Int
    if let continued {
      family = continued
    } else {
      state.nextFamily += 1
      family = state.nextFamily
    }
    state.nextToken += 1
    let salt = String(UInt32.random(in: 0...UInt32.max), radix: 16)
    let access = "at-\(state.nextToken)-\(salt)"
    let refresh = "rt-\(state.nextToken)-\(salt)"
    let expiresAt = Date().addingTimeInterval(lifetime)
    state.access[access] = AccessRecord(email: email, generation: generation, expiresAt: expiresAt)
    state.refresh[refresh] = RefreshRecord(email: email, family: family)
    // The lifetime in whole seconds, not the server's expiry date (RFC 6749 §5.1 `expires_in`): a
    // client counts it from the answer's arrival on its own clock, however far that clock is off.
    return (
      (access, refresh),
      ["access_token": access, "refresh_token": refresh, "expires_in": Int(lifetime), "token_type": "Bearer"]
    )
  }

  private enum Caller {
    case anonymous
    case user(String)
    case rejected
  }

  private static func caller(_ request: HTTPRequest, _ state: State, generation: Int) -> Caller {
    guard let header = request.header("Authorization") else { return .anonymous }
    guard header.hasPrefix("Bearer "), case let token = String(header.dropFirst(7)), !token.isEmpty,
      let record = state.access[token], record.generation >= generation, record.expiresAt > Date()
    else { return .rejected }
    return .user(record.email)
  }

  private static func json(_ body: Data) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
  }

  private static func user(_ record: UserRecord) -> [String: Any] {
    var json: [String: Any] = ["id": record.id, "name": record.name, "email": record.email]
    if let bytes = record.avatarBytes {
      json["avatar_url"] = "/images/\(record.id).png"
      json["avatar_bytes"] = bytes
    }
    return json
  }

  private static func post(_ record: PostRecord, viewer: String, baseURL: URL) -> [String: Any] {
    [
      "id": record.id, "author": record.author, "text": record.text, "created_at": record.createdAt.ISO8601Format(),
      "like_count": record.baseLikes + record.likers.count, "liked_by_me": record.likers.contains(viewer),
      "comment_count": record.baseComments + record.comments.count,
      "image_url": baseURL.absoluteString + "/images/\(record.id).png",
    ]
  }

  private static func comment(_ comment: Comment, postID: String) -> [String: Any] {
    ["id": comment.id, "post_id": postID, "author": comment.author, "text": comment.text, "created_at": comment.createdAt.ISO8601Format()]
  }

  private static let unauthorized = HTTPReply.error(401, "missing, invalid or expired access token", headers: [("WWW-Authenticate", "Bearer")])

  // swift-format-ignore: FunctionBodyLength
  func handle(_ request: HTTPRequest, baseURL: URL, tokenGeneration generation: Int) -> HTTPReply {
    let segments = request.path.split(separator: "/").map(String.init).dropFirst()  // drop "v1"
    let route = Array(segments)
    let method = request.method == "HEAD" ? "GET" : request.method
    let lifetime = tokenLifetime
    return state.withLock { state -> HTTPReply in
      let caller = Self.caller(request, state, generation: generation)
      var signedIn: String? {
        if case .user(let email) = caller { return email }
        return nil
      }
      // Routes that accept no token, or a valid one.
      var viewer: String? {
        switch caller {
        case .anonymous: return "guest"
        case .user(let email): return email
        case .rejected: return nil
        }
      }
      let part = { (index: Int) in index < route.count ? route[index] : "" }
      switch (method, route.count, part(0), part(1), part(2)) {
      case ("POST", 2, "auth", "login", _):
        let body = Self.json(request.body)
        guard let email = body["email"] as? String, let password = body["password"] as? String,
          let user = state.users[email.lowercased()], user.password == password
        else { return .error(401, "wrong email or password") }
        return .json(200, Self.issue(&state, email: user.email, generation: generation, lifetime: lifetime).json)

      case ("POST", 2, "auth", "register", _):
        let body = Self.json(request.body)
        let name = body["name"] as? String ?? ""
        let email = (body["email"] as? String ?? "").lowercased()
        let password = body["password"] as? String ?? ""
        var errors: [[String: String]] = []
        if name.trimmingCharacters(in: .whitespaces).isEmpty { errors.append(["field": "name", "message": "Name is required."]) }
        if !email.contains("@") || email.hasPrefix("@") || email.hasSuffix("@") {
          errors.append(["field": "email", "message": "Enter a valid email address."])
        } else if state.users[email] != nil {
          errors.append(["field": "email", "message": "This email is already registered."])
        }
        if password.count < 8 { errors.append(["field": "password", "message": "Use at least 8 characters."]) }
        guard errors.isEmpty else { return .json(422, ["errors": errors]) }
        state.users[email] = UserRecord(id: "u\(state.users.count + 1)", name: name, email: email, password: password)
        return .json(201, Self.issue(&state, email: email, generation: generation, lifetime: lifetime).json)

      case ("POST", 2, "auth", "refresh", _):
        let body = Self.json(request.body)
        // RFC 6749 §5.2: an invalid, expired, revoked or already used refresh token is 400 with
        // `"error": "invalid_grant"`, not 401 (which is for a client that failed to authenticate).
        // Rotation (RFC 9700 §4.14.2): the token presented is retired and a new one issued in its
        // family; a retired token presented again means two parties hold the family, so the
        // family's newest token is revoked too, and the whole family is signed out.
        let token = body["refresh_token"] as? String ?? ""
        guard let record = state.refresh.removeValue(forKey: token) else {
          var description = "unknown, expired or already used refresh token"
          if let family = state.retired[token] {
            state.refreshTokenReuses += 1
            state.refresh = state.refresh.filter { $0.value.family != family }
            description = "a refresh token that was already used: the session is revoked"
          }
          return .json(
            400, ["error": "invalid_grant", "error_description": description], headers: [("Cache-Control", "no-store")])
        }
        state.retired[token] = record.family
        return .json(
          200, Self.issue(&state, email: record.email, family: record.family, generation: generation, lifetime: lifetime).json)

      case ("POST", 2, "auth", "logout", _):
        guard let email = signedIn else { return Self.unauthorized }
        state.access = state.access.filter { $0.value.email != email }
        state.refresh = state.refresh.filter { $0.value.email != email }
        return HTTPReply(status: 204)

      case ("GET", 2, "users", "me", _):
        guard let email = signedIn, let user = state.users[email] else { return Self.unauthorized }
        return .json(200, Self.user(user))

      case ("PUT", 2, "users", "me", _):
        guard let email = signedIn, var user = state.users[email] else { return Self.unauthorized }
        if let name = Self.json(request.body)["name"] as? String {
          guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            return .json(422, ["errors": [["field": "name", "message": "Name is required."]]])
          }
          user.name = name
        }
        state.users[email] = user
        return .json(200, Self.user(user))

      case ("POST", 3, "users", "me", "avatar"):
        guard let email = signedIn, var user = state.users[email] else { return Self.unauthorized }
        guard let part = Multipart.firstFile(request) else { return .error(400, "send multipart/form-data with a file part") }
        user.avatarBytes = part.data.count
        state.users[email] = user
        var json = Self.user(user)
        json["avatar_filename"] = part.filename
        json["avatar_content_type"] = part.contentType
        return .json(200, json)

      case ("GET", 1, "posts", _, _):
        guard let email = signedIn else { return Self.unauthorized }
        let pageText = request.query["page"] ?? ""
        let page = max(1, Int(pageText) ?? 1)
        let limit = min(100, max(1, Int(request.query["limit"] ?? "") ?? 20))
        // Checked: page=9223372036854775807 would overflow (page - 1) * limit and trap, taking
        // the whole server down with one request. A page past the last one is simply empty.
        let (skip, overflow) = (page - 1).multipliedReportingOverflow(by: limit)
        guard !overflow, DecimalDigits.parse(pageText) != .tooLarge else {
          return .error(400, "page \(pageText) is out of range: (page - 1) × limit must fit in a 64-bit integer")
        }
        let items = state.posts.dropFirst(skip).prefix(limit).map { Self.post($0, viewer: email, baseURL: baseURL) }
        return .json(200, ["items": items, "page": page, "limit": limit, "total": state.posts.count])

      case ("POST", 1, "posts", _, _):
        guard let email = signedIn else { return Self.unauthorized }
        let text = Self.json(request.body)["text"] as? String ?? ""
        guard !text.isEmpty else { return .json(422, ["errors": [["field": "text", "message": "Write something first."]]]) }
        state.nextPost += 1
        let record = PostRecord(
          id: "p\(state.nextPost)", author: state.users[email]?.name ?? email, text: text, createdAt: Date(), baseLikes: 0,
          baseComments: 0)
        state.posts.insert(record, at: 0)
        return .json(201, Self.post(record, viewer: email, baseURL: baseURL))

      case ("GET", 2, "posts", let id, _):
        guard let email = signedIn else { return Self.unauthorized }
        guard let record = state.posts.first(where: { $0.id == id }) else { return .error(404, "no post \(id)") }
        return .json(200, Self.post(record, viewer: email, baseURL: baseURL))

      case ("PUT", 2, "posts", let id, _):
        guard let email = signedIn else { return Self.unauthorized }
        guard let index = state.posts.firstIndex(where: { $0.id == id }) else { return .error(404, "no post \(id)") }
        if let text = Self.json(request.body)["text"] as? String { state.posts[index].text = text }
        return .json(200, Self.post(state.posts[index], viewer: email, baseURL: baseURL))

      case ("DELETE", 2, "posts", let id, _):
        guard signedIn != nil else { return Self.unauthorized }
        state.posts.removeAll { $0.id == id }
        return HTTPReply(status: 204)

      // A like is a resource: PUT creates it and DELETE removes it, both idempotent (RFC 9110
      // §9.2.2), so a client may retry either after a lost answer and end in the same state.
      case ("POST", 3, "posts", _, "like"):
        return .error(405, "like with PUT, unlike with DELETE", headers: [("Allow", "PUT, DELETE")])

      case ("PUT", 3, "posts", let id, "like"), ("DELETE", 3, "posts", let id, "like"):
        guard let viewer else { return Self.unauthorized }
        guard let index = state.posts.firstIndex(where: { $0.id == id }) else { return .error(404, "no post \(id)") }
        if method == "PUT" {
          state.posts[index].likers.insert(viewer)
        } else {
          state.posts[index].likers.remove(viewer)
        }
        return .json(200, Self.post(state.posts[index], viewer: viewer, baseURL: baseURL))

      case ("GET", 3, "posts", let id, "comments"):
        guard viewer != nil else { return Self.unauthorized }
        guard let record = state.posts.first(where: { $0.id == id }) else { return .error(404, "no post \(id)") }
        return .json(200, ["comments": record.comments.map { Self.comment($0, postID: id) }])

      case ("POST", 3, "posts", let id, "comments"):
        guard let viewer else { return Self.unauthorized }
        guard let index = state.posts.firstIndex(where: { $0.id == id }) else { return .error(404, "no post \(id)") }
        let key = request.header("Idempotency-Key").map { "\(id)\n\($0)" }
        if let key, let existing = state.commentKeys[key], let comment = state.posts[index].comments.first(where: { $0.id == existing }) {
          return .json(200, Self.comment(comment, postID: id))
        }
        let text = Self.json(request.body)["text"] as? String ?? ""
        guard !text.isEmpty else { return .json(422, ["errors": [["field": "text", "message": "Write something first."]]]) }
        state.nextComment += 1
        let comment = Comment(id: "c\(state.nextComment)", author: viewer, text: text, createdAt: Date())
        state.posts[index].comments.append(comment)
        if let key { state.commentKeys[key] = comment.id }
        return .json(201, Self.comment(comment, postID: id))

      case ("GET", 1, "search", _, _):
        guard let email = signedIn else { return Self.unauthorized }
        let query = (request.query["q"] ?? "").lowercased()
        let found = query.isEmpty ? [] : state.posts.filter { $0.text.lowercased().contains(query) || $0.author.contains(query) }
        let limit = min(100, max(1, Int(request.query["limit"] ?? "") ?? 20))
        let items = found.prefix(limit).map { Self.post($0, viewer: email, baseURL: baseURL) }
        return .json(200, ["items": items, "page": 1, "limit": limit, "total": found.count])

      case ("GET", 1, "feed", _, _):
        guard let viewer else { return Self.unauthorized }
        let limit = min(100, max(1, Int(request.query["limit"] ?? "") ?? 20))
        var start = 0
        if let cursor = request.query["cursor"], !cursor.isEmpty {
          guard cursor.hasPrefix("after:"), let index = state.posts.firstIndex(where: { $0.id == String(cursor.dropFirst(6)) }) else {
            return .error(400, "unknown cursor \(cursor)")
          }
          start = index + 1
        }
        let page = Array(state.posts.dropFirst(start).prefix(limit))
        let more = start + page.count < state.posts.count
        let next: Any = more && !page.isEmpty ? "after:\(page[page.count - 1].id)" : NSNull()
        return .json(200, ["posts": page.map { Self.post($0, viewer: viewer, baseURL: baseURL) }, "next_cursor": next])

      default:
        let allowed = Self.methods(route)
        guard allowed.isEmpty else {
          return .error(405, "\(request.path) answers \(allowed.joined(separator: ", "))", headers: [("Allow", allowed.joined(separator: ", "))])
        }
        return .error(404, "no route for \(request.method) \(request.path)")
      }
    }
  }

  /// The methods the API serves on a path of this shape (`posts/{id}`), for the `Allow` header of
  /// a 405 (RFC 9110 §15.5.6); empty for a path it does not serve at all (404).
  static func methods(_ route: [String]) -> [String] {
    switch (route.count, route.first ?? "", route.dropFirst().first ?? "", route.dropFirst(2).first ?? "") {
    case (2, "auth", "login", _), (2, "auth", "register", _), (2, "auth", "refresh", _), (2, "auth", "logout", _): return ["POST"]
    case (2, "users", "me", _): return ["GET", "HEAD", "PUT"]
    case (3, "users", "me", "avatar"): return ["POST"]
    case (1, "posts", _, _): return ["GET", "HEAD", "POST"]
    case (2, "posts", _, _): return ["GET", "HEAD", "PUT", "DELETE"]
    case (3, "posts", _, "like"): return ["PUT", "DELETE"]
    case (3, "posts", _, "comments"): return ["GET", "HEAD", "POST"]
    case (1, "search", _, _), (1, "feed", _, _): return ["GET", "HEAD"]
    default: return []
    }
  }
}

/// Just enough `multipart/form-data` parsing to find the uploaded file.
enum Multipart {
  struct File {
    var filename: String
    var contentType: String
    var data: Data
  }

  static func firstFile(_ request: HTTPRequest) -> File? {
    guard let type = request.header("Content-Type"), type.hasPrefix("multipart/form-data"),
      let range = type.range(of: "boundary=")
    else { return nil }
    let boundary = Data(("--" + type[range.upperBound...].trimmingCharacters(in: CharacterSet(charactersIn: "\" "))).utf8)
    let body = request.body
    var cursor = body.startIndex
    let blank = Data("\r\n\r\n".utf8)
    while let start = body.range(of: boundary, in: cursor..<body.endIndex) {
      let partStart = start.upperBound
      guard let end = body.range(of: boundary, in: partStart..<body.endIndex) else { return nil }
      cursor = end.lowerBound
      guard let split = body.range(of: blank, in: partStart..<end.lowerBound),
        let head = String(data: body[partStart..<split.lowerBound], encoding: .utf8),
        let nameRange = head.range(of: "filename=\"")
      else { continue }
      let filename = String(head[nameRange.upperBound...].prefix { $0 != "\"" })
      var contentType = "application/octet-stream"
      for line in head.components(separatedBy: "\r\n") where line.lowercased().hasPrefix("content-type:") {
        contentType = line.dropFirst("content-type:".count).trimmingCharacters(in: .whitespaces)
      }
      var dataEnd = end.lowerBound
      if dataEnd - split.upperBound >= 2 { dataEnd -= 2 }  // the CRLF before the boundary
      return File(filename: filename, contentType: contentType, data: Data(body[split.upperBound..<dataEnd]))
    }
    return nil
  }
}
