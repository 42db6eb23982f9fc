import Foundation
import PracticeServer
import Testing
import WorkbookTesting

@testable import Networking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Exercise 6 — An endpoint catalog, stubs and pagination", .timeLimit(.minutes(1)))
struct Exercise6_EndpointTests {
  struct Item: Decodable, Sendable, Identifiable, Equatable {
    var id: Int
  }

  @Test func theCatalogDescribesEveryEndpoint() {
    let expected: [(API, HTTPMethod, String, Bool)] = [
      (.login(email: "a", password: "b"), .post, "/auth/login", false),
      (.register(name: "n", email: "a", password: "b"), .post, "/auth/register", false),
      (.refresh(refreshToken: "r"), .post, "/auth/refresh", false),
      (.logout, .post, "/auth/logout", true),
      (.profile, .get, "/users/me", true),
      (.updateProfile(name: "n"), .put, "/users/me", true),
      (.uploadAvatar(Data(), filename: "a.png", mimeType: "image/png"), .post, "/users/me/avatar", true),
      (.posts(page: 2, limit: 10), .get, "/posts", true),
      (.post(id: "p1"), .get, "/posts/p1", true),
      (.createPost(text: "t"), .post, "/posts", true),
      (.updatePost(id: "p1", text: "t"), .put, "/posts/p1", true),
      (.deletePost(id: "p1"), .delete, "/posts/p1", true),
      (.search(query: "q"), .get, "/search", true),
    ]
    for (endpoint, method, path, auth) in expected {
      #expect(endpoint.method == method, "\(endpoint) should be \(method.rawValue), is \(endpoint.method.rawValue)")
      #expect(endpoint.path == path, "\(endpoint) should go to \(path), goes to \(endpoint.path)")
      #expect(endpoint.requiresAuth == auth, "\(endpoint) \(auth ? "needs" : "must not need") the token")
    }
    #expect(API.posts(page: 2, limit: 10).query == ["page": "2", "limit": "10"], "posts carries page and limit")
    #expect(API.search(query: "swift").query == ["q": "swift"], "search carries q")
    let custom = API.custom(method: .patch, path: "/x", query: ["a": "1"], requiresAuth: true)
    #expect(custom.method == .patch && custom.path == "/x" && custom.requiresAuth, "a custom endpoint says what it is")
    if case .multipart(let form)? = API.uploadAvatar(Data([1]), filename: "a.png", mimeType: "image/png").body {
      #expect(form.parts.first?.filename == "a.png", "the avatar is uploaded as a multipart file part")
    } else {
      Issue.record("the avatar upload should send a multipart body")
    }
  }

  @Test func environmentsKeepTheVersionPrefix() throws {
    #expect(APIEnvironment.production.baseURL.absoluteString == "https://api.example.com/v1", "production lives at https://api.example.com/v1")
    #expect(APIEnvironment.staging.baseURL.path == "/v1", "staging keeps /v1")
    #expect(APIEnvironment.development.baseURL.path == "/v1", "development keeps /v1")
    #expect(APIEnvironment.staging.baseURL != APIEnvironment.production.baseURL, "staging must not point at production")
  }

  @Test func everySampleDecodesAsItsResponse() async throws {
    let client = StubbingClient(clock: ManualClock())
    let token = try await client.decode(TokenGrant.self, for: API.login(email: "a", password: "b"))
    #expect(
      !token.accessToken.isEmpty && token.expiresIn > 0,
      "the login sample is a token grant with its lifetime in seconds, expires_in (RFC 6749 §5.1)")
    let user = try await client.decode(User.self, for: API.profile)
    #expect(!user.email.isEmpty, "the profile sample is a user")
    let page = try await client.decode(Page<Post>.self, for: API.posts(page: 1, limit: 20))
    #expect(!page.items.isEmpty, "the posts sample is a page of posts")
    let post = try await client.decode(Post.self, for: API.post(id: "p1"))
    let postJSON = String(decoding: API.post(id: "p1").sampleData, as: UTF8.self)
    #expect(
      postJSON.contains("\"like_count\"") && postJSON.contains("\"image_url\""),
      "the post sample is written as the server writes it, with snake_case keys (like_count, image_url): \(postJSON)")
    #expect(
      post.imageUrl != nil,
      "the post sample decodes with imageUrl nil: its image_url must be a URL, not null (sampleData's doc comment): \(postJSON)")
    _ = try await client.decode(Page<Post>.self, for: API.search(query: "q"))
    _ = try await client.decode(EmptyResponse.self, for: API.logout)
    for endpoint in API.examples where endpoint.method != .delete && endpoint.path != "/auth/logout" && endpoint.path != "/health" {
      #expect(!endpoint.sampleData.isEmpty, "\(endpoint) needs sample data")
    }
  }

  @Test func theStubbingClientCanRespondLaterOnTheInjectedClock() async throws {
    let clock = ManualClock()
    let client = StubbingClient(behavior: .delayed(.seconds(2)), clock: clock)
    let done = Counter()
    let task = Task {
      defer { done.increment() }
      return try await client.decode(User.self, for: API.profile)
    }
    let slept = await clock.waitForSleepers(1) { done.value == 1 }
    #expect(slept, "a delayed stub should wait on the injected clock")
    #expect(done.value == 0, "the answer must not come before the delay")
    await clock.advance(by: .seconds(2))  // wakes the stub and lets it answer
    #expect(done.value == 1, "after the 2 s delay the sample should have arrived")
    await clock.run()  // a stub that waits longer is woken too, so the test ends and reports it
    let user = try await task.value
    #expect(user.name == "Ada", "after the delay the sample arrives")
    #expect(clock.sleepHistory == [.seconds(2)], "the stub waits exactly the configured delay")
  }

  @Test func envelopesCarryFieldErrors() throws {
    let json = #"{"errors":[{"field":"email","message":"Enter a valid email."},{"field":"email","message":"Taken."},{"field":"name","message":"Required."}]}"#
    let envelope = try JSONCoding.decoder().decode(APIResponse<User>.self, from: Data(json.utf8))
    #expect(envelope.messages(for: "email") == ["Enter a valid email.", "Taken."], "messages for one field, in order")
    #expect(throws: ValidationError.self, "an envelope with errors has no value") { try envelope.unwrap() }
    let ok = try JSONCoding.decoder().decode(APIResponse<User>.self, from: Data(#"{"data":{"id":"u","name":"A","email":"a@b"}}"#.utf8))
    #expect(try ok.unwrap().id == "u", "an envelope with data unwraps to it")
  }

  @Test func pagesKnowWhetherMoreFollow() throws {
    let middle = try JSONCoding.decoder().decode(Page<Item>.self, from: Data(#"{"items":[{"id":1}],"page":2,"limit":10,"total":25}"#.utf8))
    #expect(middle.hasMore && middle.nextPage == 3, "page 2 of 25 items by 10 has a page 3")
    let last = try JSONCoding.decoder().decode(Page<Item>.self, from: Data(#"{"items":[{"id":1}],"page":3,"limit":10,"total":25}"#.utf8))
    #expect(!last.hasMore && last.nextPage == nil, "page 3 of 25 by 10 is the last")
  }

  @Test func cursorPaginationNeverShowsAnItemTwice() {
    var list = CursorPagination<Item>()
    list.apply(CursorPage(items: [Item(id: 1), Item(id: 2), Item(id: 3)], nextCursor: "after:3"))
    #expect(list.nextCursor == "after:3" && !list.isExhausted, "a page with a cursor leads to the next page")
    list.apply(CursorPage(items: [Item(id: 3), Item(id: 4)], nextCursor: nil))
    #expect(list.items.map(\.id) == [1, 2, 3, 4], "an item repeated by the next page is shown once, got \(list.items.map(\.id))")
    #expect(list.isExhausted && list.nextCursor == nil, "a page without a cursor is the last one")
    list.apply(CursorPage(items: [Item(id: 9)], nextCursor: "after:9"))
    #expect(list.items.count == 4, "nothing is appended after the end")
    list.reset()
    #expect(list.items.isEmpty && !list.isExhausted && list.nextCursor == nil, "reset starts over, for pull to refresh: no items, no cursor, not exhausted")
    list.apply(CursorPage(items: [Item(id: 3)], nextCursor: "after:3"))
    #expect(list.items.map(\.id) == [3], "after a reset the ids seen before are forgotten: item 3 shows again, got \(list.items.map(\.id))")
  }

  @Test func loadingStateKeepsWhatIsOnScreen() {
    var state = LoadingState<[Int]>.idle
    state.startLoading()
    #expect(state == .loading(previous: nil) && state.isLoading, "loading from idle has nothing to show yet")
    state.finish(with: .success([1, 2]))
    #expect(state == .loaded([1, 2]), "a success is shown")
    state.startLoading()
    #expect(state.value == [1, 2] && state.isLoading, "a refresh keeps the list on screen while it loads")
    state.finish(with: .failure(.offline))
    #expect(state == .failed(.offline, previous: [1, 2]), "a failed refresh keeps the list and reports the error, got \(state)")
    state.startLoading()
    state.finish(with: .failure(.cancelled))
    #expect(state == .loaded([1, 2]), "a cancelled load is not an error: the list stays as it was, got \(state)")
  }

  @Test("integration: the server's cursor feed pages through every post once")
  func pagesThroughTheServerFeed() async throws {
    try await withServer { server in
      let session = URLSession(configuration: .ephemeral)
      defer { session.finishTasksAndInvalidate() }
      var list = CursorPagination<Post>()
      var pages = 0
      repeat {
        var components = URLComponents(url: server.baseURL.appendingPathComponent("v1/feed"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "limit", value: "50")] + (list.nextCursor.map { [URLQueryItem(name: "cursor", value: $0)] } ?? [])
        let (_, data) = try await fetch(session, URLRequest(url: components.url!))
        list.apply(try JSONCoding.decoder().decode(CursorPage<Post>.self, from: data))
        pages += 1
      } while !list.isExhausted && pages < 10
      #expect(list.items.count == 200, "200 posts in pages of 50, got \(list.items.count)")
      #expect(Set(list.items.map(\.id)).count == 200, "no post appears twice")
      #expect(pages == 4, "200 posts by 50 is 4 pages, took \(pages)")
    }
  }

  @Test("a custom base URL is used exactly as given")
  func aCustomEnvironmentIsUsedAsGiven() {
    let url = URL(string: "http://127.0.0.1:9000/api")!
    #expect(APIEnvironment.custom(url).baseURL == url, "a custom server names its own prefix: nothing is appended, got \(APIEnvironment.custom(url).baseURL)")
  }

  @Test("the avatar is one file part named avatar, with the case's data, filename and type")
  func theAvatarIsOneFilePart() {
    guard case .multipart(let form)? = API.uploadAvatar(Data([7, 8]), filename: "me.jpg", mimeType: "image/jpeg").body else {
      Issue.record("the avatar upload should send a multipart body")
      return
    }
    #expect(form.parts.count == 1, "one file part, nothing else; got \(form.parts.count) parts")
    let part = form.parts.first
    #expect(part?.name == "avatar", "the part is named avatar, as the catalog says; got \(String(describing: part?.name))")
    #expect(
      part?.filename == "me.jpg" && part?.contentType == "image/jpeg" && part?.data == Data([7, 8]),
      "the part carries the case's data, filename and MIME type; got \(String(describing: part))")
  }

  @Test("every endpoint's sample decodes as what the endpoint answers")
  func everySampleIsWhatItsEndpointAnswers() async throws {
    let client = StubbingClient(clock: ManualClock())
    for endpoint in [API.register(name: "n", email: "a", password: "b"), .refresh(refreshToken: "r")] {
      let token = try await client.decode(TokenGrant.self, for: endpoint)
      #expect(!token.refreshToken.isEmpty, "\(endpoint) answers a token")
    }
    for endpoint in [API.updateProfile(name: "n"), .uploadAvatar(Data([1]), filename: "a.png", mimeType: "image/png")] {
      let user = try await client.decode(User.self, for: endpoint)
      #expect(!user.id.isEmpty, "\(endpoint) answers the user")
    }
    for endpoint in [API.createPost(text: "t"), .updatePost(id: "p1", text: "t")] {
      let post = try await client.decode(Post.self, for: endpoint)
      #expect(!post.id.isEmpty, "\(endpoint) answers the post")
    }
    for endpoint in [API.logout, .deletePost(id: "p1"), .custom(method: .get, path: "/health", query: [:], requiresAuth: false)] {
      #expect(endpoint.sampleData.isEmpty, "\(endpoint) answers an empty body, so its sample is empty")
    }
  }

  @Test("field errors win over data, an empty errors list is no error, and an empty envelope is an error")
  func envelopeEdges() throws {
    let both = try JSONCoding.decoder().decode(
      APIResponse<User>.self,
      from: Data(#"{"data":{"id":"u","name":"A","email":"a@b"},"errors":[{"field":"name","message":"Too short."}]}"#.utf8))
    #expect(
      throws: ValidationError(fields: [FieldError(field: "name", message: "Too short.")]),
      "an envelope with field errors did not validate, even with data: unwrap throws them"
    ) { try both.unwrap() }
    let emptyList = APIResponse<User>(data: User(id: "u", name: "A", email: "a@b"), errors: [])
    #expect((try? emptyList.unwrap())?.id == "u", "an empty errors list is no error: the data unwraps")
    let nothing = APIResponse<User>(data: nil)
    #expect(throws: ValidationError.self, "no data and no errors: a ValidationError") { try nothing.unwrap() }
  }

  @Test("the page that reaches total exactly is the last one")
  func aPageEndingAtTheTotalIsTheLast() throws {
    let last = try JSONCoding.decoder().decode(Page<Item>.self, from: Data(#"{"items":[{"id":1}],"page":2,"limit":10,"total":20}"#.utf8))
    #expect(!last.hasMore && last.nextPage == nil, "page 2 by 10 ends at item 20 of 20: no page 3 (it would be empty)")
    let before = try JSONCoding.decoder().decode(Page<Item>.self, from: Data(#"{"items":[{"id":1}],"page":1,"limit":10,"total":11}"#.utf8))
    #expect(before.hasMore && before.nextPage == 2, "page 1 by 10 of 11 items leaves item 11 for page 2")
  }

  @Test("a load cancelled with nothing on screen goes back to idle")
  func aCancelledFirstLoadIsIdle() {
    var state = LoadingState<[Int]>.idle
    state.startLoading()
    state.finish(with: .failure(.cancelled))
    #expect(state == .idle, "nothing was on screen and the load was cancelled: back to .idle, not an error; got \(state)")
    var failed = LoadingState<[Int]>.failed(.offline, previous: nil)
    failed.startLoading()
    failed.finish(with: .failure(.cancelled))
    #expect(failed == .idle, "a cancelled retry after a failure with nothing on screen is .idle: the old error is not brought back; got \(failed)")
  }

  @Test("a task cancelled before it asks a stub gets .cancelled, even from an immediate stub")
  func aCancelledTaskGetsNoSample() async {
    let client = StubbingClient(clock: ManualClock())
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await client.data(for: API.profile)
    }
    let result = await task.result
    #expect(throws: NetworkError.cancelled, "a stub answers a cancelled task like the network does: .cancelled, got \(result)") { try result.get() }
  }
}
