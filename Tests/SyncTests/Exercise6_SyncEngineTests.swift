import Foundation
import PracticeServer
import Synchronization
import Testing
import Workbook
import WorkbookTesting

@testable import Sync

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Two or more engines on real folders syncing through the practice server over `URLSession`.
@Suite("Exercise 6 — The engine (practice server)", .timeLimit(.minutes(1)))
struct Exercise6_SyncEngineTests {
  /// A device: an engine on a folder of its own, talking to `server` over the loopback.
  static func device(
    _ name: String, in folder: TemporaryDirectory, server: PracticeServer, disk: any FileSystem = RealFileSystem()
  ) throws -> SyncEngine {
    let directory = folder.file(name)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return try SyncEngine(directory: directory, transport: URLSessionSyncTransport(), baseURL: server.baseURL, fileSystem: disk)
  }

  @Test func anEditReachesAnotherDeviceThroughTheServer() async throws {
    let server = try PracticeServer.started()
    defer { server.stop() }
    try await withTemporaryDirectory("sync-engine") { folder in
      let phone = try Self.device("phone", in: folder, server: server)
      let tablet = try Self.device("tablet", in: folder, server: server)
      try await phone.edit("n1", set: ["title": "Groceries", "body": "eggs"])
      try await phone.sync()
      try await tablet.sync()
      #expect(
        await tablet.notes()["n1"]?.fields == ["title": "Groceries", "body": "eggs"],
        "the phone pushed n1 and the tablet pulled after it, so the tablet should show it")
      #expect(await phone.pending.isEmpty, "the server applied the phone's edit (200), so it should have left the outbox")
      #expect(await phone.confirmed["n1"]?.version == 1, "the phone should hold the server's copy of n1 at version 1 after its push")
    }
  }

  @Test func independentFieldsFromTwoDevicesBothSurvive() async throws {
    let server = try PracticeServer.started()
    defer { server.stop() }
    try await withTemporaryDirectory("sync-engine") { folder in
      let phone = try Self.device("phone", in: folder, server: server)
      let tablet = try Self.device("tablet", in: folder, server: server)
      try await phone.edit("n1", set: ["title": "Trip", "body": "passport"])
      try await phone.sync()
      try await tablet.sync()
      // Both edit n1 at version 1: the phone its title, the tablet its body.
      try await phone.edit("n1", set: ["title": "Trip to Lisbon"])
      try await tablet.edit("n1", set: ["body": "passport, charger"])
      try await phone.sync()
      try await tablet.sync()  // 412: rebased on version 2, sent again
      try await phone.sync()
      let expected = ["title": "Trip to Lisbon", "body": "passport, charger"]
      #expect(
        server.sync.notes.first?.fields == expected,
        "the tablet's push met a newer n1 (412); rebasing keeps its body on top of the phone's title, so the server should hold both")
      #expect(await phone.notes()["n1"]?.fields == expected, "the phone should show both edits after pulling")
      #expect(await tablet.notes()["n1"]?.fields == expected, "the tablet should show both edits")
      #expect(await tablet.pending.isEmpty, "the rebased edit was applied, so the tablet's outbox should be empty")
    }
  }

  @Test func theSameFieldEndsWithTheLaterPushNotTheLaterClock() async throws {
    let server = try PracticeServer.started()
    defer { server.stop() }
    try await withTemporaryDirectory("sync-engine") { folder in
      let phone = try Self.device("phone", in: folder, server: server)
      let tablet = try Self.device("tablet", in: folder, server: server)
      try await phone.edit("n1", set: ["title": "Draft"])
      try await phone.sync()
      try await tablet.sync()
      try await tablet.edit("n1", set: ["title": "Tablet's title"])
      try await phone.edit("n1", set: ["title": "Phone's title"])
      try await phone.sync()
      try await tablet.sync()  // pushed last: the server's order puts it on top
      try await phone.sync()
      #expect(server.sync.notes.first?.fields["title"] == "Tablet's title", "the tablet's edit reached the server last, so it should win")
      #expect(await phone.notes()["n1"]?.title == "Tablet's title", "the phone should end with the server's title")
    }
  }

  @Test func anEditOfANoteDeletedElsewhereIsDropped() async throws {
    let server = try PracticeServer.started()
    defer { server.stop() }
    try await withTemporaryDirectory("sync-engine") { folder in
      let phone = try Self.device("phone", in: folder, server: server)
      let tablet = try Self.device("tablet", in: folder, server: server)
      try await phone.edit("n1", set: ["title": "Old"])
      try await phone.sync()
      try await tablet.sync()
      try await phone.delete("n1")
      try await phone.sync()
      try await tablet.edit("n1", set: ["body": "too late"])
      try await tablet.sync()  // 410: a delete wins
      #expect(await tablet.pending.isEmpty, "the server answered 410 (deleted), so the edit should leave the tablet's outbox")
      #expect(await tablet.notes()["n1"] == nil, "n1 is deleted on the server, so the tablet should not show it")
      #expect(server.sync.notes.first?.deleted == true, "the server should still hold n1's tombstone")
      #expect(server.sync.appliedCount == 2, "the server applied the create and the delete only; the edit of a deleted note must not apply")
    }
  }

  @Test func aRelaunchCarriesOnWithTheSameEdits() async throws {
    let server = try PracticeServer.started()
    defer { server.stop() }
    try await withTemporaryDirectory("sync-engine") { folder in
      let first = try Self.device("phone", in: folder, server: server)
      try await first.edit("n1", set: ["title": "Kept"])
      let before = await first.pending
      let relaunched = try Self.device("phone", in: folder, server: server)
      #expect(await relaunched.pending == before, "a relaunch should find the very same edits, ids included, in the outbox")
      try await relaunched.sync()
      #expect(server.sync.appliedCount == 1, "one edit, applied once")
      #expect(await relaunched.notes()["n1"]?.title == "Kept")
    }
  }

  @Test func aFailedOutboxWriteLeavesTheScreenAsItWas() async throws {
    let server = try PracticeServer.started()
    defer { server.stop() }
    try await withTemporaryDirectory("sync-engine") { folder in
      let disk = FaultyDisk()
      let phone = try Self.device("phone", in: folder, server: server, disk: disk)
      disk.freeBytes = 0
      await #expect(throws: SyncError.self, "the disk is full, so the edit cannot be saved and edit(_:set:) should throw") {
        try await phone.edit("n1", set: ["title": "Lost?"])
      }
      #expect(await phone.notes().isEmpty, "an edit that did not reach the disk must not reach the screen")
      #expect(await phone.pending.isEmpty)
    }
  }

  @Test func aFailedPushFailsTheSyncAndKeepsTheEdit() async throws {
    let server = try PracticeServer.started()
    defer { server.stop() }
    try await withTemporaryDirectory("sync-engine") { folder in
      let phone = try Self.device("phone", in: folder, server: server)
      try await phone.edit("n1", set: ["title": "Later"])
      server.chaos.failNext(1, status: 503, retryAfter: nil)
      await #expect(throws: SyncError.server(status: 503), "the push got 503, so sync() should throw it (the scheduler backs off on a throw)") {
        try await phone.sync()
      }
      #expect(await phone.pending.count == 1, "the push failed, so the edit should still be in the outbox")
      try await phone.sync()
      #expect(await phone.pending.isEmpty)
    }
  }

  @Test func unknownFieldsSurviveAnEditOnThisDevice() async throws {
    let server = try PracticeServer.started()
    defer { server.stop() }
    try await withTemporaryDirectory("sync-engine") { folder in
      let newer = try Self.device("newer", in: folder, server: server)
      let older = try Self.device("older", in: folder, server: server)
      try await newer.edit("n1", set: ["title": "Pinned", "color": "red"])
      try await newer.sync()
      try await older.sync()
      try await older.edit("n1", set: ["title": "Renamed"])
      try await older.sync()
      #expect(server.sync.notes.first?.fields == ["title": "Renamed", "color": "red"], "this app does not know color, but must keep it")
      #expect(await older.notes()["n1"]?.fields["color"] == "red", "the older app should keep the color in its copy too")
    }
  }

  @Test func laterEditsOfANoteFollowTheVersionItsEarlierEditGot() async throws {
    let server = try PracticeServer.started()
    defer { server.stop() }
    try await withTemporaryDirectory("sync-engine") { folder in
      let phone = try Self.device("phone", in: folder, server: server)
      try await phone.edit("n1", set: ["title": "One"])
      try await phone.edit("n1", set: ["body": "two"])
      try await phone.edit("n1", set: ["color": "three"])
      try await phone.sync()
      let answers = server.requestLog.filter { $0.path == "/v1/sync/push" }.count
      #expect(
        answers == 3,
        """
        three edits of one note made on this device go out one per round, each on the version the one before it got: \
        3 pushes, with no 412 round trip; this sync made \(answers)
        """)
      #expect(server.sync.notes.first?.version == 3)
    }
  }

  @Test func anEditOfANoteTheDeviceHoldsGoesOutOnItsVersionInOnePush() async throws {
    let server = try PracticeServer.started()
    defer { server.stop() }
    try await withTemporaryDirectory("sync-engine") { folder in
      let phone = try Self.device("phone", in: folder, server: server)
      try await phone.edit("n1", set: ["title": "First"])
      try await phone.sync()
      let before = server.requestLog.filter { $0.path == "/v1/sync/push" }.count
      try await phone.edit("n1", set: ["title": "Second"])
      #expect(await phone.pending.first?.base == 1, "the phone holds n1 at version 1, so the edit should be made on version 1")
      try await phone.sync()
      let pushes = server.requestLog.filter { $0.path == "/v1/sync/push" }.count - before
      #expect(pushes == 1, "an edit made on the version the server has applies in one push, with no 412 round trip; this sync made \(pushes)")
    }
  }

  @Test func anEditStaysOnScreenWhenThePullAfterItsPushFails() async throws {
    let server = try PracticeServer.started()
    defer { server.stop() }
    try await withTemporaryDirectory("sync-engine") { folder in
      let phone = try Self.device("phone", in: folder, server: server)
      try await phone.edit("n1", set: ["title": "Mine"])
      server.chaos.only(pathPrefix: "/v1/sync/changes")
      server.chaos.failNext(1, status: 503, retryAfter: nil)
      await #expect(throws: SyncError.server(status: 503), "the pull got 503, so the sync should fail") { try await phone.sync() }
      #expect(await phone.pending.isEmpty, "the push was applied, so the edit should have left the outbox")
      #expect(
        await phone.notes()["n1"]?.title == "Mine",
        "the push's answer is the server's copy of n1: kept as the confirmed copy, the edit stays on screen even though the pull failed")
    }
  }

  @Test func aFieldEditedAgainDuringAConflictedPushIsNotSentAgain() async throws {
    let service = SyncService()
    let held = HeldReplyTransport(service: service)
    try await withTemporaryDirectory("sync-engine") { folder in
      let other = try SyncEngine(
        directory: try Self.folder("other", in: folder), transport: InProcessServer(service: service), baseURL: InProcessServer.baseURL)
      let phone = try SyncEngine(directory: try Self.folder("phone", in: folder), transport: held, baseURL: InProcessServer.baseURL)
      try await other.edit("n1", set: ["title": "Plan", "body": "a"])
      try await other.sync()
      try await phone.sync()  // a pull only: the phone holds n1 at version 1
      try await other.edit("n1", set: ["color": "blue"])
      try await other.sync()  // n1 is at version 2 now
      try await phone.edit("n1", set: ["title": "Old title", "body": "b"])
      let sync = Task { try await phone.sync() }
      #expect(await held.gate.arrivals(1), "the phone's push should reach the server")
      // The 412 for the edit made on version 1 is on its way back; the user edits the title again,
      // which compacts "Old title" out of the edit in flight.
      try await phone.edit("n1", set: ["title": "New title"])
      held.gate.open()
      try await sync.value
      let sentAfter = held.pushed.dropFirst().flatMap(\.mutations).compactMap { $0.set["title"] }
      #expect(
        !sentAfter.contains("Old title"),
        """
        the title was edited again while the 412 was on its way, so the edit to rebase is the outbox's copy, which no \
        longer sets the title; the pushes after the 412 sent these titles: \(sentAfter)
        """)
      #expect(service.notes.first?.fields == ["title": "New title", "body": "b", "color": "blue"])
    }
  }

  @Test func aRebasedEditKeepsItsPlaceAheadOfItsNotesLaterEdits() async throws {
    let service = SyncService()
    let recorder = HeldReplyTransport(service: service)
    recorder.gate.open()  // nothing held: the transport only records what the phone pushes
    try await withTemporaryDirectory("sync-engine") { folder in
      let other = try SyncEngine(
        directory: try Self.folder("other", in: folder), transport: InProcessServer(service: service), baseURL: InProcessServer.baseURL)
      let phone = try SyncEngine(directory: try Self.folder("phone", in: folder), transport: recorder, baseURL: InProcessServer.baseURL)
      try await other.edit("n1", set: ["title": "Plan"])
      try await other.sync()
      try await phone.sync()  // a pull only: the phone holds n1 at version 1
      try await other.edit("n1", set: ["color": "blue"])
      try await other.sync()  // n1 is at version 2 now
      try await phone.edit("n1", set: ["title": "First"])
      try await phone.edit("n1", set: ["body": "Second"])
      try await phone.sync()
      let sent = recorder.pushed.flatMap(\.mutations).map { $0.set.keys.sorted().joined(separator: "+") }
      #expect(
        Array(sent.prefix(2)) == ["title", "title"],
        """
        the title edit, made before the body edit, met a 412: rebased, it keeps its place in line and goes out again \
        before the body edit; the phone's pushes set, in order: \(sent)
        """)
      #expect(service.notes.first?.fields == ["title": "First", "body": "Second", "color": "blue"])
    }
  }

  @Test func aNoteAnotherDeviceKeepsChangingHoldsTheSyncForEightRoundsAtMost() async throws {
    let service = SyncService()
    let rival = RivalEditTransport(service: service, note: "n1", rivalPushes: 20)
    try await withTemporaryDirectory("sync-engine") { folder in
      let other = try SyncEngine(
        directory: try Self.folder("other", in: folder), transport: InProcessServer(service: service), baseURL: InProcessServer.baseURL)
      try await other.edit("n1", set: ["title": "Plan"])
      try await other.sync()
      let phone = try SyncEngine(directory: try Self.folder("phone", in: folder), transport: rival, baseURL: InProcessServer.baseURL)
      try await phone.sync()  // a pull only: the phone holds n1 at version 1
      try await phone.edit("n1", set: ["title": "Mine"])
      try await phone.sync()
      #expect(
        rival.pushes == SyncEngine.maximumPushRounds,
        """
        another device changed n1 before each of the phone's pushes, so each came back 412; one sync should stop after \
        SyncEngine.maximumPushRounds (\(SyncEngine.maximumPushRounds)) rounds and pull; it pushed \(rival.pushes) times
        """)
      #expect(rival.pulls == 2, "both syncs should end with a pull; \(rival.pulls) pulls were sent")
      let pending = await phone.pending
      #expect(
        pending.count == 1 && pending.first?.base == 9,
        "the edit stays in the outbox, rebased on version 9 (the 8th change by the other device) for the next sync; the outbox holds \(pending.count) edits, bases \(pending.map(\.base))"
      )
    }
  }

  static func folder(_ name: String, in folder: TemporaryDirectory) throws -> URL {
    let directory = folder.file(name)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }
}

/// The in-process server, with another device that changes `note` just before each of the first
/// `rivalPushes` pushes sent through it arrives, so each of those pushes meets a newer note.
final class RivalEditTransport: SyncTransport {
  let server: InProcessServer
  let note: String
  let rivalPushes: Int
  private let counts = Mutex((pushes: 0, pulls: 0))

  init(service: SyncService, note: String, rivalPushes: Int) {
    server = InProcessServer(service: service)
    self.note = note
    self.rivalPushes = rivalPushes
  }

  /// The pushes and the pulls sent through this transport (the other device's edits not counted).
  var pushes: Int { counts.withLock { $0.pushes } }
  var pulls: Int { counts.withLock { $0.pulls } }

  func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    let path = request.url?.path ?? ""
    if path.hasSuffix("v1/sync/push") {
      let push = counts.withLock { counts -> Int in
        counts.pushes += 1
        return counts.pushes
      }
      if push <= rivalPushes {
        let version = server.service.notes.first { $0.id == note }?.version ?? 0
        let edit = Mutation(id: "rival-\(push)", note: note, base: version, set: ["body": "rival \(push)"], editedAt: Edits.editedAt)
        var rivalRequest = URLRequest(url: InProcessServer.baseURL.appendingPathComponent("v1/sync/push"))
        rivalRequest.httpMethod = "POST"
        rivalRequest.httpBody = try SyncJSON.encoder().encode(PushBody(mutations: [edit]))
        _ = try await server.send(rivalRequest)
      }
    } else if path.hasSuffix("v1/sync/changes") {
      counts.withLock { $0.pulls += 1 }
    }
    return try await server.send(request)
  }
}
