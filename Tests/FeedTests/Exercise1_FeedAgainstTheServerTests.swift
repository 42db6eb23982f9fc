import Foundation
import Networking
import Testing
import WorkbookTesting

@testable import Feed

#if canImport(PracticeServer)
  import PracticeServer

  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  /// The feed against the practice server: real HTTP on 127.0.0.1, real `URLSession`.
  @Suite("Exercise 1 — Cursor pagination without duplicates (practice server)", .timeLimit(.minutes(1)))
  struct Exercise1_FeedAgainstTheServerTests {
    func withFeedAPI(_ body: (PracticeServer, LiveFeedAPI<ContinuousClock>) async throws -> Void) async throws {
      let server = try PracticeServer.started()
      defer { server.stop() }
      let session = URLSession(configuration: .ephemeral)
      defer { session.finishTasksAndInvalidate() }
      let issued = server.issueTokens()
      let token = AuthToken(accessToken: issued.accessToken, refreshToken: issued.refreshToken, expiresAt: .distantFuture)
      try await body(server, LiveFeedAPI.signedIn(to: server.apiURL, token: token, session: session, clock: ContinuousClock()))
    }

    @Test func pagesThroughTheWholeFeedOnce() async throws {
      try await withFeedAPI { server, api in
        let repository = FeedRepository(api: api, pageSize: 20)
        var pages = 0
        while await repository.hasMore, pages < 50 {
          try await repository.loadNextPage()
          pages += 1
        }
        let ids = await repository.posts.map(\.id)
        #expect(
          ids.count == server.configuration.postCount, "every one of the server's \(server.configuration.postCount) posts should be loaded, got \(ids.count)")
        #expect(Set(ids).count == ids.count, "no post should be loaded twice")
        #expect(pages == server.configuration.postCount / 20, "200 posts in pages of 20 is 10 pages, then no next cursor; took \(pages)")
        #expect(await repository.posts.first?.imageUrl != nil, "the server's posts carry image URLs")
      }
    }

    @Test func concurrentScrollsShareOneRequestPerCursor() async throws {
      try await withFeedAPI { server, api in
        let repository = FeedRepository(api: api, pageSize: 20)
        // Every call runs to its end: a group that threw at the first failure would cancel the
        // others mid-flight, and on Linux a cancelled URLSession task can stall the session.
        let failures = await withTaskGroup(of: String?.self) { group in
          for _ in 0..<8 {
            group.addTask {
              do {
                _ = try await repository.loadNextPage()
                return nil
              } catch {
                return "\(error)"
              }
            }
          }
          return await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
        }
        #expect(failures.isEmpty, "every one of the 8 calls should get the first page; failures: \(failures)")
        #expect(server.requestCount("/v1/feed") == 1, "8 simultaneous calls for the first page should send 1 request, sent \(server.requestCount("/v1/feed"))")
      }
    }

    @Test func aRetriedCommentIsPostedOnceAndALikeSticks() async throws {
      try await withFeedAPI { _, api in
        let first = try await api.postComment("hello", postID: "p1", idempotencyKey: "k-1")
        let replay = try await api.postComment("hello", postID: "p1", idempotencyKey: "k-1")
        #expect(first.id == replay.id, "the same idempotency key must return the same comment, not post a second one")
        let liked = try await api.setLike(true, postID: "p1")
        #expect(liked.likedByMe, "after a like the server's copy is liked")
      }
    }
  }
#endif
