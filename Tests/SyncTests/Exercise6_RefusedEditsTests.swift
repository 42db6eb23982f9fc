import Foundation
import PracticeServer
import Testing
import Workbook
import WorkbookTesting

@testable import Sync

/// An edit the server refuses for good (400, 413, 422) must not stop sync: it is set aside with
/// its reason where the app can show it, and every other edit and the pull carry on. The limits
/// the protocol states are checked on the device, before an edit is queued.
@Suite("Exercise 6 — The engine (refused edits)", .timeLimit(.minutes(1)))
struct Exercise6_RefusedEditsTests {
  /// An engine in `directory` talking to `service` in-process.
  static func engine(_ directory: URL, _ service: SyncService, disk: any FileSystem = RealFileSystem()) throws -> SyncEngine {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return try SyncEngine(directory: directory, transport: InProcessServer(service: service), baseURL: InProcessServer.baseURL, fileSystem: disk)
  }

  @Test func anEditRefusedForGoodIsSetAsideAndTheRestSyncs() async throws {
    try await withTemporaryDirectory("sync-refused") { folder in
      // A server that tightened its cap on values to 16 bytes after the app shipped: the app's
      // own check (4096) lets the long body through, and the server refuses it for good (413).
      let service = SyncService(maximumValueBytes: 16)
      let tablet = try Self.engine(folder.file("tablet"), service)
      try await tablet.edit("n3", set: ["title": "from the tablet"])
      try await tablet.sync()

      let phone = try Self.engine(folder.file("phone"), service)
      try await phone.edit("n1", set: ["body": "a body longer than sixteen bytes"])
      try await phone.edit("n2", set: ["title": "short"])
      try await phone.edit("n4", set: ["title": "another title over sixteen bytes"])
      let queued = await phone.pending
      let refusedEdit = try #require(queued.first)
      do {
        try await phone.sync()
      } catch {
        Issue.record(
          "the server refused n1's edit for good (413) and answered n2's (200): that is not a failed sync, but sync() threw \(error)")
      }
      #expect(!service.applied(refusedEdit.id), "the server refused n1's edit: it should not have been applied")
      #expect(
        service.notes.map(\.id) == ["n2", "n3"], "n2's edit came after the refused one in the same batch and should be applied: \(service.notes.map(\.id))")
      #expect(await phone.notes()["n3"]?.title == "from the tablet", "the pull should carry on after a refused edit: the phone should show the tablet's n3")
      let pending = await phone.pending
      #expect(pending.isEmpty, "the refused edit should leave the outbox (sending it again gets 413 again): \(pending)")
      let refused = await phone.refused
      #expect(
        refused.map(\.mutation) == [queued[0], queued[2]] && refused.map(\.status) == [413, 413],
        "n1's and n4's edits should be set aside as they were sent, oldest first, each with the server's status 413: \(refused)")
      #expect(refused.first?.reason.contains("16") == true, "it should keep the server's reason, which names the 16-byte cap: \(refused)")
      let relaunched = try Self.engine(folder.file("phone"), service)
      let found = await relaunched.refused
      #expect(found == refused, "the refused edits are on disk: a relaunch should find them: \(found)")
      try await relaunched.discardRefused(ids: [refusedEdit.id])
      let left = await relaunched.refused
      #expect(left.map(\.mutation) == [queued[2]], "discardRefused should forget the edit the user discarded and only it: \(left)")
      let reopened = try Self.engine(folder.file("phone"), service)
      #expect(await reopened.refused == left, "and the discard should reach the disk")
    }
  }

  @Test func aRefusedEditIsNeverLostToACrashWhileItIsSetAside() async throws {
    for crashAfter in 0..<4 {
      try await withTemporaryDirectory("sync-refused-crash") { folder in
        let service = SyncService(maximumValueBytes: 8)
        let disk = MemoryDisk()
        let phone = try Self.engine(folder.url, service, disk: disk)
        try await phone.edit("n1", set: ["title": "longer than eight"])
        let edit = try #require(await phone.pending.first)
        disk.writesBeforeCrash = crashAfter
        _ = try? await phone.sync()
        let relaunched = try Self.engine(folder.url, service, disk: disk.relaunched())
        let inOutbox = await relaunched.pending.contains(edit)
        let setAside = await relaunched.refused.map(\.mutation).contains(edit)
        let kept = inOutbox || setAside
        #expect(kept, "a crash after \(crashAfter) writes of the sync lost the refused edit: it is neither in the outbox nor set aside")
        try await relaunched.sync()
        let refused = await relaunched.refused.map(\.mutation)
        let pending = await relaunched.pending
        #expect(
          refused == [edit] && pending.isEmpty,
          "after the relaunch's sync the edit should be set aside once and out of the outbox: set aside \(refused), in the outbox \(pending)")
      }
    }
  }

  @Test func anEditAtEachLimitIsTakenAndOneOverIsRefusedBeforeItIsQueued() async throws {
    try await withTemporaryDirectory("sync-limits") { folder in
      let service = SyncService()
      let phone = try Self.engine(folder.url, service)
      let longestID = String(repeating: "a", count: 63) + "-"
      let longestName = String(repeating: "n", count: 63) + "_"
      let thirtyTwo = Dictionary(uniqueKeysWithValues: (0..<32).map { ("f_\($0)", "v") })
      let largest = String(repeating: "é", count: 2_048)  // 4096 bytes of UTF-8
      try await phone.edit(longestID, set: ["body": largest])
      try await phone.edit("n2", set: thirtyTwo)
      try await phone.edit("n3", set: [longestName: "v"])
      try await phone.delete("n4")
      try await phone.sync()
      let refused = await phone.refused
      #expect(
        service.appliedCount == 4 && refused.isEmpty,
        "edits at every limit (a 64-character note id, 4096 bytes, 32 fields, a 64-character name) are the server's to take: \(service.appliedCount) applied, \(refused.count) refused"
      )

      var thirtyThree = thirtyTwo
      thirtyThree["f_32"] = "v"
      let overLimit: [(note: String, set: [String: String], what: String)] = [
        (longestID + "a", ["title": "t"], "a 65-character note id"), ("", ["title": "t"], "an empty note id"), ("n/1", ["title": "t"], "a slash in a note id"),
        ("n5", ["body": largest + "x"], "a value of 4097 bytes"), ("n5", thirtyThree, "33 fields"),
        ("n5", [longestName + "n": "v"], "a 65-character field name"), ("n5", ["a-b": "v"], "a hyphen in a field name"),
        ("n5", [:], "an edit that sets nothing"),
      ]
      for (note, set, what) in overLimit {
        await Self.expectInvalid(what, pending: phone) { () async throws(SyncError) in try await phone.edit(note, set: set) }
      }
      await Self.expectInvalid("a delete of a 65-character note id", pending: phone) { () async throws(SyncError) in
        try await phone.delete(longestID + "a")
      }
    }
  }

  /// `attempt` should throw `.invalidEdit` and queue nothing.
  static func expectInvalid(
    _ what: String, pending engine: SyncEngine, sourceLocation: SourceLocation = #_sourceLocation, _ attempt: () async throws(SyncError) -> Void
  ) async {
    let before = await engine.pending
    do throws(SyncError) {
      try await attempt()
      Issue.record("\(what) breaks a limit the protocol states: the edit should throw .invalidEdit, but it was taken", sourceLocation: sourceLocation)
    } catch {
      if case .invalidEdit(let text) = error {
        #expect(!text.isEmpty, "\(what): .invalidEdit should say which limit", sourceLocation: sourceLocation)
      } else {
        Issue.record("\(what): the edit should throw .invalidEdit, got \(error)", sourceLocation: sourceLocation)
      }
    }
    let after = await engine.pending
    #expect(after == before, "\(what): a refused edit should not be queued", sourceLocation: sourceLocation)
  }
}
