import Foundation
import Testing

@testable import WorkbookKit

/// `workbook check` (rule `extras`) on the drills of a scratch workbook, each limit met and then
/// missed by one.
@Suite("workbook check: drills")
struct DrillCheckTests {
  /// The messages about drills after `DrillFixture.add` with these changes.
  func report(
    chapterRows: [DrillFixture.Row] = DrillFixture.chapterRows, beyondRows: [DrillFixture.Row] = DrillFixture.beyondRows,
    chapterPhases: [Int] = DrillFixture.phases, change: (ScratchWorkbook) throws -> Void = { _ in }
  ) throws -> [String] {
    let workbook = try ScratchWorkbook()
    try DrillFixture.add(to: workbook, chapterRows: chapterRows, beyondRows: beyondRows, chapterPhases: chapterPhases)
    try change(workbook)
    return workbook.problems().map(\.description)
  }

  /// The chapter's rows with one row's points or cell replaced.
  func chapterRows(_ area: String, points: Int? = nil, shownBy: String?? = nil) -> [DrillFixture.Row] {
    DrillFixture.chapterRows.map { row in
      guard row.area == area else { return row }
      return (row.area, points ?? row.points, shownBy ?? row.shownBy)
    }
  }

  @Test("both drills as written pass")
  func clean() throws {
    #expect(try report() == [])
  }

  @Test("a drill has at least five timed phases: four is one short")
  func phases() throws {
    #expect(try report(chapterPhases: [5, 10, 10, 10, 10]) == [])
    #expect(
      try report(chapterPhases: [10, 10, 10, 10]) == [
        "[extras] Chapters/07-counters/drill.md has 4 timed phases; a drill has at least 5 (`## 1. Clarify the requirements — 5 min`)"
      ])
  }

  @Test(
    "a drill's phases add up to 40–50 minutes",
    arguments: [([5, 5, 10, 10, 10], true), ([5, 5, 10, 10, 9], false), ([10, 10, 10, 10, 10], true), ([10, 10, 10, 10, 11], false)])
  func minutes(phases: [Int], passes: Bool) throws {
    let total = phases.reduce(0, +)
    let expected =
      passes
      ? []
      : [
        "[extras] Chapters/07-counters/drill.md: the phases add up to \(total) minutes; a drill runs 40 to 50, as an interview's design round does: change the time boxes"
      ]
    #expect(try report(chapterPhases: phases) == expected)
  }

  @Test("the rubric adds up to 100: 99 and 101 are named", arguments: [29, 30, 31])
  func points(depth: Int) throws {
    let found = try report(chapterRows: chapterRows("Depth", points: depth))
    #expect(
      found
        == (depth == 30
          ? []
          : ["[extras] Chapters/07-counters/drill.md: the `## Rubric` table's points add up to \(70 + depth), not 100; the drill scores out of 100"]))
  }

  @Test("the timer row is worth 15 points at most")
  func timerPoints() throws {
    var rows = chapterRows("Communication", points: 16)
    rows[2].points = 29
    #expect(
      try report(chapterRows: rows) == [
        "[extras] Chapters/07-counters/drill.md: the rubric row “Communication”: it says `the drill's timer` and is worth 16 points; that row is worth at most 15, so the rest of the score rests on what the code shows"
      ])
  }

  @Test("at most one row says the drill's timer")
  func twoTimerRows() throws {
    let found = try report(chapterRows: chapterRows("Depth", points: 15, shownBy: "the drill's timer") + [("Extra", 15, "ex. 1 `countsOne`")])
    #expect(
      found == [
        "[extras] Chapters/07-counters/drill.md: 2 rubric rows say `the drill's timer` (“Depth”, “Communication”); at most one may, the row on communication and time boxes; point the others at tests"
      ])
  }

  @Test("a misspelt test name and an exercise the chapter does not have are named")
  func missingTestAndExercise() throws {
    let found = try report(chapterRows: chapterRows("Design", shownBy: "ex. 1 `countOne`; ex. 3 `startsAtZero`"))
    #expect(
      found == [
        "[extras] Chapters/07-counters/drill.md: the rubric row “Design”: `countOne` (ex. 1) is not a test of Tests/CountersTests (no `func countOne(` there); name a test function that shows what the row scores",
        "[extras] Chapters/07-counters/drill.md: the rubric row “Design”: it names ex. 3, but chapter 7 has exercises 1 to 2 (Chapters/07-counters/exercises.json); name one of those",
      ])
  }

  @Test(
    "a cell that is not groups of `ex. N` and test names, or no cell at all, is named",
    arguments: ["ex. 1 countsOne", "exercise 1 `countsOne`", "ex. 1 `countsOne`;", "ch. 7 ex. 1 `countsOne`", "not built here"])
  func malformedCell(cell: String) throws {
    #expect(
      try report(chapterRows: chapterRows("Depth", shownBy: cell)) == [
        "[extras] Chapters/07-counters/drill.md: the rubric row “Depth”: “\(cell)” does not read as `ex. N` and backticked test names (ex. 1 `testName`, `otherTest`; ex. 3 `third`); write it so, or `the drill's timer` for the one row on communication and time boxes"
      ])
    let missing = try report(chapterRows: chapterRows("Depth", shownBy: .some(nil)))
    #expect(missing.count == 1 && missing[0].contains("the rubric row “Depth”: no `shown by` cell; add a fourth column"))
  }

  @Test("a drill beyond the chapters names tests of the chapters it reuses in two rows or more")
  func beyondRows() throws {
    #expect(
      try report(beyondRows: DrillFixture.beyondRows.map { ($0.area, $0.points, $0.area == "Scale" ? "ch. 7 ex. 1 `countsOne`, `countsOne`" : $0.shownBy) })
        == [])
    let one = try report(beyondRows: DrillFixture.beyondRows.map { ($0.area, $0.points, $0.area == "Design" ? "not built here" : $0.shownBy) })
    #expect(
      one == [
        "[extras] Drills/chat/drill.md: 1 rubric row names tests; a drill beyond the chapters names them in at least 2 (`ch. C ex. N `testName``), so the learner sees which chapter's code shows the design"
      ])
  }

  @Test("a drill beyond the chapters: a chapter it does not reuse, a misspelt test, a missing exercise, a timer row")
  func beyondCells() throws {
    let found = try report(beyondRows: [
      ("Requirements", 30, "ch. 6 ex. 1 `countsOne`"), ("Design", 40, "ch. 7 ex. 2 `startAtZero`; ch. 7 ex. 4 `countsOne`"),
      ("Communication", 15, "the drill's timer"), ("Scale", 15, "not built here"),
    ])
    #expect(
      found == [
        "[extras] Drills/chat/drill.md: the rubric row “Requirements”: it names ch. 6, which is not in chat's `reuses` (7) in Drills/drills.json; name a chapter the drill reuses, or add 6 there",
        "[extras] Drills/chat/drill.md: the rubric row “Design”: `startAtZero` (ch. 7 ex. 2) is not a test of Tests/CountersTests (no `func startAtZero(` there); name a test function that shows what the row scores",
        "[extras] Drills/chat/drill.md: the rubric row “Design”: it names ch. 7 ex. 4, but chapter 7 has exercises 1 to 2 (Chapters/07-counters/exercises.json); name one of those",
        "[extras] Drills/chat/drill.md: the rubric row “Communication”: “the drill's timer” does not read as `ch. C ex. N` and backticked test names (ch. 3 ex. 2 `testName`, `otherTest`); write it so, or `not built here` for a row about what no chapter builds",
      ])
  }

  @Test("Drills/drills.json lists exactly the folders of Drills/")
  func listedFolders() throws {
    let found = try report { workbook in
      try workbook.write("Drills/sync/drill.md", "# Drill: sync\n")
      try workbook.write(
        "Drills/drills.json",
        #"{ "drills": [ { "name": "chat", "title": "Design a chat client", "reuses": [7] }, { "name": "upload", "title": "Uploads", "reuses": [9] } ] }"#)
    }
    #expect(
      found == [
        "[extras] Drills/drills.json lists upload, but there is no folder Drills/upload; add Drills/upload/drill.md, or drop it from the list",
        #"[extras] Drills/sync is not listed in Drills/drills.json; add { "name": "sync", "title": …, "reuses": [...] }, or delete the folder"#,
      ])
    let unlisted = try report { workbook in try workbook.remove("Drills/drills.json") }
    #expect(unlisted.count == 1 && unlisted[0].contains("Drills/ holds chat but there is no Drills/drills.json"))
    let invalid = try report { workbook in try workbook.write("Drills/drills.json", #"{ "drills": [ { "name": "chat" } ] }"#) }
    #expect(invalid.count == 1 && invalid[0].hasPrefix("[extras] Drills/drills.json is not valid: "))
  }

  @Test("a reference design: missing, not loading, not drawn, or not what make figures draws")
  func referenceDesign() throws {
    let edited = try report { workbook in
      try workbook.write("Drills/chat/figures/reference-design.svg", try workbook.read("Drills/chat/figures/reference-design.svg") + " ")
    }
    #expect(
      edited == [
        "[extras] Drills/chat/figures/reference-design.svg is not what Drills/chat/figures/reference-design.json draws (the description changed, or the picture was edited by hand); run make figures"
      ])
    let undrawn = try report { workbook in try workbook.remove("Chapters/07-counters/figures/reference-design.svg") }
    #expect(undrawn.contains("[extras] Chapters/07-counters/figures/reference-design.svg is missing; run make figures"))
    let undescribed = try report { workbook in try workbook.remove("Drills/chat/figures/reference-design.json") }
    #expect(
      undescribed == [
        "[extras] Drills/chat/figures/reference-design.json is missing: every drill has a reference design; describe it there (title, layers of boxes, arrows), then run make figures"
      ])
    let broken = try report { workbook in try workbook.write("Drills/chat/figures/reference-design.json", #"{ "title": "x" }"#) }
    #expect(broken.count == 1 && broken[0].hasPrefix("[extras] Drills/chat/figures/reference-design.json does not load: "))
    #expect(broken.first?.hasSuffix("; fix it, then run make figures") == true)
  }
}
