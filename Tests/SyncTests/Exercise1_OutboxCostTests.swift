import Foundation
import Testing
import WorkbookTesting

@testable import Sync

/// Each edit the user makes is one write, however many edits wait in the outbox and however many
/// earlier ones it compacts: a write per edit is the price of keeping every acknowledged edit, and
/// more than one per edit multiplies the wear and the time of the tap.
@Suite("Exercise 1 — The outbox (cost)", .timeLimit(.minutes(1)))
struct Exercise1_OutboxCostTests {
  @Test func anAppendIsOneWriteHoweverManyEditsWait() async throws {
    try await withTemporaryDirectory("sync-outbox-cost") { folder in
      let disk = CountingDisk()
      let outbox = try Outbox(file: folder.file("outbox.json"), fileSystem: disk)
      for size in [1, 10, 100] {
        for index in await outbox.pending.count..<size {
          try await outbox.append(Mutation(note: "n\(index)", base: 0, set: ["title": "t"]))
        }
        let waiting = await outbox.pending.count
        guard waiting == size else {
          Issue.record(
            "after edits of \(size) different notes the outbox should hold \(size); it holds \(waiting) (compaction must only touch the same note)")
          return
        }
        let before = disk.writes
        try await outbox.append(Mutation(note: "n0", base: 0, set: ["title": "compacts the first edit away"]))
        #expect(
          disk.writes - before == 1,
          "an append to an outbox of \(size) edits (compacting one of them) should be one write; it made \(disk.writes - before)")
      }
    }
  }

  @Test func removingAnsweredEditsIsOneWriteHoweverManyGo() async throws {
    try await withTemporaryDirectory("sync-outbox-cost") { folder in
      let disk = CountingDisk()
      let outbox = try Outbox(file: folder.file("outbox.json"), fileSystem: disk)
      for index in 0..<50 { try await outbox.append(Mutation(note: "n\(index)", base: 0, set: ["title": "t"])) }
      let answered = Set(await outbox.pending.prefix(40).map(\.id))
      let before = disk.writes
      try await outbox.remove(ids: answered)
      #expect(disk.writes - before == 1, "removing 40 answered edits at once should be one write; it made \(disk.writes - before)")
      #expect(await outbox.pending.count == 10)
    }
  }

  @Test func anUpdateThatChangesNothingWritesNothing() async throws {
    try await withTemporaryDirectory("sync-outbox-cost") { folder in
      let disk = CountingDisk()
      let outbox = try Outbox(file: folder.file("outbox.json"), fileSystem: disk)
      for index in 0..<3 { try await outbox.append(Mutation(note: "n\(index)", base: 0, set: ["title": "t"])) }
      let before = disk.writes
      try await outbox.update { $0 }
      #expect(
        disk.writes == before,
        "an update whose transform returns the list unchanged (a 412 for an edit the user has since compacted away) should write nothing; it made \(disk.writes - before) writes"
      )
      try await outbox.update { Array($0.dropFirst()) }
      #expect(disk.writes - before == 1, "an update that drops one edit should be one write; it made \(disk.writes - before)")
      #expect(await outbox.pending.count == 2)
    }
  }
}
