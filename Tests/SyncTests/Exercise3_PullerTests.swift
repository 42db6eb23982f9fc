import Foundation
import PracticeServer
import Synchronization
import Testing
import WorkbookTesting

@testable import Sync

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The pull: every change after the stored token, page after page, into the confirmed copy; a
/// token the server no longer knows starts the copy over once. Checked through the `NoteStore`
/// alone: the puller has nothing else to touch.
@Suite("Exercise 3 — Pull", .timeLimit(.minutes(1)))
struct Exercise3_PullerTests {
  /// The practice server, a recording transport to it over URLSession, and an empty store.
  func withServer(_ body: (PracticeServer, ScriptedSyncTransport, NoteStore) async throws -> Void) async throws {
    let server = try PracticeServer.started()
    defer { server.stop() }
    try await withTemporaryDirectory("pull") { directory in
      let store = try NoteStore(file: directory.file("notes.json"))
      try await body(server, ScriptedSyncTransport(server: URLSessionSyncTransport()), store)
    }
  }

  /// Writes `edits` straight into the server's notes (no socket: the test's own setup).
  func seed(_ service: SyncService, _ edits: [Mutation]) async throws {
    let request = try pushRequest(edits)
    let (data, response) = try await InProcessServer(service: service).send(request)
    let reply = try SyncJSON.decoder().decode(PushReply.self, from: data)
    guard response.statusCode == 200, reply.results.allSatisfy({ $0.status == 200 }) else {
      throw SyncError.malformed("the test's own seeding failed: \(String(decoding: data, as: UTF8.self))")
    }
  }

  func pushRequest(_ edits: [Mutation]) throws -> URLRequest {
    var request = URLRequest(url: InProcessServer.baseURL.appendingPathComponent("v1/sync/push"))
    request.httpMethod = "POST"
    request.httpBody = try SyncJSON.encoder().encode(PushBody(mutations: edits))
    return request
  }

  /// The error `pull` threw, nil when it returned.
  func failure(of puller: Puller, into store: NoteStore) async -> SyncError? {
    do {
      try await puller.pull(into: store)
      return nil
    } catch {
      return error
    }
  }

  @Test func aPullReadsEveryPageUntilTheServerHasNoMore() async throws {
    try await withServer { server, transport, store in
      try await seed(server.sync, Edits.newNotes(7))
      let puller = Puller(transport: transport, baseURL: server.baseURL, pageSize: 3)
      let pages = try await puller.pull(into: store)
      let ids = await store.records.keys.sorted()
      #expect(
        ids == (0..<7).map { "note-\($0)" },
        "7 notes in pages of 3 are 3 pages, asked for while the server says there is more; the store holds \(ids)")
      #expect(pages == 3, "the pull should report 3 pages applied, reported \(pages)")
      let limits = transport.requests.map { $0.query("limit") ?? "(none)" }
      #expect(
        limits == ["3", "3", "3"],
        "each request asks for the page size (limit=3): without it the server sends pages of 100; asked \(limits)")
      #expect(transport.requests.first?.query("since") == nil, "the first pull starts from the beginning: no since")
    }
  }

  @Test func aPullSendsItsTokenAndGetsOnlyWhatChangedSince() async throws {
    try await withServer { server, transport, store in
      try await seed(server.sync, Edits.newNotes(2))
      let puller = Puller(transport: transport, baseURL: server.baseURL, pageSize: 10)
      try await puller.pull(into: store)
      let token = await store.token
      #expect(token != nil, "after a pull the store holds the page's token")
      try await seed(server.sync, [Mutation(id: "later", note: "note-0", base: 1, set: ["title": "again"], editedAt: Edits.editedAt)])
      let before = transport.requests.count
      try await puller.pull(into: store)
      let second = transport.requests.dropFirst(before)
      #expect(
        second.first?.query("since") == token,
        "the next pull sends the stored token as since, so the server lists only what changed after it; sent \(String(describing: second.first?.query("since")))"
      )
      #expect(second.count == 1, "one change fits one page: 1 request, sent \(second.count)")
      #expect(await store.records["note-0"]?.title == "again", "the change after the token reaches the store")
      #expect(await store.token != token, "the store moves on to the token after the new page")
    }
  }

  @Test func aPageSizeAtTheServersLimitIsSentAndOnePastItIsHeldToIt() async throws {
    try await withServer { server, transport, store in
      try await seed(server.sync, Edits.newNotes(3))
      try await Puller(transport: transport, baseURL: server.baseURL, pageSize: 500).pull(into: store)
      try await Puller(transport: transport, baseURL: server.baseURL, pageSize: 501).pull(into: store)
      let limits = transport.requests.map { $0.query("limit") ?? "(none)" }
      #expect(
        limits == ["500", "500"], "500 is the most the server takes (501 is a 400), so a page size of 501 is sent as 500; asked \(limits)")
      #expect(await store.records.count == 3, "both pulls succeed")
    }
  }

  @Test func aPageSizeUnderOneIsHeldToOne() async throws {
    try await withServer { server, transport, store in
      try await seed(server.sync, Edits.newNotes(2))
      let puller = Puller(transport: transport, baseURL: server.baseURL, pageSize: 0)
      #expect(puller.pageSize == 1, "a page size of 0 should be held to 1, the least the server takes; it is \(puller.pageSize)")
      let error = await failure(of: puller, into: store)
      let limits = transport.requests.map { $0.query("limit") ?? "(none)" }
      #expect(
        error == nil && limits.allSatisfy { $0 == "1" },
        "a pull with page size 0 should ask for pages of 1 (limit=0 is a 400); it asked \(limits) and ended with \(String(describing: error))")
      #expect(await store.records.count == 2, "the pull in pages of 1 should bring both notes")
    }
  }

  @Test func anExpiredTokenStartsTheCopyOverFromTheBeginningOnce() async throws {
    try await withServer { server, transport, store in
      try await seed(server.sync, Edits.newNotes(3))
      let puller = Puller(transport: transport, baseURL: server.baseURL, pageSize: 2)
      try await puller.pull(into: store)
      // The server was restored from an older backup: its history starts again, its tokens are
      // no longer known, and the copy held here claims versions the server never reached.
      try await store.apply([NoteRecord(id: "note-0", version: 9, fields: ["title": "lost"]), NoteRecord(id: "ghost", version: 4)])
      server.sync.expireTokens()
      let before = transport.requests.count
      let pages = try await puller.pull(into: store)
      let sinces = transport.requests.dropFirst(before).map { $0.query("since") ?? "(none)" }
      #expect(
        sinces.count == 3 && sinces[1] == "(none)",
        "a 410 starts the pull over without a token: the expired token, then the beginning, then the next page; asked \(sinces)")
      let held = await store.records
      let served = server.sync.notes.map(\.id)
      #expect(
        held.keys.sorted() == served,
        "after a 410 the copy is rebuilt from the server's history: the store should hold exactly \(served), holds \(held.keys.sorted())")
      #expect(
        held["note-0"]?.title == "t0" && held["note-0"]?.version == 1,
        "the copy from before the 410 is forgotten: note-0 is the server's version 1, not the version 9 held before; held \(String(describing: held["note-0"]))"
      )
      #expect(
        pages == 2,
        "3 notes from the beginning in pages of 2 are 2 pages applied (the 410 applied none); the pull reported \(pages)")
    }
  }

  @Test func aResyncKeepsEveryConfirmedNoteUntilItsLastPageAndACutShortOneLeavesThem() async throws {
    let service = SyncService()
    try await seed(service, Edits.newNotes(6))
    try await withTemporaryDirectory("pull-resync") { directory in
      let store = try NoteStore(file: directory.file("notes.json"))
      // Through a transport that stops a pull that never ends (a token never sent, say) after 40 requests.
      try await Puller(transport: ScriptedSyncTransport(server: InProcessServer(service: service)), baseURL: InProcessServer.baseURL, pageSize: 2)
        .pull(into: store)
      let confirmed = await store.records
      // The server is restored and changes meanwhile: note-0 edited, note-5 deleted, every token refused.
      try await seed(service, [Mutation(id: "e1", note: "note-0", base: 1, set: ["title": "new"]), Mutation(id: "e2", note: "note-5", base: 1, delete: true)])
      service.expireTokens()
      // The 410, pages 1 and 2 of 3, then the network drops.
      let cut = ScriptedSyncTransport(
        server: InProcessServer(service: service), script: [.deliver, .deliver, .deliver, .fail(.notConnectedToInternet)])
      let watched = StoreWatchingTransport(inner: cut, store: store)
      let failed = await failure(of: Puller(transport: watched, baseURL: InProcessServer.baseURL, pageSize: 2), into: store)
      #expect(failed == .offline, "the network dropped before the resync's last page: the pull should fail offline, got \(String(describing: failed))")
      for (index, seen) in watched.seen.enumerated() where seen != confirmed {
        Issue.record(
          "before request \(index + 1) of the resync the store held \(seen.count) notes, not the \(confirmed.count) it had confirmed: the screen lost notes no device deleted while the new copy was being built"
        )
      }
      let afterCut = await store.records
      // Compared outside #expect, which would print every note on a failure.
      let kept = afterCut == confirmed
      #expect(kept, "a resync cut short should leave the old copy whole: held \(afterCut.keys.sorted()), had \(confirmed.keys.sorted())")
      let resumeFrom = await store.resyncToken
      let resumed = ScriptedSyncTransport(server: InProcessServer(service: service))
      try await Puller(transport: resumed, baseURL: InProcessServer.baseURL, pageSize: 2).pull(into: store)
      let sinces = resumed.requests.map { $0.query("since") ?? "(none)" }
      #expect(
        resumeFrom != nil && sinces == [resumeFrom ?? ""],
        "the next pull should carry the resync on from the token after its last page (\(resumeFrom ?? "none held")): one request for the one page left; asked since \(sinces)"
      )
      let held = await store.records.values.sorted { $0.id < $1.id }.map { "\($0.id) v\($0.version)\($0.deleted ? " deleted" : "") \($0.fields)" }
      let served = service.notes.map { "\($0.id) v\($0.version)\($0.deleted ? " deleted" : "") \($0.fields)" }
      #expect(
        held == served,
        "the next pull should finish the resync and hold the server's notes exactly (note-0 edited, note-5 a tombstone): held \(held), the server \(served)")
    }
  }

  @Test func aSecondExpiredTokenInARowIsAnError() async throws {
    try await withTemporaryDirectory("pull") { directory in
      let store = try NoteStore(file: directory.file("notes.json"))
      let gone = Data(#"{"error":"token expired: sync again from the beginning"}"#.utf8)
      let transport = ScriptedSyncTransport(server: nil, afterScript: .answer(status: 410, body: gone))
      let error = await failure(of: Puller(transport: transport, baseURL: InProcessServer.baseURL), into: store)
      #expect(
        error == .tokenExpired,
        "a server that answers 410 to a pull from the beginning too is an error (.tokenExpired), not a reason to start over again; got \(String(describing: error))"
      )
      #expect(transport.requests.count == 2, "one 410, one start from the beginning, then stop: 2 requests; sent \(transport.requests.count)")
    }
  }

  @Test func anErrorStatusIsNeverAppliedAsAPage() async throws {
    try await withServer { server, transport, store in
      try await seed(server.sync, Edits.newNotes(1))
      server.chaos.only(pathPrefix: "/v1/sync/changes")
      server.chaos.failNext(1, status: 503, retryAfter: nil)
      let error = await failure(of: Puller(transport: transport, baseURL: server.baseURL), into: store)
      #expect(error == .server(status: 503), "a 503 is .server(status: 503), got \(String(describing: error))")
      let (records, token) = (await store.records, await store.token)
      #expect(records.isEmpty && token == nil, "a failed pull changes nothing in the store")
    }
    try await withTemporaryDirectory("pull") { directory in
      let store = try NoteStore(file: directory.file("notes.json"))
      let page = ChangePage(changes: [NoteRecord(id: "n1", version: 1, fields: ["title": "x"])], next: "t1", more: false)
      let transport = ScriptedSyncTransport(server: nil, afterScript: .answer(status: 500, body: try SyncJSON.encoder().encode(page)))
      let error = await failure(of: Puller(transport: transport, baseURL: InProcessServer.baseURL), into: store)
      #expect(error == .server(status: 500), "a 500 is an error whatever its body holds, got \(String(describing: error))")
      let (records, token) = (await store.records, await store.token)
      #expect(
        records.isEmpty && token == nil,
        "a body that came with a 500 is not a page of changes: the store should stay empty without a token")
    }
  }

  @Test func aPullWithNoConnectionIsOfflineAndChangesNothing() async throws {
    try await withTemporaryDirectory("pull") { directory in
      let store = try NoteStore(file: directory.file("notes.json"))
      let transport = ScriptedSyncTransport(server: nil, afterScript: .fail(.notConnectedToInternet))
      let error = await failure(of: Puller(transport: transport, baseURL: InProcessServer.baseURL), into: store)
      #expect(error == .offline, "no network is .offline, got \(String(describing: error))")
      #expect(await store.token == nil, "nothing was read, so no token")
    }
  }
}

/// Forwards each request to `inner` after noting what the store held at that moment: what the
/// screen would have shown while the pull waited for that page.
final class StoreWatchingTransport: SyncTransport {
  let inner: any SyncTransport
  let store: NoteStore
  private let noted = Mutex<[[String: NoteRecord]]>([])

  init(inner: any SyncTransport, store: NoteStore) {
    self.inner = inner
    self.store = store
  }

  /// What the store held before each request, in order.
  var seen: [[String: NoteRecord]] { noted.withLock { $0 } }

  func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    let held = await store.records
    noted.withLock { $0.append(held) }
    return try await inner.send(request)
  }
}
