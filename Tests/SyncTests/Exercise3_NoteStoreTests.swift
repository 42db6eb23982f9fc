import Foundation
import Testing
import Workbook
import WorkbookTesting

@testable import Sync

@Suite("Exercise 3 — Pull", .timeLimit(.minutes(1)))
struct Exercise3_NoteStoreTests {
  static func note(_ id: String, _ version: Int, _ fields: [String: String] = [:]) -> NoteRecord {
    NoteRecord(id: id, version: version, fields: fields)
  }

  static func tombstone(_ id: String, _ version: Int) -> NoteRecord {
    NoteRecord(id: id, version: version, deleted: true)
  }

  static func describe(_ records: [String: NoteRecord]) -> String {
    "[" + records.values.sorted { $0.id < $1.id }.map { "\($0.id) v\($0.version)\($0.deleted ? " deleted" : "")" }.joined(separator: ", ") + "]"
  }

  @Test func anAbsentFileIsAnEmptyCopyWithNoToken() async throws {
    try await withTemporaryDirectory("notes") { directory in
      let store = try NoteStore(file: directory.file("notes.json"))
      #expect(await store.records.isEmpty, "no file yet: the store should open with no notes")
      #expect(await store.token == nil, "no file yet: there is no token, so the first pull starts from the beginning")
    }
  }

  @Test func aPageAndItsTokenSurviveARelaunch() async throws {
    try await withTemporaryDirectory("notes") { directory in
      let file = directory.file("notes.json")
      let page = [Self.note("a", 1, ["title": "A", "color": "red"]), Self.tombstone("b", 4)]
      try await NoteStore(file: file).apply(page, token: "t1")
      let relaunched = try NoteStore(file: file)
      #expect(await relaunched.token == "t1", "after a relaunch the token should be t1, the one saved with the page")
      let relaunchedRecords = await relaunched.records
      #expect(
        relaunchedRecords == ["a": page[0], "b": page[1]],
        "after a relaunch the notes should be exactly the page applied, fields this app does not know (color) and tombstones included; found \(Self.describe(relaunchedRecords))"
      )
    }
  }

  @Test func aCrashAtAnyWriteKeepsTheTokenWithItsChanges() async throws {
    let pages: [(changes: [NoteRecord], token: String)] = [
      ([Self.note("a", 1, ["title": "A"]), Self.note("b", 1, ["title": "B"])], "t1"),
      ([Self.note("a", 2, ["title": "A2"]), Self.note("c", 1, ["title": "C"])], "t2"),
      ([Self.tombstone("b", 2), Self.note("d", 1, ["title": "D"])], "t3"),
    ]
    // Enough crash points to fall between any two writes, even for code that writes twice a page.
    for crashAfter in 0...(pages.count * 2) {
      try await withTemporaryDirectory("notes") { directory in
        let file = directory.file("notes.json")
        let disk = FaultyDisk()
        disk.writesBeforeCrash = crashAfter
        let store = try NoteStore(file: file, fileSystem: disk)
        var acknowledgedToken: String? = nil
        var acknowledgedRecords: [String: NoteRecord] = [:]
        for page in pages {
          do {
            try await store.apply(page.changes, token: page.token)
          } catch {
            break
          }
          acknowledgedToken = page.token
          for change in page.changes { acknowledgedRecords[change.id] = change }
        }
        let heldToken = await store.token
        let heldRecords = await store.records
        #expect(
          heldToken == acknowledgedToken && heldRecords == acknowledgedRecords,
          "a crash after \(crashAfter) writes: the store should still hold what its last successful apply left, token \(acknowledgedToken ?? "nil") with \(Self.describe(acknowledgedRecords)); it held token \(heldToken ?? "nil") with \(Self.describe(heldRecords))"
        )
        let relaunched = try NoteStore(file: file)
        let token = await relaunched.token
        let records = await relaunched.records
        #expect(
          token == acknowledgedToken && records == acknowledgedRecords,
          "a crash after \(crashAfter) writes: a relaunch should find the last page apply acknowledged, token \(acknowledgedToken ?? "nil") with \(Self.describe(acknowledgedRecords)); it found token \(token ?? "nil") with \(Self.describe(records)). A token saved apart from its changes makes the next pull skip changes the disk never got"
        )
      }
    }
  }

  @Test func aTombstoneIsKeptAndAStaleCopyDoesNotReviveTheNote() async throws {
    try await withTemporaryDirectory("notes") { directory in
      let file = directory.file("notes.json")
      let store = try NoteStore(file: file)
      try await store.apply([Self.note("a", 1, ["title": "A"])], token: "t1")
      try await store.apply([Self.tombstone("a", 2)], token: "t2")
      let records = await store.records
      #expect(
        records["a"] == Self.tombstone("a", 2),
        "a deleted note should be kept as its tombstone (version 2, deleted), not removed: found \(Self.describe(records))")
      // A push answered late, or a replayed page, brings the note as it was before the delete.
      try await store.apply([Self.note("a", 1, ["title": "A"])])
      let afterStaleCopy = await store.records
      #expect(
        afterStaleCopy["a"] == Self.tombstone("a", 2),
        "a copy at version 1 arrived after the tombstone at version 2: the note should stay deleted; found \(Self.describe(afterStaleCopy))")
      #expect(try await NoteStore(file: file).records["a"]?.deleted == true, "after a relaunch note a should still be a tombstone")
    }
  }

  @Test func aChangeAppliesOnlyAboveTheVersionHeld() async throws {
    try await withTemporaryDirectory("notes") { directory in
      let store = try NoteStore(file: directory.file("notes.json"))
      let held = Self.note("a", 3, ["title": "v3"])
      try await store.apply([held])
      try await store.apply([Self.note("a", 2, ["title": "v2"])])
      #expect(await store.records["a"] == held, "a change at version 2 is older than the held version 3: it should be ignored")
      try await store.apply([Self.note("a", 3, ["title": "another v3"])])
      #expect(
        await store.records["a"] == held,
        "a change at version 3, the version held, is no newer: it should be ignored (only a higher version replaces the copy)")
      let newer = Self.note("a", 4, ["title": "v4"])
      try await store.apply([newer])
      #expect(await store.records["a"] == newer, "a change at version 4, one above the held 3, should replace the copy")
    }
  }

  @Test func aFailedWriteChangesNothing() async throws {
    try await withTemporaryDirectory("notes") { directory in
      let file = directory.file("notes.json")
      let disk = FaultyDisk()
      let store = try NoteStore(file: file, fileSystem: disk)
      let first = Self.note("a", 1, ["title": "A"])
      try await store.apply([first], token: "t1")
      disk.freeBytes = 0
      do {
        try await store.apply([Self.note("b", 1, ["title": "B"])], token: "t2")
        Issue.record("apply on a full disk returned: it should throw SyncError.disk")
      } catch {
        guard case SyncError.disk = error else {
          Issue.record("apply on a full disk should throw SyncError.disk, not \(error)")
          return
        }
      }
      let token = await store.token
      #expect(token == "t1", "the page did not reach the disk, so the token should still be t1, not \(token ?? "nil")")
      let records = await store.records
      #expect(records == ["a": first], "the page did not reach the disk, so note b should not be held: found \(Self.describe(records))")
      let relaunched = try NoteStore(file: file)
      #expect(await relaunched.token == "t1", "after a relaunch the token should still be t1")
      #expect(await relaunched.records == ["a": first], "after a relaunch the store should hold note a alone")
    }
  }

  @Test func applyWithoutATokenKeepsTheTokenHeld() async throws {
    try await withTemporaryDirectory("notes") { directory in
      let file = directory.file("notes.json")
      let store = try NoteStore(file: file)
      try await store.apply([Self.note("a", 1)], token: "t1")
      // What a push answers with: a record, and no place in the change feed.
      try await store.apply([Self.note("a", 2, ["title": "pushed"])])
      #expect(
        await store.token == "t1",
        "applying a record without a token (a push's answer) should keep the token t1; without it the next pull starts from the beginning")
      #expect(try await NoteStore(file: file).token == "t1", "after a relaunch the token should still be t1")
    }
  }

  @Test func aResyncIsBuiltBesideTheCopyAndSwappedInWithItsLastPage() async throws {
    try await withTemporaryDirectory("notes") { directory in
      let file = directory.file("notes.json")
      let disk = CountingDisk()
      let store = try NoteStore(file: file, fileSystem: disk)
      try await store.apply([Self.note("a", 1), Self.tombstone("b", 3), Self.note("c", 7)], token: "t9")
      let held = await store.records
      try await store.beginResync()
      try await store.applyResyncPage([Self.note("a", 2)], token: "r1", last: false)
      for (copy, when) in [(store, "during the resync"), (try NoteStore(file: file), "after a relaunch during the resync")] {
        let records = await copy.records
        let token = await copy.token
        let resyncing = await copy.isResyncing
        let resyncToken = await copy.resyncToken
        #expect(
          records == held && token == "t9",
          "\(when) the screen's copy should stay whole until the new one is: held \(Self.describe(records)) and token \(token ?? "nil"), not \(Self.describe(held)) and t9"
        )
        #expect(
          resyncing && resyncToken == "r1",
          "\(when) the resync should be under way with its own token r1 (so it can carry on): resyncing \(resyncing), token \(resyncToken ?? "nil")")
      }
      let before = disk.writes
      try await store.applyResyncPage([Self.note("d", 1)], token: "r2", last: true)
      #expect(disk.writes == before + 1, "the last page and the swap should be one write, so no crash can leave half of each: \(disk.writes - before) writes")
      let expected = [Self.note("a", 2), Self.note("d", 1)]
      for (copy, when) in [(store, "after the last page"), (try NoteStore(file: file), "after a relaunch")] {
        let records = await copy.records
        let token = await copy.token
        let resyncing = await copy.isResyncing
        #expect(
          records.values.sorted { $0.id < $1.id } == expected && token == "r2" && !resyncing,
          "\(when) the new copy should replace the old one whole (b and c are gone, a is the server's v2) with the resync's token r2: held \(Self.describe(records)), token \(token ?? "nil"), resyncing \(resyncing)"
        )
      }
    }
  }

  @Test func aCorruptNotesFileIsADiskError() async throws {
    try await withTemporaryDirectory("notes") { directory in
      let file = directory.file("notes.json")
      try Data("{\"token\":\"t1\",\"records\":{\"a\":".utf8).write(to: file)
      do {
        let store = try NoteStore(file: file)
        Issue.record(
          "a truncated notes file opened with \(Self.describe(await store.records)): it should throw SyncError.disk, not open empty as if nothing was ever pulled"
        )
      } catch {
        guard case SyncError.disk = error else {
          Issue.record("a truncated notes file should throw SyncError.disk, not \(error)")
          return
        }
      }
      let disk = FaultyDisk()
      try FileManager.default.removeItem(at: file)
      try await NoteStore(file: file).apply([Self.note("a", 1)], token: "t1")
      disk.makeUnreadable(file)
      do {
        _ = try NoteStore(file: file, fileSystem: disk)
        Issue.record("a notes file that cannot be read (EIO) opened: it should throw SyncError.disk")
      } catch {
        guard case SyncError.disk = error else {
          Issue.record("an unreadable notes file should throw SyncError.disk, not \(error)")
          return
        }
      }
    }
  }
}
