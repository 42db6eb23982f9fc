import Foundation
import Testing

@testable import WorkbookKit

/// A drill written as a round, small enough to read: introductions, phases 1–3 and 5, a deep dive
/// 4a/4b, communication, the candidate's questions, a pushback bank and a rubric of levels.
enum RoundFixture {
  static func phase(_ label: String, _ title: String, minutes: Int, must: Int = 2, bonus: Int = 2) -> [String] {
    var lines = ["## \(label). \(title) — \(minutes) min", "", "### Prompts", "- Ask about \(title.lowercased()).", "", "### Must-hit signals"]
    lines += (1...must).map { "- **Must \(label) \($0)**: what a senior answer says in \(label)." }
    lines += ["", "### Judgment signals", "- **Judgment \(label) 1**: the choice a staff answer commits to in \(label), and its cost."]
    lines += ["", "### Bonus signals"]
    lines += (1...max(1, bonus)).map { "- **Bonus \(label) \($0)**: what a staff answer adds in \(label)," }
    lines += ["  over two lines.", ""]
    return lines
  }

  static func text(design: [Int] = [5, 7, 8, 10, 7], staffTitle: String = "Staff: ship it", rubric: [String]? = nil) -> String {
    var lines = ["# Drill: count things", "", "*\"Design counters.\"*", "", "## Introductions — 3 min", "", "Say who you are.", ""]
    lines += phase("1", "Requirements", minutes: design[0])
    lines += phase("2", "The API", minutes: design[1])
    lines += phase("3", "High-level design", minutes: design[2])
    lines += phase("4a", "Deep dive: ordering", minutes: design[3])
    lines += phase("4b", "Deep dive: storage", minutes: design[3])
    lines += phase("5", staffTitle, minutes: design[4])
    lines += [
      "## Communication", "", "### Must-hit signals", "- **Checked in**: asked whether to go on.",
      "- **Answered pushback**: with a trade-off.", "", "### Judgment signals", "- **Decision first**: said the decision first.", "",
      "### Bonus signals", "- **Drove the round**: proposed the order.", "",
    ]
    lines += ["## Your questions — 5 min", "", "Ask two questions.", ""]
    lines += ["## Pushback", ""] + (1...6).map { "- \"Pushback \($0)?\"" } + [""]
    lines += ["## Rubric", "", "| area | phases | senior answer shows | staff answer adds | shown by |", "|---|---|---|---|---|"]
    lines +=
      rubric ?? [
        "| Requirements | 1 | targets | the question that changes it | ch. 7 ex. 1 `countsOne` |",
        "| Design | 2, 3 | one owner | the extension's share | ch. 7 ex. 2 `startsAtZero` |",
        "| Deep dive | 4 | the mechanism | the failure it hides | not built here |",
        "| Shipping | 5 | a kill switch | the cost | not built here |",
        "| Communication | communication | decisions first | drives the round | not built here |",
      ]
    lines += ["", "## Red flags", "", "- Counting twice.", ""]
    return lines.joined(separator: "\n")
  }

  static func add(to workbook: ScratchWorkbook, text: String = text()) throws {
    try DrillFixture.add(to: workbook)
    try workbook.write("Drills/chat/drill.md", text)
  }
}

@Suite("Drills as rounds: the model")
struct DrillRoundModelTests {
  @Test("a round reads its slots, its deep-dive options, signals of three kinds with cues, the bank and a rubric of levels")
  func parse() throws {
    let round = try #require(DrillRound.parse(RoundFixture.text()))
    #expect(round.introductions.minutes == 3)
    #expect(round.questions?.minutes == 5)
    #expect(round.phases.map(\.label) == ["1", "2", "3", "4a", "4b", "5"])
    #expect(round.options.map(\.label) == ["4a", "4b"])
    #expect(round.designMinutes == 37)
    #expect(round.minutes == 45)
    let first = round.phases[0].signals
    #expect(first.map(\.id) == ["1/must-1-1", "1/must-1-2", "1/judgment-1-1", "1/bonus-1-1", "1/bonus-1-2"])
    #expect(first.map(\.kind) == [.mustHit, .mustHit, .judgment, .bonus, .bonus])
    #expect(first[3].text == "what a staff answer adds in 1,")
    #expect(first[4].text == "what a staff answer adds in 1, over two lines.", "a continuation line belongs to its bullet")
    #expect(round.communication.map(\.cue) == ["Checked in", "Answered pushback", "Decision first", "Drove the round"])
    #expect(round.pushback.count == 6)
    #expect(round.areas.map(\.name) == ["Requirements", "Design", "Deep dive", "Shipping", "Communication"])
    #expect(round.areas[1].phases == [2, 3])
    #expect(round.areas[4].isCommunication)
    #expect(DrillRound.parse(DrillFixture.text(title: "older", rows: DrillFixture.chapterRows)) == nil, "the older format is no round")
  }

  @Test(
    "a missed must-hit signal is below senior whatever else; every bonus without the judgment signal is senior; the judgment signal is staff",
    arguments: [
      ([true, false, true, true, true], DrillLevel.belowSenior), ([true, true, false, true, true], .senior),
      ([true, true, false, false, false], .senior), ([true, true, true, false, false], .staff), ([true, true, true, true, true], .staff),
    ])
  func levels(marks: [Bool], level: DrillLevel) throws {
    let signals = try #require(DrillRound.parse(RoundFixture.text())).phases[0].signals
    let marked = Dictionary(uniqueKeysWithValues: zip(signals.map(\.id), marks))
    #expect(DrillLevel.of(signals, marks: marked) == level)
    #expect(DrillLevel.of(signals, marks: [:]) == .belowSenior, "an unmarked signal is not a hit")
    let withoutJudgment = signals.filter { $0.kind != .judgment }
    #expect(
      DrillLevel.of(withoutJudgment, marks: Dictionary(uniqueKeysWithValues: withoutJudgment.map { ($0.id, true) })) == .senior,
      "an area with no judgment signal cannot reach staff, however complete")
  }

  @Test("SEED= picks the same deep dive and pushback questions every time, and seeds reach every option")
  func seeded() throws {
    let round = try #require(DrillRound.parse(RoundFixture.text()))
    #expect(round.phases(seed: 7).map(\.label) == round.phases(seed: 7).map(\.label))
    #expect(round.pushback(for: 5, seed: 7) == round.pushback(for: 5, seed: 7))
    #expect(Set((0..<10).map { round.phases(seed: $0).first { $0.option != nil }!.label }) == ["4a", "4b"])
    #expect(round.phases(seed: 3).count == 5, "one deep dive a run")
    #expect(Set(round.pushback(for: 6, seed: 3)).count == 6, "no question twice while the bank lasts")
  }
}

@Suite("Drills as rounds: running one")
struct DrillRoundRunTests {
  @Test("without a terminal a round prints its shape and every phase's prompts, then the key, reads nothing and records nothing")
  func withoutTerminal() throws {
    let workbook = try ScratchWorkbook()
    try RoundFixture.add(to: workbook)
    let drill = try DrillFixture.drills(workbook).drill("chat")
    var output = ""
    var reads = 0
    let console = DrillCommand.Console(
      interactive: false,
      readLine: {
        reads += 1
        return nil
      }, write: { output += $0 })
    try DrillCommand.run(drill, root: workbook.root, console: console, seed: 1)
    let text = DrillFixture.plain(output)
    #expect(reads == 0, "never waits for input, so `make drill-chat </dev/null` ends")
    #expect(text.contains("The round — 45 minutes"))
    #expect(text.contains("Introductions") && text.contains("Your questions"))
    #expect(text.contains("Deep dive today: 4b of 4a, 4b (SEED=1"))
    #expect(text.contains("senior = every must-hit signal of its phases hit; staff = that, and every judgment signal; bonus signals move no level."))
    #expect(text.contains("[must-hit] Must 4b 1: what a senior answer says in 4b."))
    #expect(text.contains("[judgment] Judgment 4b 1: the choice a staff answer commits to in 4b, and its cost."))
    let key = try #require(text.range(of: "The key (read it once you have answered every phase out loud)"))
    let firstSignal = try #require(text.range(of: "Must 1 1"))
    let lastPrompt = try #require(text.range(of: "Ask about staff: ship it."))
    #expect(firstSignal.lowerBound > key.lowerBound, "no signal is shown before every phase's prompts")
    #expect(lastPrompt.lowerBound < key.lowerBound)
    #expect(text.contains("[bonus]    Bonus 5 2:"))
    #expect(!text.contains("Must 4a 1"), "the other option is not run")
    #expect(text.contains("Pushback: \"Pushback"))
    #expect(text.contains("senior: targets") && text.contains("staff adds: the question that changes it"))
    #expect(text.hasSuffix("mark each signal and get a level per area.\n"))
    #expect(!workbook.exists(".workbook/drill-history.json"))
    #expect(!workbook.exists(".workbook/review.json"))
  }

  /// Marks for one run with seed 1 (deep dive 4b): phases 1, 2, 3, 4b and 5, then communication.
  /// Each phase: two must-hit, one judgment, two bonus; communication: two must-hit, one
  /// judgment, one bonus.
  static let marks: [[String]] = [
    ["y", "y", "y", "n", "n"], ["y", "n", "y", "y", "y"], ["y", "y", "y", "y", "y"], ["y", "y", "n", "y", "y"],
    ["y", "y", "y", "y", "n"], ["y", "y", "n", "y"],
  ]

  @Test("on a terminal each signal is marked, the levels follow, and every missed one is a review card due today")
  func onTerminal() throws {
    let workbook = try ScratchWorkbook()
    try RoundFixture.add(to: workbook)
    let drill = try DrillFixture.drills(workbook).drill("chat")
    var input: [String] = []
    for (index, phase) in Self.marks.enumerated() {
      // Enter to start, Enter when done, Enter after the pushback; communication has no timer.
      if index < 5 { input += ["", "", ""] }
      input += phase
    }
    input.insert("maybe", at: 3)
    var output = ""
    let start = DrillFixture.date("2026-11-25T18:00:00Z")
    var clock = start
    let console = DrillCommand.Console(
      interactive: true, readLine: { input.isEmpty ? nil : input.removeFirst() }, write: { output += $0 })
    try DrillCommand.run(
      drill, root: workbook.root, console: console,
      now: {
        clock += 60
        return clock
      }, calendar: utcCalendar(), seed: 1)
    let text = DrillFixture.plain(output)
    #expect(text.contains("y or n, please"))
    let attempt = try #require(DrillHistory.read(root: workbook.root).last("chat"))
    #expect(attempt.total == nil && attempt.scores.isEmpty)
    #expect(attempt.deepDive == "4b" && attempt.seed == 1)
    #expect(
      attempt.levels == [
        "Requirements": "staff", "Design": "below senior", "Deep dive": "senior", "Shipping": "staff", "Communication": "senior",
      ])
    #expect(attempt.signals?["2/must-2-2"] == false && attempt.signals?["1/must-1-1"] == true)
    #expect(attempt.signals?.count == 29, "five phases of five signals, and four of communication")
    #expect(!attempt.passed)
    #expect(text.contains("6 missed signals are now cards in make review"))

    let cards = DrillSignalCards.questions(
      try DrillFixture.drills(workbook).drills, history: DrillHistory.read(root: workbook.root), root: workbook.root)
    #expect(
      cards.map(\.key).sorted() == [
        "drill-chat/1/bonus-1-1", "drill-chat/1/bonus-1-2", "drill-chat/2/must-2-2", "drill-chat/4b/judgment-4b-1",
        "drill-chat/5/bonus-5-2", "drill-chat/communication/decision-first",
      ])
    let store = RatingsStore(root: workbook.root)
    let plan = ReviewCommand.plan(
      cards, store: store, schedule: Schedule(calendar: utcCalendar()), now: start + 3_600, chapter: nil, limit: nil)
    #expect(plan.due.count == 6, "due the same day, before any new question")
    #expect(plan.message.contains("drill-chat  [again] Design a chat client (phase 2, The API): "), "\(plan.message)")
    #expect(!plan.message.contains("Must 2 2"), "a card asks the phase's question, never the missed signal's cue")
    let deck = AnkiExport.text(cards)
    #expect(deck.contains("ios-systems-workbook/drill-chat/2/must-2-2\t"))
    #expect(deck.contains("\tiOS Systems Workbook::Drills::chat\tios-systems-workbook drill-chat\n"))
    #expect(
      NewQuestions.introduced(store.load(), on: start, calendar: utcCalendar()) == 0,
      "the drill's cards leave the day's new questions alone")
  }

  @Test("on a terminal without SEED= the deep dive is the candidate's pick, asked when the round gets there, and recorded without a seed")
  func candidatePicks() throws {
    let workbook = try ScratchWorkbook()
    try RoundFixture.add(to: workbook)
    let drill = try DrillFixture.drills(workbook).drill("chat")
    let all = ["y", "y", "y", "y", "y"]
    var input: [String] = []
    for _ in 0..<3 { input += ["", "", ""] + all }
    input += ["4c", "a"]
    for _ in 0..<2 { input += ["", "", ""] + all }
    input += ["y", "y", "y", "y"]
    var output = ""
    var clock = DrillFixture.date("2026-11-25T18:00:00Z")
    let console = DrillCommand.Console(
      interactive: true, readLine: { input.isEmpty ? nil : input.removeFirst() }, write: { output += $0 })
    try DrillCommand.run(
      drill, root: workbook.root, console: console,
      now: {
        clock += 60
        return clock
      }, calendar: utcCalendar(), seed: nil)
    let text = DrillFixture.plain(output)
    #expect(text.contains("4. Deep dive: your pick"), "the shape does not give the pick away")
    #expect(text.contains("The deep dive is yours to pick when the round gets there, from 4a, 4b"))
    #expect(text.contains("Your deep dive: which part of your design carries the most risk?"))
    #expect(text.contains("one of a, b, please"), "4c is no option of this round")
    #expect(text.contains("Phase 4 of 5: 4a. Deep dive: ordering"))
    #expect(input.isEmpty)
    let attempt = try #require(DrillHistory.read(root: workbook.root).last("chat"))
    #expect(attempt.deepDive == "4a" && attempt.seed == nil)
    #expect(attempt.signals?["4a/judgment-4a-1"] == true && attempt.signals?["4b/judgment-4b-1"] == nil)
    #expect(attempt.levels?.values.allSatisfy { $0 == "staff" } == true)
  }

  @Test("an older history file is read as it is and written back with its scores, beside a round's attempt")
  func olderHistory() throws {
    let workbook = try ScratchWorkbook()
    try workbook.write(
      DrillHistory.relativePath,
      #"[ { "date": "2026-11-20T10:00:00Z", "scores": { "Requirements": 8 }, "total": 62, "secondsPerPhase": [300] } ]"#)
    let file = "\(workbook.root)/\(DrillHistory.relativePath)"
    var (attempts, persist) = DrillHistory.load(file)
    #expect(persist && attempts.count == 1)
    #expect(attempts[0].id == "6" && attempts[0].total == 62 && attempts[0].levels == nil)
    attempts.append(
      DrillHistory.Attempt(
        date: DrillFixture.date("2026-11-25T10:00:00Z"), drill: "chat", secondsPerPhase: [], levels: ["Design": "staff"],
        signals: ["3/one-owner": true], deepDive: "4a", seed: 2))
    try DrillHistory.save(attempts, to: file)
    let again = DrillHistory.load(file).attempts
    #expect(again == attempts)
    #expect(again[0].summary == "62/100" && again[1].summary == "staff 1")
    let saved = try String(contentsOfFile: file, encoding: .utf8)
    #expect(!saved.contains("\"levels\" : null"), "an older attempt gains no empty fields")
  }
}

@Suite("workbook check: drills as rounds")
struct DrillRoundCheckTests {
  func report(_ text: String) throws -> [String] {
    let workbook = try ScratchWorkbook()
    try RoundFixture.add(to: workbook, text: text)
    return workbook.problems().map(\.description)
  }

  @Test("a round as written passes")
  func clean() throws {
    #expect(try report(RoundFixture.text()) == [])
  }

  @Test(
    "the design takes 35–40 minutes with one deep dive: 34 and 41 are named",
    arguments: [([5, 7, 8, 10, 5], 35, true), ([4, 7, 8, 10, 5], 34, false), ([5, 7, 8, 10, 10], 40, true), ([6, 7, 8, 10, 10], 41, false)])
  func designMinutes(design: [Int], minutes: Int, passes: Bool) throws {
    let problems = try report(RoundFixture.text(design: design)).filter { $0.contains("design phases add up") }
    #expect(problems.isEmpty == passes)
    if !passes { #expect(problems.first?.contains("add up to \(minutes) minutes") == true) }
  }

  @Test("the last phase is the staff phase")
  func staffPhase() throws {
    #expect(
      try report(RoundFixture.text(staffTitle: "Follow-ups")).contains {
        $0.contains("the last phase, “Follow-ups”, is not the staff phase")
      })
  }

  @Test("a signal without a cue, and a list one short, are named")
  func cues() throws {
    let text = RoundFixture.text().replacingOccurrences(of: "- **Must 2 2**: what", with: "- what")
    let problems = try report(text)
    #expect(problems.contains { $0.contains("phase 2 has 1 under `### Must-hit signals`; write at least 2") })
    #expect(problems.contains { $0.contains("phase 2, `### Must-hit signals`: “what a senior answer says in 2.…” has no cue") })
  }

  @Test("a phase without a judgment signal is named: its area could never reach staff")
  func judgment() throws {
    let text = RoundFixture.text().replacingOccurrences(
      of: "### Judgment signals\n- **Judgment 3 1**: the choice a staff answer commits to in 3, and its cost.\n", with: "")
    let problems = try report(text)
    #expect(problems.contains { $0.contains("phase 3 has 0 under `### Judgment signals`; write at least 1") })
    #expect(!problems.contains { $0.contains("Bonus signals") }, "bonus signals are optional")
  }

  @Test("communication is never shown by the timer, and each phase is scored by one row")
  func rubric() throws {
    let rows = [
      "| Requirements | 1, 2 | targets | more | not built here |", "| Design | 2, 3 | one owner | more | not built here |",
      "| Deep dive | 4 | it | more | not built here |", "| Communication | communication | it | more | the drill's timer |",
    ]
    let problems = try report(RoundFixture.text(rubric: rows))
    #expect(problems.contains { $0.contains("phase 2 is scored by Requirements and Design; one row scores each phase") })
    #expect(problems.contains { $0.contains("phase 5 is scored by no rubric row") })
    #expect(problems.contains { $0.contains("is shown by the timer; a timer shows time kept, not communication") })
  }
}
