import Foundation
import Testing

@testable import WorkbookKit

/// The workbook's own drills, marked as a calibration reviewer would mark two answers: one that is
/// complete (every must-hit and bonus signal) but commits to nothing under the constraints, and
/// one that also shows the judgment signals. Completeness must stop at senior in every area.
@Suite("Drills as rounds: levels come from judgment")
struct DrillLevelTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../..")
    .standardized.path

  static func rounds() throws -> [(Drill, DrillRound)] {
    let catalog = try Catalog.load(root: root)
    return try DrillCatalog.load(catalog, root: root).drills.compactMap { drill in
      let text = try TextFile.contents(path(drill.file, in: root), shown: drill.file)
      return DrillRound.parse(text).map { (drill, $0) }
    }
  }

  @Test("in every drill and deep dive, a complete answer without judgment is senior in every area, and staff needs the judgment")
  func completenessIsSenior() throws {
    let rounds = try Self.rounds()
    #expect(rounds.count >= 10, "every chapter's drill and the three beyond them are rounds")
    for (drill, round) in rounds {
      for seed in 0..<UInt64(max(1, round.options.count)) {
        let complete = Dictionary(uniqueKeysWithValues: round.allSignals.map { ($0.id, $0.kind != .judgment) })
        let levels = round.levels(marks: complete, seed: seed)
        for (area, level) in levels {
          #expect(level == .senior, "drill \(drill.id), seed \(seed), \(area): every must-hit and bonus signal gave \(level.rawValue)")
        }
        let everything = Dictionary(uniqueKeysWithValues: round.allSignals.map { ($0.id, true) })
        #expect(round.levels(marks: everything, seed: seed).values.allSatisfy { $0 == .staff }, "drill \(drill.id), seed \(seed)")
      }
    }
  }

  @Test("communication is a ladder: the senior bar is checking in and answering pushback; a decision first is a staff signal")
  func communicationLadder() throws {
    for (drill, round) in try Self.rounds() {
      let kinds = Dictionary(uniqueKeysWithValues: round.communication.map { ($0.cue, $0.kind) })
      #expect(kinds["How each phase opened"] == .judgment, "drill \(drill.id)")
      #expect(kinds["Checking in"] == .mustHit, "drill \(drill.id)")
    }
  }
}
