import Foundation
import PracticeServer
import Testing
import Workbook
import WorkbookTesting

@testable import Sync

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A server keeps a deleted note's tombstone only down to a horizon, then collects it. A device that
/// was away across the collection may hold an edit of that note: sent as it is, the server no longer
/// knows the note was deleted. The push is refused (410) until the device has resynced, and the edit
/// of the collected note never brings it back; the device's other edits still go out.
@Suite("Exercise 6 — The engine (collected tombstones)", .timeLimit(.minutes(1)))
struct Exercise6_CollectedTombstonesTests {
  /// An engine in `directory` that sends through `transport`.
  static func engine(_ directory: URL, _ transport: any SyncTransport) throws -> SyncEngine {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return try SyncEngine(directory: directory, transport: transport, baseURL: InProcessServer.baseURL)
  }

  /// A push of `mutations` with `since`, answered by `service`: the status and the body's JSON.
  static func push(_ mutations: [Mutation], since: String?, to service: SyncService) throws -> (status: Int, body: [String: Any]) {
    let body = try SyncJSON.encoder().encode(PushBody(mutations: mutations, since: since))
    let reply = service.handle(HTTPRequest(method: "POST", path: "/v1/sync/push", query: [:], headers: [:], body: body))
    return (reply.status, (try? JSONSerialization.jsonObject(with: reply.body)) as? [String: Any] ?? [:])
  }

  /// The token of a pull from the beginning, as a device that syncs now holds it.
  static func token(of service: SyncService) throws -> String {
    let reply = service.handle(HTTPRequest(method: "GET", path: "/v1/sync/changes", query: ["limit": "500"], headers: [:], body: Data()))
    return try SyncJSON.decoder().decode(ChangePage.self, from: reply.body).next
  }

  static func edit(_ id: String, _ note: String, base: Int, delete: Bool = false) -> Mutation {
    delete
      ? Mutation(id: id, note: note, base: base, delete: true, editedAt: Edits.editedAt)
      : Mutation(id: id, note: note, base: base, set: ["title": id], editedAt: Edits.editedAt)
  }

  @Test func aPushFromBeforeTheTombstoneHorizonIsRefusedWholeAndNamesTheHorizon() throws {
    let service = SyncService()
    _ = try Self.push([Self.edit("a", "n1", base: 0), Self.edit("b", "n2", base: 0)], since: nil, to: service)
    let away = try Self.token(of: service)
    _ = try Self.push([Self.edit("c", "n1", base: 1, delete: true)], since: away, to: service)
    #expect(service.collectTombstones() == ["n1"], "the server holds n1's tombstone, and only it, to collect")
    let horizon = try #require(service.horizon, "once a tombstone is collected the server has a horizon")

    let applied = service.appliedCount
    let refused = try Self.push([Self.edit("d", "n1", base: 1), Self.edit("e", "n2", base: 1)], since: away, to: service)
    #expect(
      refused.status == 410 && refused.body["horizon"] as? String == horizon,
      "a push whose since predates the collected tombstone should be refused with 410 and a body naming the horizon (\(horizon)); it got \(refused.status) \(refused.body)"
    )
    #expect(service.appliedCount == applied, "a push refused past the horizon applies nothing, n2's edit included")
    let tokenless = try Self.push([Self.edit("f", "n3", base: 0)], since: nil, to: service)
    #expect(tokenless.status == 410, "a push from a device that never pulled cannot show it saw the delete: 410, got \(tokenless.status)")

    let pull = service.handle(HTTPRequest(method: "GET", path: "/v1/sync/changes", query: ["since": away], headers: [:], body: Data()))
    #expect(pull.status == 410, "the feed refuses the same token (it would never list n1's delete again): got \(pull.status)")

    // After a resync from the beginning the device's token is taken, below the horizon or not.
    let fresh = try Self.token(of: service)
    let taken = try Self.push([Self.edit("d", "n1", base: 1), Self.edit("e", "n2", base: 1)], since: fresh, to: service)
    let results = taken.body["results"] as? [[String: Any]] ?? []
    #expect(
      taken.status == 200 && results.map { $0["status"] as? Int } == [410, 200],
      "from a resynced token, the edit of collected n1 (made on v1) should be answered 410, as for a deleted note, and n2's applied: \(taken.status) \(taken.body)"
    )
    #expect(service.notes.map(\.id) == ["n2"], "n1 must not come back: the server holds \(service.notes.map(\.id))")
  }

  @Test func aDeviceAwayAcrossACollectionResyncsBeforeItPushesAndNeverBringsTheNoteBack() async throws {
    try await withTemporaryDirectory("sync-collected") { folder in
      let service = SyncService()
      let tablet = try Self.engine(folder.file("tablet"), InProcessServer(service: service))
      try await tablet.edit("n1", set: ["title": "shopping"])
      try await tablet.edit("n2", set: ["title": "trip"])
      try await tablet.sync()
      let wire = ScriptedSyncTransport(server: InProcessServer(service: service))
      let phone = try Self.engine(folder.file("phone"), wire)
      try await phone.sync()

      // The phone goes into a drawer with two unsent edits; meanwhile the tablet deletes n1 and the
      // server collects its tombstone.
      try await phone.edit("n1", set: ["body": "milk"])
      try await phone.edit("n2", set: ["body": "tickets"])
      try await tablet.delete("n1")
      try await tablet.sync()
      #expect(service.collectTombstones() == ["n1"], "the server should hold n1's tombstone to collect")
      let sentBefore = wire.requests.count

      do {
        try await phone.sync()
      } catch {
        Issue.record("a push refused past the tombstone horizon is answered with a resync, then a push: sync() should not fail, but threw \(error)")
      }
      let requests = Array(wire.requests.dropFirst(sentBefore))
      let pushes = requests.indices.filter { requests[$0].httpMethod == "POST" }
      let described = requests.map { $0.httpMethod == "POST" ? "push" : "pull since=\($0.query("since") ?? "(none)")" }
      #expect(pushes.count == 2, "the first push is refused (410) and the second, after the resync, is taken: \(described)")
      if pushes.count >= 2 {
        let between = requests[(pushes[0] + 1)..<pushes[1]]
        #expect(
          between.first?.httpMethod == "GET" && between.first?.query("since") == nil && between.allSatisfy { $0.httpMethod == "GET" },
          "after the 410 the phone must resync from the beginning (a pull without since) before it pushes again: \(described)")
      }
      #expect(
        service.notes.first { $0.id == "n1" } == nil,
        "n1 was deleted on the tablet and its tombstone collected: it must not come back; the server holds \(service.notes)")
      #expect(
        service.notes.first { $0.id == "n2" }?.fields["body"] == "tickets", "the phone's edit of n2, which still exists, goes out after the resync")
      let pending = await phone.pending
      #expect(pending.isEmpty, "the edit of the collected note is answered 410 and dropped, as any edit of a deleted note: \(pending)")
      #expect(await phone.refused.isEmpty, "an edit of a deleted note is dropped, not set aside as refused")
      let shown = await phone.notes()
      #expect(shown["n1"] == nil && shown["n2"]?.fields["body"] == "tickets", "the phone shows n2 with its edit and no n1: \(shown)")

      try await tablet.sync()
      #expect(await tablet.notes().mapValues(\.fields) == shown.mapValues(\.fields), "both devices show the same notes")
    }
  }
}
