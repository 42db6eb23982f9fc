import Foundation
import Testing
import WorkbookTesting

@testable import Sync

/// A page of changes is one write, whatever its size: the page and its token must land together
/// anyway, and a write per change would rewrite the whole file once for every note in the page.
@Suite("Exercise 3 — Pull (cost)", .timeLimit(.minutes(1)))
struct Exercise3_NoteStoreCostTests {
  @Test func applyingAPageIsOneWriteWhateverItsSize() async throws {
    try await withTemporaryDirectory("sync-store-cost") { folder in
      let disk = CountingDisk()
      let store = try NoteStore(file: folder.file("notes.json"), fileSystem: disk)
      var version = 0
      for size in [1, 100, 500] {
        version += 1
        let page = (0..<size).map { NoteRecord(id: "n\($0)", version: version, fields: ["title": "v\(version)"]) }
        let before = disk.writes
        try await store.apply(page, token: "t\(version)")
        #expect(
          disk.writes - before == 1,
          "a page of \(size) changes and its token should be saved in one write; it took \(disk.writes - before)")
      }
      #expect(await store.records.count == 500)
    }
  }
}
