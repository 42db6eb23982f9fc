import Foundation
import Synchronization
import Testing
import Workbook
import WorkbookTesting

@testable import Sync

@Suite("Exercise 1 — The outbox", .timeLimit(.minutes(1)))
struct Exercise1_OutboxTests {
  /// A device clock reading, in whole seconds so it reads back from JSON as the same `Date`.
  static func at(_ seconds: Int) -> Date { Date(timeIntervalSince1970: TimeInterval(1_800_000_000 + seconds)) }

  static func edit(_ id: String, _ note: String, _ fields: [String: String], base: Int = 1, at seconds: Int = 0) -> Mutation {
    Mutation(id: id, note: note, base: base, set: fields, editedAt: at(seconds))
  }

  static func delete(_ id: String, _ note: String, base: Int = 1, at seconds: Int = 0) -> Mutation {
    Mutation(id: id, note: note, base: base, delete: true, editedAt: at(seconds))
  }

  /// What a relaunch finds: a new outbox on the same file, read through the real disk.
  static func relaunched(_ file: URL) async throws -> [Mutation] {
    try await Outbox(file: file).pending
  }

  static func describe(_ mutations: [Mutation]) -> String {
    "[" + mutations.map { "\($0.id)(\($0.delete ? "delete" : $0.set.keys.sorted().joined(separator: "+")))" }.joined(separator: ", ") + "]"
  }

  @Test func anAbsentFileIsAnEmptyOutbox() async throws {
    try await withTemporaryDirectory("outbox") { directory in
      let outbox = try Outbox(file: directory.file("outbox.json"))
      #expect(await outbox.pending.isEmpty, "no file yet: the outbox should open empty")
    }
  }

  @Test func appendKeepsTheUsersOrderWhenTheClockIsSetBack() async throws {
    try await withTemporaryDirectory("outbox") { directory in
      let file = directory.file("outbox.json")
      let outbox = try Outbox(file: file)
      // The user edits a, then b, then c; between them the device clock was set back twice.
      let edits = [Self.edit("m1", "a", ["title": "1"], at: 500), Self.edit("m2", "b", ["title": "2"], at: 100), Self.edit("m3", "c", ["title": "3"], at: 0)]
      for edit in edits { try await outbox.append(edit) }
      let pending = await outbox.pending
      #expect(
        pending.map(\.id) == ["m1", "m2", "m3"],
        "pending should keep the order of append (m1, m2, m3), not the device clock's (editedAt goes back after m1): got \(pending.map(\.id))")
      #expect(
        try await Self.relaunched(file).map(\.id) == ["m1", "m2", "m3"],
        "after a relaunch the outbox should still be in the order of append, m1, m2, m3")
    }
  }

  @Test func anEditIsOnDiskBeforeAppendReturns() async throws {
    try await withTemporaryDirectory("outbox") { directory in
      let file = directory.file("outbox.json")
      let outbox = try Outbox(file: file)
      let edit = Self.edit("m1", "a", ["title": "Shopping", "color": "red"], base: 3, at: 7)
      try await outbox.append(edit)
      let found = try await Self.relaunched(file)
      #expect(
        found == [edit],
        "an edit the screen showed must be on disk once append returns: after a relaunch the outbox held \(Self.describe(found)), expected [m1(color+title)] with every field as appended"
      )
    }
  }

  @Test func aFullDiskLeavesTheOutboxAsItWas() async throws {
    try await withTemporaryDirectory("outbox") { directory in
      let file = directory.file("outbox.json")
      let disk = FaultyDisk()
      let outbox = try Outbox(file: file, fileSystem: disk)
      let first = Self.edit("m1", "a", ["title": "kept"])
      try await outbox.append(first)
      disk.freeBytes = 0
      await #expect(throws: SyncError.self, "append on a full disk should throw SyncError.disk") {
        try await outbox.append(Self.edit("m2", "b", ["title": "lost"]))
      }
      let pending = await outbox.pending
      #expect(
        pending == [first],
        "the write failed, so pending should not show m2: the screen would show an edit that is not on disk; got \(Self.describe(pending))")
      #expect(try await Self.relaunched(file) == [first], "after the failed append a relaunch should find only m1")
    }
  }

  @Test func aFullDiskIsADiskError() async throws {
    try await withTemporaryDirectory("outbox") { directory in
      let disk = FaultyDisk()
      disk.freeBytes = 0
      let outbox = try Outbox(file: directory.file("outbox.json"), fileSystem: disk)
      do {
        try await outbox.append(Self.edit("m1", "a", ["title": "x"]))
        Issue.record("append on a full disk returned: it should throw SyncError.disk, since the edit is not on disk")
      } catch {
        guard case SyncError.disk = error else {
          Issue.record("append on a full disk should throw SyncError.disk, not \(error)")
          return
        }
      }
    }
  }

  @Test func aHalfWrittenSaveLeavesThePreviousFileWhole() async throws {
    try await withTemporaryDirectory("outbox") { directory in
      let file = directory.file("outbox.json")
      let disk = FaultyDisk()
      let outbox = try Outbox(file: file, fileSystem: disk)
      let first = Self.edit("m1", "a", ["title": "kept"])
      try await outbox.append(first)
      // Room for part of the next file only: a write in place would leave half a JSON array.
      disk.freeBytes = 40
      _ = try? await outbox.append(Self.edit("m2", "b", ["title": String(repeating: "x", count: 200)]))
      do {
        let found = try await Self.relaunched(file)
        #expect(found == [first], "a failed save should leave the previous outbox on disk, [m1]; found \(Self.describe(found))")
      } catch {
        Issue.record(
          "a save that ran out of room left a file that does not read (\(error)): write the file whole with .atomic, so a failure leaves the old one")
      }
    }
  }

  @Test func aCrashAtAnyWriteLosesOnlyEditsNotYetAcknowledged() async throws {
    let edits = [
      Self.edit("m1", "a", ["title": "1"]), Self.edit("m2", "b", ["title": "2"]), Self.edit("m3", "a", ["title": "3"]),
      Self.delete("m4", "b"), Self.edit("m5", "c", ["body": "5"]),
    ]
    // The outbox after each append: m3 sets a's title again and leaves m1 nothing; m4 deletes b.
    let after: [[Mutation]] = [
      [], [edits[0]], [edits[0], edits[1]], [edits[1], edits[2]], [edits[2], edits[3]], [edits[2], edits[3], edits[4]],
    ]
    for crashAfter in 0...edits.count {
      try await withTemporaryDirectory("outbox") { directory in
        let file = directory.file("outbox.json")
        let disk = FaultyDisk()
        disk.writesBeforeCrash = crashAfter
        let outbox = try Outbox(file: file, fileSystem: disk)
        var returned = 0
        for edit in edits {
          do {
            try await outbox.append(edit)
            returned += 1
          } catch {
            break
          }
        }
        let acknowledged = after[returned]
        let pending = await outbox.pending
        #expect(
          pending == acknowledged,
          "with a crash after \(crashAfter) writes, pending should still be the last outbox a successful append left, \(Self.describe(acknowledged)); got \(Self.describe(pending))"
        )
        let found = try await Self.relaunched(file)
        #expect(
          found == acknowledged,
          "with a crash after \(crashAfter) writes, a relaunch should find exactly what the last successful append acknowledged, \(Self.describe(acknowledged)); found \(Self.describe(found))"
        )
      }
    }
  }

  @Test func aSecondSetOfAFieldDropsOnlyThatFieldFromTheEarlierEdit() async throws {
    try await withTemporaryDirectory("outbox") { directory in
      let file = directory.file("outbox.json")
      let outbox = try Outbox(file: file)
      try await outbox.append(Self.edit("m1", "a", ["title": "old", "body": "text"]))
      try await outbox.append(Self.edit("m2", "a", ["title": "new"]))
      let expected = [Self.edit("m1", "a", ["body": "text"]), Self.edit("m2", "a", ["title": "new"])]
      let pending = await outbox.pending
      #expect(
        pending == expected,
        "m2 sets the title again: m1 should lose its title and keep its body (body is still unsent), then m2; got \(Self.describe(pending))"
      )
      #expect(try await Self.relaunched(file) == expected, "the compacted outbox should be the one on disk")
    }
  }

  @Test func anEditLeftWithNothingToSetLeavesTheOutbox() async throws {
    try await withTemporaryDirectory("outbox") { directory in
      let outbox = try Outbox(file: directory.file("outbox.json"))
      try await outbox.append(Self.edit("m1", "a", ["title": "draft"]))
      try await outbox.append(Self.edit("m2", "a", ["title": "draft 2"]))
      try await outbox.append(Self.edit("m3", "a", ["title": "final"]))
      let pending = await outbox.pending
      #expect(
        pending.map(\.id) == ["m3"],
        "each edit set only the title again: m1 and m2 have nothing left to set (the server refuses an edit that sets nothing), so only m3 should stay; got \(Self.describe(pending))"
      )
    }
  }

  @Test func aDeleteDropsEveryEarlierEditOfThatNote() async throws {
    try await withTemporaryDirectory("outbox") { directory in
      let file = directory.file("outbox.json")
      let outbox = try Outbox(file: file)
      try await outbox.append(Self.edit("m1", "a", ["title": "x"]))
      try await outbox.append(Self.edit("m2", "b", ["title": "other note"]))
      try await outbox.append(Self.edit("m3", "a", ["body": "y"]))
      try await outbox.append(Self.delete("m4", "a"))
      let pending = await outbox.pending
      #expect(
        pending.map(\.id) == ["m2", "m4"],
        "deleting note a makes its edits m1 and m3 pointless; note b's m2 stays, then the delete: expected [m2, m4], got \(Self.describe(pending))"
      )
      #expect(try await Self.relaunched(file).map(\.id) == ["m2", "m4"], "the compacted outbox should be the one on disk")
    }
  }

  @Test func anEditAfterADeleteOfTheSameNoteIsDropped() async throws {
    try await withTemporaryDirectory("outbox") { directory in
      let file = directory.file("outbox.json")
      let outbox = try Outbox(file: file)
      try await outbox.append(Self.delete("m1", "a"))
      try await outbox.append(Self.edit("m2", "a", ["title": "too late"]))
      let pending = await outbox.pending
      #expect(
        pending.map(\.id) == ["m1"],
        "note a is deleted here, and a delete wins: the later edit m2 should be dropped, leaving [m1]; got \(Self.describe(pending))")
      #expect(try await Self.relaunched(file).map(\.id) == ["m1"], "after a relaunch the outbox should hold only the delete m1")
    }
  }

  @Test func compactionNeverTouchesAnotherNote() async throws {
    try await withTemporaryDirectory("outbox") { directory in
      let outbox = try Outbox(file: directory.file("outbox.json"))
      let edits = [
        Self.delete("m1", "gone"), Self.edit("m2", "a", ["title": "A", "body": "a"]), Self.edit("m3", "b", ["title": "B"]),
        Self.edit("m4", "c", ["body": "C"]),
      ]
      for edit in edits { try await outbox.append(edit) }
      let pending = await outbox.pending
      #expect(
        pending == edits,
        "every edit is of a different note, so none supersedes another: all four should stay whole, in order; got \(Self.describe(pending))"
      )
    }
  }

  @Test func removeTakesOutOnlyTheAnsweredEdits() async throws {
    try await withTemporaryDirectory("outbox") { directory in
      let file = directory.file("outbox.json")
      let outbox = try Outbox(file: file)
      for edit in [Self.edit("m1", "a", ["title": "1"]), Self.edit("m2", "b", ["title": "2"]), Self.edit("m3", "c", ["title": "3"])] {
        try await outbox.append(edit)
      }
      try await outbox.remove(ids: ["m1", "m3", "unknown"])
      let pending = await outbox.pending
      #expect(pending.map(\.id) == ["m2"], "after removing m1 and m3, only m2 should be pending; got \(Self.describe(pending))")
      let found = try await Self.relaunched(file)
      #expect(
        found.map(\.id) == ["m2"],
        "a removal must reach the disk: otherwise a relaunch sends m1 and m3 again; found \(Self.describe(found))")
    }
  }

  @Test func updateChangesTheEditsAsTheyAreNowAndKeepsTheirOrder() async throws {
    try await withTemporaryDirectory("outbox") { directory in
      let file = directory.file("outbox.json")
      let outbox = try Outbox(file: file)
      let edits = [Self.edit("m1", "a", ["title": "1"]), Self.edit("m2", "b", ["title": "2"]), Self.edit("m3", "c", ["title": "3"])]
      for edit in edits { try await outbox.append(edit) }
      let given = Mutex<[Mutation]?>(nil)
      let rebased = Self.edit("m1", "a", ["title": "1"], base: 7)
      try await outbox.update { pending in
        given.withLock { $0 = pending }
        return pending.map { $0.id == "m1" ? rebased : $0 }
      }
      let seen = given.withLock { $0 }
      #expect(
        seen == edits,
        "update should hand its transform the edits the outbox holds now, \(Self.describe(edits)); it handed \(seen.map(Self.describe) ?? "nothing (the transform never ran)")"
      )
      let expected = [rebased, edits[1], edits[2]]
      let pending = await outbox.pending
      #expect(
        pending == expected,
        "m1 rebased on version 7 in place should stay first in line (its order is the user's); got \(Self.describe(pending)), bases \(pending.map(\.base))"
      )
      #expect(try await Self.relaunched(file) == expected, "the updated list should be the one on disk")
    }
  }

  @Test func aFullDiskFailsAnUpdateAndLeavesTheOutboxAsItWas() async throws {
    try await withTemporaryDirectory("outbox") { directory in
      let file = directory.file("outbox.json")
      let disk = FaultyDisk()
      let outbox = try Outbox(file: file, fileSystem: disk)
      let first = Self.edit("m1", "a", ["title": "kept"])
      try await outbox.append(first)
      disk.freeBytes = 0
      do {
        try await outbox.update { _ in [] }
        Issue.record("an update on a full disk returned: it should throw SyncError.disk, since its result is not on disk")
      } catch {
        guard case SyncError.disk = error else {
          Issue.record("an update on a full disk should throw SyncError.disk, not \(error)")
          return
        }
      }
      let pending = await outbox.pending
      #expect(pending == [first], "the write failed, so pending should still hold m1; got \(Self.describe(pending))")
      #expect(try await Self.relaunched(file) == [first], "after the failed update a relaunch should find m1")
    }
  }

  @Test func aCorruptOutboxFileIsADiskError() async throws {
    try await withTemporaryDirectory("outbox") { directory in
      let file = directory.file("outbox.json")
      try Data("[{\"id\":\"m1\",\"note\":\"a\",\"ba".utf8).write(to: file)
      do {
        let outbox = try Outbox(file: file)
        Issue.record(
          "a truncated outbox file opened as \(Self.describe(await outbox.pending)): it should throw SyncError.disk, since reading it as empty silently drops the user's edits"
        )
      } catch {
        guard case SyncError.disk = error else {
          Issue.record("a truncated outbox file should throw SyncError.disk, not \(error)")
          return
        }
      }
    }
  }

  @Test func anUnreadableOutboxFileIsADiskError() async throws {
    try await withTemporaryDirectory("outbox") { directory in
      let file = directory.file("outbox.json")
      try await Outbox(file: file).append(Self.edit("m1", "a", ["title": "x"]))
      let disk = FaultyDisk()
      disk.makeUnreadable(file)
      do {
        let outbox = try Outbox(file: file, fileSystem: disk)
        Issue.record(
          "an outbox file that cannot be read (EIO) opened as \(Self.describe(await outbox.pending)): it should throw SyncError.disk, never open empty")
      } catch {
        guard case SyncError.disk = error else {
          Issue.record("an unreadable outbox file should throw SyncError.disk, not \(error)")
          return
        }
      }
    }
  }

  @Test func anEditIsWrittenWithItsKeysSortedSoTheSameEditIsTheSameBytes() throws {
    let edit = Mutation(id: "m1", note: "a", base: 2, set: ["title": "t", "body": "b", "color": "c"], editedAt: Self.at(0))
    let text = String(decoding: try SyncJSON.encoder().encode(edit), as: UTF8.self)
    let expected = #"{"base":2,"delete":false,"editedAt":1800000000000,"id":"m1","note":"a","set":{"body":"b","color":"c","title":"t"}}"#
    #expect(
      text == expected,
      "SyncJSON should write every key in sorted order, the fields of `set` too, so the same edit is the same bytes on every run; it wrote \(text)"
    )
  }

  @Test func aDateIsKeptToTheNearestMillisecond() {
    let up = SyncJSON.milliseconds(Date(timeIntervalSince1970: 1.2346))
    let down = SyncJSON.milliseconds(Date(timeIntervalSince1970: 1.2344))
    #expect(up == 1235 && down == 1234, "1.2346 s and 1.2344 s are 1235 ms and 1234 ms, to the nearest millisecond; read \(up) and \(down)")
  }
}
