import Foundation
import Testing

@testable import WorkbookKit

/// The drills of a scratch workbook: chapter 7's (`Chapters/07-counters/drill.md`) and one beyond
/// the chapters (`Drills/chat`, reusing chapter 7), each with a reference design drawn as
/// `make figures` draws it. As written, they follow every rule.
enum DrillFixture {
  typealias Row = (area: String, points: Int, shownBy: String?)

  static let chapterRows: [Row] = [
    ("Requirements", 20, "ex. 1 `countsOne`"),
    ("Design", 35, "ex. 1 `countsOne`; ex. 2 `startsAtZero`"),
    ("Depth", 30, "ex. 2 `startsAtZero`"),
    ("Communication", 15, "the drill's timer"),
  ]

  static let beyondRows: [Row] = [
    ("Requirements", 30, "ch. 7 ex. 1 `countsOne`"),
    ("Design", 40, "ch. 7 ex. 2 `startsAtZero`"),
    ("Scale", 30, "not built here"),
  ]

  /// Five phases, 45 minutes.
  static let phases = [5, 5, 10, 15, 10]

  static func text(title: String, phases: [Int] = phases, rows: [Row]) -> String {
    var lines = ["# Drill: \(title)", "", "*\"Design \(title).\"*", ""]
    for (index, minutes) in phases.enumerated() {
      lines += [
        "## \(index + 1). Step \(index + 1) — \(minutes) min", "", "### Prompts", "- Ask about step \(index + 1).", "",
        "### Signals the interviewer looks for", "- Signal \(index + 1).", "",
      ]
    }
    lines += ["## Rubric", "", "| area | points | full marks look like | shown by |", "|---|---|---|---|"]
    for row in rows {
      lines.append("| \(row.area) | \(row.points) | full marks for \(row.area.lowercased()) |" + (row.shownBy.map { " \($0) |" } ?? ""))
    }
    lines += ["", "## Red flags", "", "- Counting twice.", ""]
    return lines.joined(separator: "\n")
  }

  static let diagram = """
    {
      "title": "Reference design: counters",
      "layers": [
        { "name": "Main actor", "boxes": [ { "id": "view", "title": "CounterView", "lines": ["shows the count"] } ] },
        { "name": "Actors", "boxes": [ { "id": "store", "title": "CounterStore", "lines": ["one count per key"] } ] }
      ],
      "arrows": [ { "from": "view", "to": "store", "label": "increment()" } ],
      "notes": [ "The store is the only writer." ]
    }
    """

  /// Adds both drills, their reference designs and `Drills/drills.json` to `workbook`.
  static func add(
    to workbook: ScratchWorkbook, chapterRows: [Row] = chapterRows, beyondRows: [Row] = beyondRows,
    chapterPhases: [Int] = phases
  ) throws {
    try workbook.edit(
      "Chapters/07-counters/exercises.json", replacing: #""level": "beginner","#,
      with: #""level": "beginner", "extras": { "drill": "drill.md", "figures": ["reference-design.svg"] },"#)
    try workbook.write("Chapters/07-counters/drill.md", text(title: "count things", phases: chapterPhases, rows: chapterRows))
    try drawReferenceDesign(in: workbook, folder: "Chapters/07-counters")
    try workbook.write(
      "Drills/drills.json", #"{ "drills": [ { "name": "chat", "title": "Design a chat client", "reuses": [7] } ] }"#)
    try workbook.write("Drills/chat/drill.md", text(title: "a chat client", rows: beyondRows))
    try drawReferenceDesign(in: workbook, folder: "Drills/chat")
  }

  static func drawReferenceDesign(in workbook: ScratchWorkbook, folder: String) throws {
    try workbook.write("\(folder)/figures/reference-design.json", diagram)
    let drawn = try ArchitectureDiagram.load("\(workbook.root)/\(folder)/figures/reference-design.json")
    try workbook.write("\(folder)/figures/reference-design.svg", drawn.svg)
  }

  static func drills(_ workbook: ScratchWorkbook) throws -> DrillCatalog {
    try DrillCatalog.load(Catalog.load(root: workbook.root), root: workbook.root)
  }

  /// Text without the terminal's colours, which `Style` adds when the tests run on a terminal.
  static func plain(_ text: String) -> String {
    text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
  }

  static func date(_ iso: String) -> Date {
    ISO8601DateFormatter().date(from: iso)!
  }

  /// Runs `drill` as on a terminal: `input` answers the prompts in turn (then the input ends), and
  /// the clock moves on `step` seconds from `start` each time the round reads it. Returns what the
  /// round printed, without colours.
  static func runOnATerminal(
    _ drill: Drill, in workbook: ScratchWorkbook, input: [String], start: Date = date("2026-11-25T18:00:00Z"),
    step: TimeInterval = 60, seed: UInt64? = 1
  ) throws -> String {
    var input = input
    var output = ""
    var clock = start
    let console = DrillCommand.Console(interactive: true, readLine: { input.isEmpty ? nil : input.removeFirst() }, write: { output += $0 })
    try DrillCommand.run(
      drill, root: workbook.root, console: console,
      now: {
        clock += step
        return clock
      }, calendar: utcCalendar(), seed: seed)
    return plain(output)
  }

  static func attempt(_ drill: String?, _ total: Int, on iso: String) -> DrillHistory.Attempt {
    DrillHistory.Attempt(date: date(iso), drill: drill, scores: ["Requirements": total], total: total, secondsPerPhase: [])
  }
}

@Suite("Drills: the list, ids and the history")
struct DrillListTests {
  @Test("the list names every drill with its id, title, minutes and `not tried` before any attempt, and how to run one")
  func listWithoutHistory() throws {
    let workbook = try ScratchWorkbook()
    try DrillFixture.add(to: workbook)
    let drills = try DrillFixture.drills(workbook)
    #expect(drills.ids == ["7", "chat"])
    #expect(drills.drills.map(\.title) == ["Count things", "Design a chat client"])
    let text = DrillFixture.plain(
      DrillCommand.listing(
        drills, history: DrillHistory(attempts: []), now: DrillFixture.date("2026-11-25T18:00:00Z"), root: workbook.root,
        calendar: utcCalendar()))
    let lines = text.components(separatedBy: "\n")
    #expect(lines.contains { $0.hasPrefix("  7 ") && $0.contains("Count things") && $0.contains("45 min") && $0.hasSuffix("not tried") })
    #expect(
      lines.contains {
        $0.hasPrefix("  chat ") && $0.contains("Design a chat client (ch. 7)") && $0.contains("45 min") && $0.hasSuffix("not tried")
      })
    #expect(text.contains("Run one: make drill-7 or make drill-chat (SEED=N repeats a round's deep dive)."))
  }

  @Test("with attempts, each drill shows its own last score and its date, and a low one when it comes back")
  func listWithHistory() throws {
    let workbook = try ScratchWorkbook()
    try DrillFixture.add(to: workbook)
    let history = DrillHistory(attempts: [
      DrillFixture.attempt("7", 40, on: "2026-11-20T10:00:00Z"), DrillFixture.attempt("7", 82, on: "2026-11-24T10:00:00Z"),
      DrillFixture.attempt("chat", 55, on: "2026-11-25T10:00:00Z"),
    ])
    let text = DrillFixture.plain(
      DrillCommand.listing(
        try DrillFixture.drills(workbook), history: history, now: DrillFixture.date("2026-11-25T18:00:00Z"), root: workbook.root,
        calendar: utcCalendar()))
    let lines = text.components(separatedBy: "\n")
    #expect(lines.contains { $0.hasPrefix("  7 ") && $0.hasSuffix("82/100 on Tue 24 Nov") })
    #expect(lines.contains { $0.hasPrefix("  chat ") && $0.hasSuffix("55/100 on Wed 25 Nov, back on Fri 27 Nov") })
  }

  @Test("a listed drill whose file is missing says so in the list instead of failing it")
  func listWithMissingFile() throws {
    let workbook = try ScratchWorkbook()
    try DrillFixture.add(to: workbook)
    try workbook.remove("Drills/chat/drill.md")
    let text = DrillFixture.plain(
      DrillCommand.listing(
        try DrillFixture.drills(workbook), history: DrillHistory(attempts: []), now: Date(), root: workbook.root))
    #expect(text.components(separatedBy: "\n").contains { $0.hasPrefix("  chat ") && $0.contains("missing") })
  }

  @Test(
    "an id is a chapter's number or a drill's name, written as the learner may",
    arguments: [("7", "7"), ("07", "7"), ("chat", "chat"), ("Chat", "chat"), ("drill-chat", "chat"), (" 7 ", "7")])
  func ids(argument: String, id: String) throws {
    let workbook = try ScratchWorkbook()
    try DrillFixture.add(to: workbook)
    #expect(DrillCatalog.normalized(argument) == id)
    #expect(try DrillFixture.drills(workbook).drill(argument).id == id)
  }

  @Test("an unknown id names the ids there are")
  func unknownID() throws {
    let workbook = try ScratchWorkbook()
    try DrillFixture.add(to: workbook)
    let drills = try DrillFixture.drills(workbook)
    for argument in ["6", "sync", "8"] {
      let error = #expect(throws: Failure.self) { try drills.drill(argument) }
      #expect(error?.description == "there is no drill \(argument); the drills are 7, chat (make drill lists them)")
    }
    #expect(try DrillCommand([]).id == nil)
    #expect(throws: UsageError("unexpected argument: chat")) { try DrillCommand(["7", "chat"]) }
  }

  @Test("the history keeps each drill's attempts apart, and an attempt without `drill` is chapter 6's")
  func historyPerDrill() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    try workbook.write(
      ".workbook/drill-history.json",
      """
      [
        { "date": "2026-11-01T09:00:00Z", "scores": { "Requirements": 8 }, "total": 64, "secondsPerPhase": [300] },
        { "date": "2026-11-02T09:00:00Z", "drill": "chat", "scores": {}, "total": 71, "secondsPerPhase": [] },
        { "date": "2026-11-03T09:00:00Z", "drill": "6", "scores": {}, "total": 77, "secondsPerPhase": [] },
        { "date": "2026-11-04T09:00:00Z", "drill": "1", "scores": {}, "total": 50, "secondsPerPhase": [] }
      ]
      """)
    let history = DrillHistory.read(root: workbook.root) { _ in Issue.record("the file reads") }
    #expect(history.attempts.count == 4)
    #expect(history.attempts[0].drill == nil && history.attempts[0].id == "6", "the legacy attempt is chapter 6's")
    #expect(history.attempts(of: "6").map(\.total) == [64, 77])
    #expect(history.last("6")?.total == 77)
    #expect(history.last("chat")?.total == 71)
    #expect(history.last("1")?.total == 50)
    #expect(history.last("sync") == nil)

    try DrillHistory.save(
      history.attempts + [DrillFixture.attempt("sync", 90, on: "2026-11-05T09:00:00Z")], to: workbook.root + "/" + DrillHistory.relativePath)
    let saved = try workbook.read(".workbook/drill-history.json")
    #expect(saved.contains(#""drill" : "sync""#))
    let again = DrillHistory.read(root: workbook.root) { _ in Issue.record("the file reads") }
    #expect(again.attempts.first?.drill == nil, "a legacy attempt is written back without `drill`")
    #expect(again.last("sync")?.total == 90)
  }
}

@Suite("Drills in review and progress")
struct DrillReviewTests {
  let drills = [
    Drill(id: "7", title: "Count things", folder: "Chapters/07-counters", file: "Chapters/07-counters/drill.md", chapter: 7, reuses: []),
    Drill(id: "chat", title: "Design a chat client", folder: "Drills/chat", file: "Drills/chat/drill.md", chapter: nil, reuses: [7]),
  ]

  @Test("a last score of 69 brings the drill back from the start of the second day after; 70 never does")
  func dueRule() {
    let calendar = utcCalendar()
    let low = DrillHistory(attempts: [DrillFixture.attempt("7", 69, on: "2026-11-25T18:00:00Z")])
    #expect(low.dueDate("7", calendar: calendar) == DrillFixture.date("2026-11-27T00:00:00Z"))
    #expect(!low.isDue("7", at: DrillFixture.date("2026-11-26T23:59:59Z"), calendar: calendar), "not the day before")
    #expect(low.isDue("7", at: DrillFixture.date("2026-11-27T00:00:00Z"), calendar: calendar), "from the start of the day it is due")
    #expect(low.isDue("7", at: DrillFixture.date("2026-12-20T00:00:00Z"), calendar: calendar), "and after, until a better attempt")

    let passing = DrillHistory(attempts: [DrillFixture.attempt("7", 70, on: "2026-11-25T18:00:00Z")])
    #expect(passing.dueDate("7", calendar: calendar) == nil)
    #expect(!passing.isDue("7", at: DrillFixture.date("2026-12-20T00:00:00Z"), calendar: calendar))

    let improved = DrillHistory(attempts: [
      DrillFixture.attempt("7", 30, on: "2026-11-20T18:00:00Z"), DrillFixture.attempt("7", 75, on: "2026-11-24T18:00:00Z"),
    ])
    #expect(!improved.isDue("7", at: DrillFixture.date("2026-12-20T00:00:00Z"), calendar: calendar), "the last attempt counts")
    #expect(!DrillHistory(attempts: []).isDue("7", at: DrillFixture.date("2026-12-20T00:00:00Z"), calendar: calendar), "never tried: never due")
  }

  @Test("make review lists the drills due, and with a chapter only that chapter's")
  func reviewNote() {
    let calendar = utcCalendar()
    let history = DrillHistory(attempts: [
      DrillFixture.attempt("7", 69, on: "2026-11-25T18:00:00Z"), DrillFixture.attempt("chat", 40, on: "2026-11-24T08:00:00Z"),
    ])
    #expect(
      history.reviewNote(drills, chapter: nil, now: DrillFixture.date("2026-11-26T12:00:00Z"), calendar: calendar).map(DrillFixture.plain) == """
        1 drill due again (an area below senior, or a score below 70):
          make drill-chat      Design a chat client: 40/100 on Tue 24 Nov
        """)
    #expect(history.reviewNote(drills, chapter: 7, now: DrillFixture.date("2026-11-26T12:00:00Z"), calendar: calendar) == nil)
    let both = history.reviewNote(drills, chapter: nil, now: DrillFixture.date("2026-11-27T00:00:00Z"), calendar: calendar).map(DrillFixture.plain)
    #expect(both?.hasPrefix("2 drills due again") == true)
    #expect(both?.contains("  make drill-7         Count things: 69/100 on Wed 25 Nov") == true)
    #expect(
      history.reviewNote(drills, chapter: 7, now: DrillFixture.date("2026-11-27T00:00:00Z"), calendar: calendar).map(DrillFixture.plain)?
        .contains("make drill-chat") == false)
    #expect(DrillHistory(attempts: []).reviewNote(drills, chapter: nil, now: Date(), calendar: calendar) == nil)
  }

  @Test("make progress shows a chapter's last drill score in a column of one width, and a line for the others")
  func progressLines() {
    let calendar = utcCalendar()
    let now = DrillFixture.date("2026-11-28T12:00:00Z")
    func progress(_ attempts: [DrillHistory.Attempt]) -> DrillProgress {
      DrillProgress(drills: drills, history: DrillHistory(attempts: attempts), now: now, calendar: calendar)
    }
    let untried = progress([])
    #expect(DrillFixture.plain(untried.column(7)) == "  drill not tried   ")
    #expect(untried.column(3) == String(repeating: " ", count: 20), "a chapter with no drill keeps the column")
    #expect(DrillFixture.plain(untried.beyondLine ?? "") == "  Drills beyond the chapters: chat not tried (make drill lists them)")

    let scored = progress([DrillFixture.attempt("7", 72, on: "2026-11-27T10:00:00Z"), DrillFixture.attempt("chat", 55, on: "2026-11-25T10:00:00Z")])
    #expect(DrillFixture.plain(scored.column(7)) == "  drill 72/100      ")
    #expect(DrillFixture.plain(scored.beyondLine ?? "") == "  Drills beyond the chapters: chat 55/100, due (make drill lists them)")

    let notYetDue = progress([DrillFixture.attempt("7", 55, on: "2026-11-27T10:00:00Z")])
    #expect(DrillFixture.plain(notYetDue.column(7)) == "  drill 55/100      ")
    #expect(DrillFixture.plain(progress([DrillFixture.attempt("7", 55, on: "2026-11-26T10:00:00Z")]).column(7)) == "  drill 55/100, due ")
    #expect(DrillProgress(drills: Array(drills.prefix(1)), history: DrillHistory(attempts: []), now: now).beyondLine == nil)
  }
}

@Suite("Drills: running one")
struct DrillRunTests {
  @Test("without a terminal a drill prints whole with its shown-by column and reference design, records nothing")
  func withoutTerminal() throws {
    let workbook = try ScratchWorkbook()
    try DrillFixture.add(to: workbook)
    for drill in try DrillFixture.drills(workbook).drills {
      var output = ""
      let console = DrillCommand.Console(interactive: false, readLine: { nil }, write: { output += $0 })
      try DrillCommand.run(drill, root: workbook.root, console: console)
      let text = DrillFixture.plain(output)
      for phase in 1...5 { #expect(text.contains("Phase \(phase) of 5: Step \(phase)")) }
      #expect(text.contains("Signal 5."))
      #expect(text.contains("shown by: "))
      #expect(text.contains("Red flags\n  - Counting twice."))
      #expect(text.contains("picture: \(drill.folder)/figures/reference-design.svg"))
      let outline = try ArchitectureDiagram.load("\(workbook.root)/\(drill.referenceDescription)").outline
      #expect(text.contains(outline.components(separatedBy: "\n").map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")))
      #expect(text.hasSuffix("Nothing was recorded: scoring needs a terminal. Run make drill-\(drill.id) in one to time the phases and score yourself.\n"))
      #expect(text.range(of: "Red flags")!.lowerBound < text.range(of: "Reference design")!.lowerBound)
      #expect(!text.contains("You took"))
    }
    #expect(!workbook.exists(".workbook/drill-history.json"))
  }

  @Test("on a terminal the learner's scores are saved under the drill's id, then the reference design is shown")
  func onTerminal() throws {
    let workbook = try ScratchWorkbook()
    try DrillFixture.add(to: workbook)
    let drill = try DrillFixture.drills(workbook).drill("chat")
    // Enter twice a phase, then a score an area: Design (0–40) after one out of range.
    var input = Array(repeating: "", count: 10) + ["25", "41", "40", "9"]
    var output = ""
    var clock = DrillFixture.date("2026-11-25T18:00:00Z")
    let console = DrillCommand.Console(
      interactive: true, readLine: { input.isEmpty ? nil : input.removeFirst() }, write: { output += $0 })
    try DrillCommand.run(
      drill, root: workbook.root, console: console,
      now: {
        clock += 200
        return clock
      }, calendar: utcCalendar())
    let text = DrillFixture.plain(output)
    #expect(text.contains("You took 3:20 of 5:00: within the box"))
    #expect(text.contains("a whole number from 0 to 40, please"))
    #expect(text.contains("This attempt: 74/100"))
    #expect(!text.contains("Nothing was recorded"))
    #expect(text.range(of: "This attempt")!.lowerBound < text.range(of: "Reference design")!.lowerBound)
    let history = DrillHistory.read(root: workbook.root)
    #expect(history.attempts.count == 1)
    #expect(history.last("chat")?.total == 74)
    #expect(history.last("chat")?.scores == ["Requirements": 25, "Design": 40, "Scale": 9])
    #expect(history.last("chat")?.secondsPerPhase == [200, 200, 200, 200, 200])
  }

  @Test("input that ends before every area is scored records nothing, and still shows the reference design")
  func inputEnds() throws {
    let workbook = try ScratchWorkbook()
    try DrillFixture.add(to: workbook)
    let drill = try DrillFixture.drills(workbook).drill("7")
    var input = Array(repeating: "", count: 10) + ["12"]
    var output = ""
    let console = DrillCommand.Console(
      interactive: true, readLine: { input.isEmpty ? nil : input.removeFirst() }, write: { output += $0 })
    try DrillCommand.run(drill, root: workbook.root, console: console)
    let text = DrillFixture.plain(output)
    #expect(text.hasSuffix("Input ended before every area was scored: nothing was recorded.\n"))
    #expect(text.contains("picture: Chapters/07-counters/figures/reference-design.svg"))
    #expect(!workbook.exists(".workbook/drill-history.json"))
  }
}
