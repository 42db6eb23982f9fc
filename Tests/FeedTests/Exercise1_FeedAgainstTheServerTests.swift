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
        // 25, not the server's default of 20: a page size that never reached the server would
        // still page through the feed, in pages of 20.
        let repository = FeedRepository(api: api, pageSize: 25)
        var pages = 0
        while await repository.hasMore, pages < 50 {
          try await repository.loadNextPage()
          pages += 1
        }
        let ids = await repository.posts.map(\.id)
        #expect(
          ids.count == server.configuration.postCount, "every one of the server's \(server.configuration.postCount) posts should be loaded, got \(ids.count)")
        #expect(Set(ids).count == ids.count, "no post should be loaded twice")
        #expect(
          pages == server.configuration.postCount / 25,
          "\(server.configuration.postCount) posts in pages of at most 25 is \(server.configuration.postCount / 25) pages, then no next cursor; took \(pages)"
        )
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
        #expect(failures.isEmpty, "every one of the 8 calls should succeed; failures: \(failures)")
        // Real traffic cannot be held, so a call that started after the first page had arrived
        // rightly asks for the second one. What must never happen is one cursor asked for twice.
        let cursors = server.requestLog.filter { $0.path == "/v1/feed" }.map { $0.query["cursor"] ?? "(first page)" }
        #expect(
          Set(cursors).count == cursors.count,
          "8 simultaneous calls should share one request per cursor; the server was asked for \(cursors)")
        #expect(await repository.posts.count == 20 * cursors.count, "each page's 20 posts should be in the feed once")
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

    @Test("a like is PUT and an unlike DELETE, so a 503 is retried and the like lands once")
    func likesAreIdempotentAndRetried() async throws {
      try await withFeedAPI { server, api in
        server.chaos.only(pathPrefix: "/v1/posts/p2/like")
        server.chaos.failNext(1, status: 503, retryAfter: 0)
        let liked = try await api.setLike(true, postID: "p2")
        let likes = server.requestLog.filter { $0.path == "/v1/posts/p2/like" }
        #expect(
          likes.map(\.method) == ["PUT", "PUT"],
          "a like is PUT (idempotent, RFC 9110 §9.2.2), so chapter 3's retry policy may send it again after a 503; the server saw \(likes.map(\.method))"
        )
        #expect(liked.likedByMe, "the retried like lands")
        let again = try await api.setLike(true, postID: "p2")
        #expect(again.likeCount == liked.likeCount, "liking twice leaves one like: PUT sets the state, it does not add to it")
        server.chaos.failNext(1, status: 503, retryAfter: 0)
        let unliked = try await api.setLike(false, postID: "p2")
        #expect(
          server.requestLog.filter { $0.path == "/v1/posts/p2/like" }.suffix(2).map(\.method) == ["DELETE", "DELETE"],
          "an unlike is DELETE on the same resource, retried after a 503 like the like")
        #expect(!unliked.likedByMe && unliked.likeCount == liked.likeCount - 1, "the unlike removes the one like")
      }
    }
  }
#endif
