import Foundation
import Testing

@testable import WorkbookKit

/// A round with scenarios on a terminal: the decision points are asked after their phase, graded
/// against the drawn scenario, recorded with the attempt, and a decision below staff comes back in
/// review as the scenario's question, never as a signal's words.
@Suite("Drills: decisions on a terminal, and their review cards")
struct DecisionCardTests {
  /// One decision in phase 2 (the fixture's Design area) whose key flips in every scenario.
  static let scenarios = """
    {
      "constraints": [ { "id": "users", "says": "users" }, { "id": "team", "says": "engineers" } ],
      "decisions": [ {
        "id": "store", "phase": "2", "question": "Keep counts in a file or a database?", "choices": ["file", "database"],
        "topics": ["row", "file", "database", "said in words"],
        "estimates": [ { "id": "rows", "question": "rows a day", "formula": "users * 2", "unit": "rows", "factor": 2 } ],
        "probe": "Ask for the rows.", "senior": "Picks one that holds.", "staff": "Sizes it and says what flips it."
      } ],
      "scenarios": [
        { "id": "small", "card": "A club counts visits.", "values": { "users": 100, "team": 1 }, "risks": [ { "dive": "4a", "because": "order" }, { "dive": "4b", "because": "storage" } ],
          "keys": { "store": { "choice": "file", "because": "a hundred rows fit a file",
            "then": { "set": { "users": 1000000 }, "say": "a million users join", "choice": "database", "because": "two million rows a day need queries" } } } },
        { "id": "large", "card": "A city counts trips.", "values": { "users": 1000000, "team": 9 }, "risks": [ { "dive": "4b", "because": "storage" }, { "dive": "4a", "because": "order" } ],
          "keys": { "store": { "choice": "database", "because": "two million rows a day need queries",
            "then": { "set": { "users": 100 }, "say": "the city shrinks to a hundred riders", "choice": "file", "because": "a file holds it" } } } },
        { "id": "medium", "card": "A school counts lunches.", "values": { "users": 500, "team": 2 }, "risks": [ { "dive": "4a", "because": "order" }, { "dive": "4b", "because": "storage" } ],
          "keys": { "store": { "choice": "file", "because": "a thousand rows fit a file",
            "then": { "set": { "team": 0 }, "say": "nobody can run a database", "choice": "database", "because": "the district's shared database is run for it" } } } }
      ]
    }
    """

  @Test("the same choice before and after the change is below senior, recorded, and a card that states the scenario and asks again")
  func terminal() throws {
    let workbook = try ScratchWorkbook()
    try RoundFixture.add(to: workbook)
    try workbook.write("Drills/chat/\(DrillScenarios.fileName)", Self.scenarios)
    let drill = try DrillFixture.drills(workbook).drill("chat")
    var input: [String] = []
    for phase in ["1", "2", "3", "4b", "5"] {
      input += ["", ""]
      if phase == "2" { input += ["sqlite", "file", "400", "a file is cheap", "file", "it still fits"] }
      input += [""]
      input += phase == "2" ? ["y", "y", "n", "y", "y"] : Array(repeating: "y", count: 5)
    }
    input += Array(repeating: "y", count: 4)
    let text = try DrillFixture.runOnATerminal(drill, in: workbook, input: input)
    let keyed = try JSONDecoder().decode(DrillScenarios.self, from: Data(Self.scenarios.utf8))
    let scenario = keyed.scenario(seed: 1)
    #expect(text.contains("The scenario (\(scenario.id)"))
    #expect(text.contains("Decision: Keep counts in a file or a database? (file | database)"))
    #expect(text.contains("one of file | database, please"), "sqlite is no choice of this decision")
    #expect(text.contains("Then: \(scenario.keys["store"]!.then.say)."))
    #expect(text.contains("Pushback: You chose file. I would have gone with database here."), "phase 2's pushback follows the choice")
    #expect(text.contains("Pushback: \"Pushback "), "phases without a decision draw from the bank")
    let attempt = try #require(DrillHistory.read(root: workbook.root).last("chat"))
    #expect(attempt.scenario == scenario.id)
    #expect(attempt.decisions == ["store": "below senior"])
    #expect(attempt.levels?["Design"] == "below senior", "every signal of Design but its judgment was hit; the decision decides")
    #expect(attempt.levels?["Requirements"] == "below senior", "every signal of Requirements was hit, but it has no decision to lift it above Design")

    let cards = DrillSignalCards.questions(
      try DrillFixture.drills(workbook).drills, history: DrillHistory.read(root: workbook.root), root: workbook.root)
    #expect(cards.map(\.key) == ["drill-chat/decision/store/\(scenario.id)"], "the judgment signal of phase 2 is rehearsed by the decision's card")
    let card = try #require(cards.first)
    #expect(card.heading.hasPrefix(scenario.card))
    #expect(card.heading.contains("Keep counts in a file or a database? Commit to one of file or database"))
    #expect(!card.heading.contains("Judgment 2 1") && !card.body.contains("the choice a staff answer commits to"))
    let key = scenario.keys["store"]!
    #expect(card.body.hasPrefix("\(key.choice), because \(key.because)."))
    #expect(card.body.contains("If \(key.then.say): \(key.then.choice), because \(key.then.because)."))
    #expect(text.contains("1 card from missed signals and decisions is now in make review"))
  }

  @Test("a deep dive the candidate picks away from the scenario's riskiest part keeps the area at senior and comes back as the scenario's question")
  func pickedDeepDive() throws {
    let workbook = try ScratchWorkbook()
    try RoundFixture.add(to: workbook)
    try workbook.write("Drills/chat/\(DrillScenarios.fileName)", Self.scenarios)
    let drill = try DrillFixture.drills(workbook).drill("chat")
    let start = DrillFixture.date("2026-11-25T18:00:00Z")
    let keyed = try JSONDecoder().decode(DrillScenarios.self, from: Data(Self.scenarios.utf8))
    let scenario = keyed.scenario(seed: UInt64(Int((start + 60).timeIntervalSince1970 / 86_400)))
    let wrong = scenario.risks[1].dive
    var input: [String] = []
    for phase in ["1", "2", "3", "4", "5"] {
      if phase == "4" { input.append(wrong) }
      input += ["", ""]
      if phase == "2" {
        input += [
          scenario.keys["store"]!.choice, "\(try ScenarioFormula.evaluate("users * 2", values: scenario.values))", "the cost, said in words",
          scenario.keys["store"]!.then.choice,
          "why it flips, said in words",
        ]
      }
      input += [""]
      input += Array(repeating: "y", count: 5)
    }
    input += Array(repeating: "y", count: 4)
    let text = try DrillFixture.runOnATerminal(drill, in: workbook, input: input, start: start, seed: nil)
    #expect(text.contains("Your deep dive: senior — you went deep on \(wrong); another part of the design is at more risk"))
    #expect(!text.contains("riskiest part is"), "the key is shown only with KEY=1")
    let attempt = try #require(DrillHistory.read(root: workbook.root).last("chat"))
    #expect(attempt.levels?["Deep dive"] == "senior" && attempt.levels?["Design"] == "staff")
    let cards = DrillSignalCards.questions(
      try DrillFixture.drills(workbook).drills, history: DrillHistory.read(root: workbook.root), root: workbook.root)
    #expect(cards.map(\.key) == ["drill-chat/deep-dive/\(scenario.id)"])
    #expect(cards.first?.heading.contains("Which part of the design carries the most risk, and why?") == true)
  }

  @Test("on a terminal a decision with a hold asks both changes in the scenario's order; always saying it changes is below senior, the key's answers staff")
  func terminalHold() throws {
    let held = Self.scenarios.replacingOccurrences(
      of: "\"then\": { \"set\": {",
      with: "\"hold\": { \"set\": { \"team\": 5 }, \"say\": \"the team grows to five\", "
        + "\"because\": \"the rows decide, not the team\" }, \"then\": { \"set\": {")
    let keyed = try JSONDecoder().decode(DrillScenarios.self, from: Data(held.utf8))
    let scenario = keyed.scenario(seed: 1)
    let key = try #require(scenario.keys["store"])
    let changes = key.changes(scenario: scenario.id, decision: "store")
    #expect(changes.count == 2 && changes.filter(\.holds).count == 1)
    func run(_ answer: (DrillScenarios.Key.Change) -> String) throws -> (String, DrillHistory.Attempt) {
      let workbook = try ScratchWorkbook()
      try RoundFixture.add(to: workbook)
      try workbook.write("Drills/chat/\(DrillScenarios.fileName)", held)
      let drill = try DrillFixture.drills(workbook).drill("chat")
      var input: [String] = []
      for phase in ["1", "2", "3", "4b", "5"] {
        input += ["", ""]
        if phase == "2" {
          input += [key.choice, "\(try ScenarioFormula.evaluate("users * 2", values: scenario.values))", "the cost, said in words"]
          for change in changes { input += [answer(change), "why it moves or not, said in words"] }
        }
        input += [""]
        input += Array(repeating: "y", count: 5)
      }
      input += Array(repeating: "y", count: 4)
      let text = try DrillFixture.runOnATerminal(drill, in: workbook, input: input)
      return (text, try #require(DrillHistory.read(root: workbook.root).last("chat")))
    }
    let (text, keyedAttempt) = try run { $0.choice }
    #expect(text.contains("Then: \(changes[0].say).") && text.contains("Or instead: \(changes[1].say)."), "\(text)")
    #expect(keyedAttempt.decisions == ["store": "staff"])
    let (_, changing) = try run { _ in key.then.choice }
    #expect(changing.decisions == ["store": "below senior"], "a candidate who says every change moves the choice")
  }
}
