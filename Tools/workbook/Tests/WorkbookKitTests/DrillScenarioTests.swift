import Foundation
import Testing

@testable import WorkbookKit

/// Decisions graded against the scenario: the workbook's drills with `scenarios.json`, answered by
/// candidates written here, at fifty seeds each.
@Suite("Drills: decisions graded against the scenario")
struct DrillScenarioTests {
  static let root = DrillLevelTests.root

  /// The drills that have scenarios, with their rounds.
  static func drills() throws -> [(Drill, DrillRound, DrillScenarios)] {
    try DrillLevelTests.rounds().compactMap { drill, round in
      try DrillScenarios.load(drill, root: root).map { (drill, round, $0) }
    }
  }

  /// An answers file for `seed`'s run: every signal of the run marked hit, then for each decision
  /// the choice `choose` gives (before and after the change; after a change the key survives, the
  /// one it gives before), every estimate exact, and the cost and the whys said: everything but the
  /// choices is as good as it gets.
  static func answers(
    _ round: DrillRound, _ scenarios: DrillScenarios, seed: UInt64, choose: (DrillScenarios.Decision, _ after: Bool) -> String
  ) throws -> String {
    let scenario = scenarios.scenario(seed: seed)
    let deepDive = round.deepDive(seed: seed)
    var lines = ["scenario: \(scenario.id)"]
    for phase in round.phases(deepDive: deepDive) {
      lines.append("## \(phase.label)")
      lines += phase.signals.map { "- [x] \($0.cue)" }
      for decision in scenarios.decisions where decision.phase == phase.label {
        lines.append("- choice \(decision.id): \(choose(decision, false))")
        lines.append(said("cost", decision.id, scenarios))
        for estimate in decision.estimates {
          lines.append("- estimate \(estimate.id): \(try ScenarioFormula.evaluate(estimate.formula, values: scenario.values))")
        }
        // The changes in the order the round asks them: one that moves the key's choice is
        // answered with `choose`'s after, one the key survives with its before.
        let changes = scenario.keys[decision.id]?.changes(scenario: scenario.id, decision: decision.id) ?? []
        for (change, fields) in zip(changes, [("then", "why"), ("instead", "why-instead")]) {
          lines.append("- \(fields.0) \(decision.id): \(choose(decision, !change.holds))")
          lines.append(said(fields.1, decision.id, scenarios))
        }
      }
    }
    lines.append("## Communication")
    lines += round.communication.map { "- [x] \($0.cue)" }
    return lines.joined(separator: "\n")
  }

  /// The cost or why line `answers` writes: said in words, and naming the decision's first topic.
  static func said(_ field: String, _ id: String, _ scenarios: DrillScenarios) -> String {
    let topic = scenarios.decisions.first { $0.id == id }?.topics.first ?? ""
    return "- \(field) \(id): " + (field == "cost" ? "what it costs in \(topic), said" : "what the change does to the \(topic), said")
  }

  static func levels(_ drill: Drill, _ round: DrillRound, _ scenarios: DrillScenarios, text: String, seed: UInt64?) throws
    -> DrillCommand.Assessment
  {
    let answers = try DrillAnswers.parse(text, shown: "answers.md")
    return try DrillCommand.assess(answers, round: round, scenarios: scenarios, seed: seed, shown: "answers.md", drillFile: drill.file)
  }

  /// The rubric areas that hold a decision in `seed`'s run.
  static func decisionAreas(_ round: DrillRound, _ scenarios: DrillScenarios, seed: UInt64) -> Set<String> {
    Set(scenarios.decisions(in: round, deepDive: round.deepDive(seed: seed)).compactMap { scenarios.area(of: $0, in: round)?.name })
  }

  @Test("chat, chapter 6's feed, upload, analytics and the streaming assistant have scenarios, and each passes workbook check's rules")
  func scenariosHold() throws {
    let drills = try Self.drills()
    #expect(Set(["chat", "6", "upload", "analytics", "assistant"]).isSubset(of: Set(drills.map(\.0.id))), "found \(drills.map(\.0.id))")
    for (drill, round, scenarios) in drills {
      #expect(scenarios.problems(round: round).isEmpty, "drill \(drill.id): \(scenarios.problems(round: round))")
    }
  }

  @Test("on 50 seeds, the same choices in every scenario score below senior in every area with decisions")
  func sameChoicesAreBelowSenior() throws {
    for (drill, round, scenarios) in try Self.drills() {
      let widest = scenarios.decisions.map(\.choices.count).max() ?? 0
      for seed in UInt64(0)..<50 {
        for pick in 0..<widest {
          let text = try Self.answers(round, scenarios, seed: seed) { decision, _ in decision.choices[pick % decision.choices.count] }
          let levels = try Self.levels(drill, round, scenarios, text: text, seed: seed).levels
          for area in Self.decisionAreas(round, scenarios, seed: seed) {
            #expect(
              levels[area] == .belowSenior,
              "drill \(drill.id), seed \(seed), every decision answered with its choice \(pick + 1): \(area) is \(levels[area]?.rawValue ?? "?")")
          }
        }
      }
    }
  }

  @Test("on 50 seeds, a recital that marks every signal hit and commits to no decision is below senior in every area, with decisions or not")
  func recitalIsBelowSenior() throws {
    for (drill, round, scenarios) in try Self.drills() {
      for seed in UInt64(0)..<50 {
        let recital = try Self.answers(round, scenarios, seed: seed) { _, _ in "" }.components(separatedBy: "\n")
          .filter { line in !["- choice ", "- then ", "- instead ", "- estimate "].contains { line.hasPrefix($0) } }.joined(separator: "\n")
        let levels = try Self.levels(drill, round, scenarios, text: recital, seed: seed).levels
        for area in round.areas {
          #expect(levels[area.name] == .belowSenior, "drill \(drill.id), seed \(seed), \(area.name): \(String(describing: levels[area.name]))")
        }
      }
    }
  }

  @Test("an area without decisions is no higher than the lowest area with them: senior decisions keep communication at senior")
  func areasWithoutDecisionsFollowTheLowestDecidedArea() throws {
    let (drill, round, scenarios) = try #require(Self.drills().first { $0.0.id == "chat" })
    let seed = try #require((UInt64(0)..<50).first { scenarios.scenario(seed: $0).id == "coach-chat" })
    let key = scenarios.scenario(named: "coach-chat")!.keys
    let staff = try Self.answers(round, scenarios, seed: seed) { decision, after in after ? key[decision.id]!.then.choice : key[decision.id]!.choice }
    #expect(try Self.levels(drill, round, scenarios, text: staff, seed: seed).levels["Communication"] == .staff)
    let noWhy = staff.components(separatedBy: "\n").filter { !$0.hasPrefix("- why transport:") }.joined(separator: "\n")
    let levels = try Self.levels(drill, round, scenarios, text: noWhy, seed: seed).levels
    #expect(levels["Protocol"] == .senior, "\(levels)")
    #expect(levels["Communication"] == .senior && levels["Requirements"] == .senior, "\(levels)")
    #expect(levels["Design"] == .staff, "an area with decisions keeps its own level: \(levels)")
  }

  @Test("on 50 seeds, the key's choices with every part said score staff, and without cost and why senior")
  func keyedChoicesScore() throws {
    for (drill, round, scenarios) in try Self.drills() {
      for seed in UInt64(0)..<50 {
        let scenario = scenarios.scenario(seed: seed)
        let text = try Self.answers(round, scenarios, seed: seed) { decision, after in
          let key = scenario.keys[decision.id]!
          return after ? key.then.choice : key.choice
        }
        let levels = try Self.levels(drill, round, scenarios, text: text, seed: seed).levels
        #expect(levels.values.allSatisfy { $0 == .staff }, "drill \(drill.id), seed \(seed): \(levels)")
        let bare = text.components(separatedBy: "\n").filter { !$0.hasPrefix("- cost ") && !$0.hasPrefix("- why ") }
          .joined(separator: "\n")
        let bareLevels = try Self.levels(drill, round, scenarios, text: bare, seed: seed).levels
        for area in Self.decisionAreas(round, scenarios, seed: seed) {
          #expect(bareLevels[area] == .senior, "drill \(drill.id), seed \(seed), \(area) without cost or why")
        }
      }
    }
  }

  @Test("a cost or a why of fewer than four words is not said: the decision is senior, and the finding says how many words count")
  func shortCostAndWhy() throws {
    let (drill, round, scenarios) = try #require(Self.drills().first { $0.0.id == "chat" })
    let seed = try #require((UInt64(0)..<50).first { scenarios.scenario(seed: $0).id == "coach-chat" })
    let key = scenarios.scenario(named: "coach-chat")!.keys
    let text = try Self.answers(round, scenarios, seed: seed) { decision, after in after ? key[decision.id]!.then.choice : key[decision.id]!.choice }
    let terse = text.replacingOccurrences(of: Self.said("cost", "transport", scenarios), with: "- cost transport: battery")
      .replacingOccurrences(of: Self.said("why", "history", scenarios), with: "- why history: it depends")
    let assessment = try Self.levels(drill, round, scenarios, text: terse, seed: seed)
    let grades = Dictionary(uniqueKeysWithValues: assessment.grades.map { ($0.decision, $0) })
    #expect(grades["transport"]?.level == .senior && grades["history"]?.level == .senior && grades["sync-service"]?.level == .staff)
    #expect(grades["transport"]?.findings == ["the choice's cost is not said (cost transport: …, 4 words or more)"])
    let asked = key["history"]!.changes(scenario: "coach-chat", decision: "history")[0].say
    #expect(grades["history"]?.findings == ["why “\(asked)” moves the choice, or does not, is not said (why history: …, 4 words or more)"])
    #expect(DecisionGrade.said("a socket per open app") && !DecisionGrade.said("  more battery  "))
  }

  @Test("a cost or a why of four words or more that names nothing of the decision is padding: below senior, and the finding quotes it without the key")
  func paddedCostAndWhy() throws {
    for (drill, round, scenarios) in try Self.drills() {
      for seed in UInt64(0)..<6 {
        let scenario = scenarios.scenario(seed: seed)
        let keyed = try Self.answers(round, scenarios, seed: seed) { decision, after in
          after ? scenario.keys[decision.id]!.then.choice : scenario.keys[decision.id]!.choice
        }
        // The key's choices and estimates, with filler where the costs and reasons go.
        var padded = keyed
        for decision in scenarios.decisions {
          padded = padded.replacingOccurrences(of: Self.said("cost", decision.id, scenarios), with: "- cost \(decision.id): there are real trade-offs here")
          for field in ["why", "why-instead"] {
            padded = padded.replacingOccurrences(of: Self.said(field, decision.id, scenarios), with: "- \(field) \(decision.id): it depends on the constraints")
          }
        }
        let assessment = try Self.levels(drill, round, scenarios, text: padded, seed: seed)
        for area in round.areas {
          #expect(assessment.levels[area.name] == .belowSenior, "drill \(drill.id), seed \(seed): \(area.name) with padded costs")
        }
        for grade in assessment.grades where grade.decision != DrillScenarios.deepDivePick {
          #expect(grade.findings.contains("cost \(grade.decision): “there are real trade-offs here” names no cost of this choice in this scenario"))
          let key = scenario.keys[grade.decision]!
          #expect(!grade.findings.contains { $0.contains(key.because) || $0.contains(key.then.because) })
        }
      }
    }
    let chat = try #require(Self.drills().first { $0.0.id == "chat" }).2
    let transport = try #require(chat.decisions.first { $0.id == "transport" })
    #expect(transport.isAbout("about 3 million held Sockets, and reconnect storms") && !transport.isAbout("it depends on the constraints"))
  }

  @Test("an estimate outside the factor, a choice the scenario does not call for and a missing choice are below senior, each said")
  func findings() throws {
    let (drill, round, scenarios) = try #require(Self.drills().first { $0.0.id == "chat" })
    let seed = try #require((UInt64(0)..<50).first { scenarios.scenario(seed: $0).id == "coach-chat" })
    let key = { (decision: DrillScenarios.Decision, after: Bool) -> String in
      let key = scenarios.scenario(named: "coach-chat")!.keys[decision.id]!
      return after ? key.then.choice : key.choice
    }
    var text = try Self.answers(round, scenarios, seed: seed, choose: key)
    text = text.components(separatedBy: "\n").map { $0.hasPrefix("- estimate peak-sockets:") ? "- estimate peak-sockets: 1M" : $0 }
      .joined(separator: "\n")
    text = text.replacingOccurrences(of: "- choice transport: push-and-pull", with: "- choice transport: websocket")
    text = text.replacingOccurrences(of: "- choice history: recent-window", with: "")
    let assessment = try Self.levels(drill, round, scenarios, text: text, seed: seed)
    let findings = assessment.grades.flatMap(\.findings).joined(separator: "\n")
    #expect(
      findings.contains("you said 1,000,000, not within a factor 2 of the scenario's arithmetic; work it from the card's numbers: “daily active users”"),
      "\(findings)")
    #expect(findings.contains("the choice: you chose websocket, which does not fit this scenario"), "\(findings)")
    #expect(findings.contains("the choice: no choice committed to (one of recent-window, full-history)"))
    for leak in ["40,000", "dau * peakShare", "calls for", "push-and-pull", "because"] {
      #expect(!findings.contains(leak), "the candidate's findings give away the key: \(leak)")
    }
    let told = assessment.grades.flatMap(\.key).joined(separator: "\n")
    #expect(told.contains("the scenario's arithmetic gives about 40,000 connections (dau * peakShare)"), "\(told)")
    #expect(told.contains("the choice: this scenario calls for push-and-pull, because four messages a day"), "\(told)")
    #expect(assessment.levels["Protocol"] == .belowSenior && assessment.levels["Design"] == .belowSenior)
  }

  @Test("make drill-NAME ANSWERS= names the decision and estimate that missed without the key; KEY=1 prints the key's choice and arithmetic")
  func keyOnlyWhenAsked() throws {
    let (drill, round, scenarios) = try #require(Self.drills().first { $0.0.id == "chat" })
    let seed = try #require((UInt64(0)..<50).first { scenarios.scenario(seed: $0).id == "coach-chat" })
    let key = scenarios.scenario(named: "coach-chat")!.keys
    var text = try Self.answers(round, scenarios, seed: seed) { decision, after in after ? key[decision.id]!.then.choice : key[decision.id]!.choice }
    text = text.replacingOccurrences(of: "- choice transport: push-and-pull", with: "- choice transport: websocket")
    text = text.components(separatedBy: "\n").filter { !$0.hasPrefix("- estimate peak-sockets:") }.joined(separator: "\n")
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("answers-\(UUID().uuidString).md").path
    try text.write(toFile: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: file) }
    func scored(showKey: Bool) throws -> String {
      var output = ""
      let console = DrillCommand.Console(interactive: false, readLine: { nil }, write: { output += $0 })
      try DrillCommand.score(drill, answers: file, root: Self.root, console: console, seed: nil, showKey: showKey)
      return DrillFixture.plain(output)
    }
    let plain = try scored(showKey: false)
    #expect(plain.contains("the choice: you chose websocket, which does not fit this scenario"), "\(plain)")
    #expect(plain.contains("no estimate given; work it from the card's numbers"), "\(plain)")
    #expect(plain.contains("add KEY=1 to see them"))
    for leak in ["40,000", "calls for push-and-pull", "riskiest part is"] { #expect(!plain.contains(leak), "\(leak) gives the key away") }
    let keyed = try scored(showKey: true)
    #expect(keyed.contains("key: the choice: this scenario calls for push-and-pull, because"), "\(keyed)")
    #expect(keyed.contains("about 40,000 connections (dau * peakShare)"), "\(keyed)")
    #expect(try DrillCommand(["chat", "--answers", file, "--key"]).showKey)
    #expect(try !DrillCommand(["chat", "--answers", file]).showKey)
  }

  @Test("workbook check names a change that flips nothing, a right choice that never flips, and an estimate it cannot work out")
  func checkFindsBrokenKeys() throws {
    let (_, round, scenarios) = try #require(Self.drills().first { $0.0.id == "chat" })
    let path = "\(Self.root)/Drills/chat/\(DrillScenarios.fileName)"
    var text = try String(contentsOfFile: path, encoding: .utf8)
    text = text.replacingOccurrences(of: "\"choice\": \"websocket\", \"because\": \"APNs", with: "\"choice\": \"push-and-pull\", \"because\": \"APNs")
    text = text.replacingOccurrences(of: "\"formula\": \"dau * peakShare\"", with: "\"formula\": \"dau * peakShares\"")
    let broken = try JSONDecoder().decode(DrillScenarios.self, from: Data(text.utf8))
    #expect(broken != scenarios)
    let problems = broken.problems(round: round).joined(separator: "\n")
    #expect(problems.contains("scenario coach-chat: no decision of Protocol changes its choice after its `then`"), "\(problems)")
    let unconditioned = text.replacingOccurrences(
      of: "\"because\": \"four messages a day",
      with: "\"accepted\": [{ \"choice\": \"websocket\", \"cost\": \"a fleet\", \"mentions\": [] }], \"because\": \"four messages a day"
    )
    let arguable = try JSONDecoder().decode(DrillScenarios.self, from: Data(unconditioned.utf8)).problems(round: round).joined()
    #expect(arguable.contains("scenario coach-chat, decision transport: the accepted websocket names no condition an answer must state"), "\(arguable)")
    let holdless = text.components(separatedBy: "\n").filter { !$0.contains("\"hold\": {") }.joined(separator: "\n")
      .replacingOccurrences(of: "\" },\n        }", with: "\" }\n        }")
    let neverHolds = try JSONDecoder().decode(DrillScenarios.self, from: Data(holdless.utf8)).problems(round: round).joined()
    #expect(neverHolds.contains("decision history has no hold: write a change its choice survives"), "\(neverHolds)")
    #expect(problems.contains("estimate peak-sockets cannot be worked out: “peakShares” is not a constraint of the scenario"))
  }

  @Test("chapter 4's library bought under signed URLs is argued by any way of naming its condition, and not by its cost alone")
  func acceptedConditionInOwnWords() throws {
    let (_, _, scenarios) = try #require(Self.drills().first { $0.0.id == "4" })
    let key = try #require(scenarios.scenario(named: "photo-social")?.keys["image-library"])
    let buy = try #require(key.accepted?.first { $0.choice == "buy" })
    for said in [
      "its threading, resting on the security review allowing third-party code", "its threading, and its custom keys for the signed URLs",
      "its threading, and a cache key without the signature", "Nuke's policies, if it can strip the URL's signature",
    ] {
      #expect(buy.isArgued(by: said), "\(said)")
    }
    #expect(!buy.isArgued(by: "we take on Nuke's threading model, its policies and an upgrade cadence we do not control"))
  }

  @Test("an accepted choice scores with its cost and condition said, and is below senior without them")
  func accepted() throws {
    let (drill, round, scenarios) = try #require(Self.drills().first { $0.0.id == "6" })
    let seed = try #require((UInt64(0)..<50).first { scenarios.scenario(seed: $0).id == "photo-sharing" })
    let key = scenarios.scenario(named: "photo-sharing")!.keys
    let text = try Self.answers(round, scenarios, seed: seed) { decision, after in
      decision.id == "image-fetching" && !after ? "visible-only" : after ? key[decision.id]!.then.choice : key[decision.id]!.choice
    }
    // The hold leaves the scenario as it was, so the accepted choice kept through it is argued again.
    let held = key["image-fetching"]!.changes(scenario: "photo-sharing", decision: "image-fetching")[0].holds ? "why" : "why-instead"
    let conditioned = text.replacingOccurrences(
      of: Self.said("cost", "image-fetching", scenarios), with: "- cost image-fetching: cells stay blank a moment on a fast scroll"
    ).replacingOccurrences(of: Self.said(held, "image-fetching", scenarios), with: "- \(held) image-fetching: cells still stay blank a moment on a fast scroll")
    #expect(try Self.levels(drill, round, scenarios, text: conditioned, seed: seed).levels["Design"] == .staff)
    let assessment = try Self.levels(drill, round, scenarios, text: text, seed: seed)
    #expect(assessment.levels["Design"] == .belowSenior, "a cost that names no condition of the alternative")
    #expect(
      assessment.grades.flatMap(\.findings).contains {
        $0.contains("visible-only can fit here only with its cost and the condition it rests on said (cost image-fetching: …, 4 words or more)")
      })
    let price = try #require(key["image-fetching"]?.accepted?.first { $0.choice == "visible-only" }?.cost)
    #expect(!assessment.grades.flatMap(\.findings).contains { $0.contains(price) }, "the cost the key asks for is the key's")
    #expect(assessment.grades.flatMap(\.key).contains { $0.contains(price) })
  }

  @Test("after a licence that bans partner photos, snapshots kept without partner photos score when the why names them")
  func acceptedAfterTheChange() throws {
    let (drill, round, scenarios) = try #require(Self.drills().first { $0.0.id == "6" })
    let seed = try #require((UInt64(0)..<50).first { scenarios.scenario(seed: $0).id == "photo-sharing" })
    let key = scenarios.scenario(named: "photo-sharing")!.keys
    let text = try Self.answers(round, scenarios, seed: seed) { decision, after in
      decision.id == "feed-on-launch" ? "disk-snapshot" : after ? key[decision.id]!.then.choice : key[decision.id]!.choice
    }
    let argued = text.replacingOccurrences(
      of: Self.said("why", "feed-on-launch", scenarios), with: "- why feed-on-launch: keep the snapshot and leave partner posts out of it")
    #expect(try Self.levels(drill, round, scenarios, text: argued, seed: seed).levels["Design"] == .staff)
    let unargued = try Self.levels(drill, round, scenarios, text: text, seed: seed)
    #expect(unargued.levels["Design"] == .belowSenior, "the same snapshot with a why that names no condition")
    #expect(
      unargued.grades.flatMap(\.findings).contains {
        $0.contains("disk-snapshot can fit here only with its cost and the condition it rests on said (why feed-on-launch")
      })
  }

  @Test("on 50 seeds, a candidate who says every change moves the choice is below senior where a change leaves it, and a hold without its why is senior")
  func alwaysChangingMisses() throws {
    var held = Set<String>()
    for (drill, round, scenarios) in try Self.drills() {
      for seed in UInt64(0)..<50 {
        let scenario = scenarios.scenario(seed: seed)
        let holding = scenarios.decisions(in: round, deepDive: round.deepDive(seed: seed)).filter { scenario.keys[$0.id]?.hold != nil }
        guard !holding.isEmpty else { continue }
        held.insert(drill.id)
        let keyed = try Self.answers(round, scenarios, seed: seed) { decision, after in
          after ? scenario.keys[decision.id]!.then.choice : scenario.keys[decision.id]!.choice
        }
        let alwaysChanges = try Self.answers(round, scenarios, seed: seed) { decision, _ in scenario.keys[decision.id]!.then.choice }
          .components(separatedBy: "\n").map { line in
            // The first choice stays the key's: only the answers to the changes always say it moves.
            guard line.hasPrefix("- choice "), let id = line.dropFirst("- choice ".count).split(separator: ":").first else { return line }
            return "- choice \(id): \(scenario.keys[String(id)]!.choice)"
          }.joined(separator: "\n")
        var noWhy = keyed
        for decision in holding {
          let field = scenario.keys[decision.id]!.changes(scenario: scenario.id, decision: decision.id)[0].holds ? "why" : "why-instead"
          noWhy = noWhy.replacingOccurrences(of: Self.said(field, decision.id, scenarios), with: "")
        }
        let changing = try Self.levels(drill, round, scenarios, text: alwaysChanges, seed: seed)
        let silent = try Self.levels(drill, round, scenarios, text: noWhy, seed: seed)
        for decision in holding {
          let area = try #require(scenarios.area(of: decision, in: round)).name
          #expect(changing.levels[area] == .belowSenior, "drill \(drill.id), seed \(seed), \(decision.id): always yes, it changes")
          #expect(
            changing.grades.first { $0.decision == decision.id }?.findings.contains {
              // An alternative the scenario accepts stays open through the hold, with its condition.
              $0.hasPrefix("after “\(scenario.keys[decision.id]!.hold!.say)”: you chose")
                || $0.hasPrefix("after “\(scenario.keys[decision.id]!.hold!.say)”: \(scenario.keys[decision.id]!.then.choice) can fit here only")
            }
              == true)
          #expect(silent.levels[area] == .senior, "drill \(drill.id), seed \(seed), \(decision.id): the choice kept without saying why")
        }
      }
    }
    #expect(held == Set(try Self.drills().map(\.0.id)), "every drill has a change its choice survives on some seed: \(held)")
  }

  @Test("each drill's written staff exemplar scores staff in every area, and its senior exemplar senior, through make drill-NAME ANSWERS=")
  func exemplars() throws {
    for (drill, round, scenarios) in try Self.drills() {
      for level in [DrillLevel.senior, .staff] {
        let relative = "\(drill.folder)/\(DrillExemplars.folder)/\(DrillExemplars.fileName(level))"
        let text = try String(contentsOfFile: "\(Self.root)/\(relative)", encoding: .utf8)
        // The answer: from the first phase on, its decision lines included, without headings or marks.
        let answer = text.components(separatedBy: "\n").drop { !$0.hasPrefix("## ") }.filter { !$0.hasPrefix("- [") && !$0.hasPrefix("#") }
        let words = answer.joined(separator: " ").split(whereSeparator: \.isWhitespace).count
        #expect((300...550).contains(words), "\(relative): \(words) words of answer; an exemplar is about 400")
        let levels = try Self.levels(drill, round, scenarios, text: text, seed: nil).levels
        for area in round.areas {
          #expect(levels[area.name] == level, "\(relative): \(area.name) is \(levels[area.name]?.rawValue ?? "?")")
        }
        #expect(DrillExemplars.problems("\(Self.root)/\(relative)", level: level, round: round, scenarios: scenarios, drillFile: drill.file).isEmpty)
        var output = ""
        let console = DrillCommand.Console(interactive: false, readLine: { nil }, write: { output += $0 })
        try DrillCommand.score(drill, answers: "\(Self.root)/\(relative)", root: Self.root, console: console, seed: nil)
        let rows = DrillFixture.plain(output).components(separatedBy: "\n").filter { line in round.areas.contains { line.hasPrefix("  \($0.name) ") } }
        #expect(rows.count == round.areas.count && rows.allSatisfy { $0.contains(" \(level.rawValue) ") }, "\(relative): \(rows)")
      }
    }
  }

  @Test("a deep dive the candidate picks is graded against the scenario's ranking of risks; one drawn by SEED= is not")
  func deepDivePick() throws {
    for (drill, round, scenarios) in try Self.drills() {
      for seed in UInt64(0)..<12 {
        let scenario = scenarios.scenario(seed: seed)
        let text = try Self.answers(round, scenarios, seed: seed) { decision, after in
          after ? scenario.keys[decision.id]!.then.choice : scenario.keys[decision.id]!.choice
        }
        let dive = try #require(round.deepDive(seed: seed))
        let area = try #require(round.areas.first { $0.phases.contains(round.options[0].number) }).name
        let picked = try Self.levels(drill, round, scenarios, text: text, seed: nil)
        let top = scenario.risks[0]
        if dive == top.dive {
          #expect(picked.levels[area] == .staff, "drill \(drill.id), \(scenario.id): the riskiest part picked")
        } else {
          #expect(picked.levels[area] == .senior, "drill \(drill.id), \(scenario.id): \(dive) picked, \(top.dive) is riskiest")
          let grade = try #require(picked.grades.first { $0.decision == DrillScenarios.deepDivePick })
          #expect(grade.findings.first?.hasPrefix("you went deep on \(dive); another part of the design is at more risk") == true)
          #expect(grade.key == ["this scenario's riskiest part is \(top.dive), because \(top.because)"])
        }
        #expect(try Self.levels(drill, round, scenarios, text: text, seed: seed).levels[area] == .staff, "a drawn deep dive is not the candidate's pick")
      }
    }
  }

  @Test("a missed must-hit, judgment or bonus signal becomes a card that asks the phase's question in a scenario, never the rubric's words")
  func signalCardsAskTheScenario() throws {
    for (drill, round, _) in try Self.drills() {
      for signal in round.allSignals {
        let card = DrillSignalCards.question(drill, round: round, signal: signal, root: Self.root)
        // A one- or two-word cue ("Rollout", "Cost") may be a word of the phase's own question.
        #expect(signal.cue.split(separator: " ").count < 3 || !card.heading.contains(signal.cue), "drill \(drill.id): \(signal.cue) is echoed")
        #expect(!card.heading.contains(signal.text) && !card.body.contains(signal.text), "drill \(drill.id): \(signal.id)'s text is echoed")
        let staff = try #require(DrillSignalCards.StaffAnswer.read(drill, root: Self.root))
        #expect(card.heading.contains(staff.card), "drill \(drill.id): the card states the staff answer's scenario and numbers")
        let phase = signal.phase == DrillAnswers.communication ? round.phases[0].label : signal.phase
        if let said = staff.said(in: phase) {
          #expect(card.body.contains("A staff answer (\(staff.scenario)) said: \(said)"), "drill \(drill.id), \(signal.id): \(card.body)")
        } else {
          #expect(round.options.contains { $0.label == phase }, "drill \(drill.id): only a deep dive the staff answer did not take has no prose")
        }
      }
    }
  }

  @Test("numbers are read as a candidate writes them")
  func numbers() throws {
    #expect(ScenarioFormula.number("400k") == 400_000)
    #expect(ScenarioFormula.number("1.5M connections") == 1_500_000)
    #expect(ScenarioFormula.number("2,000,000") == 2_000_000)
    #expect(ScenarioFormula.number("30 MB") == 30)
    #expect(ScenarioFormula.number("2e6") == 2_000_000)
    #expect(ScenarioFormula.number("about 5") == nil)
    #expect(try ScenarioFormula.evaluate("(a + 2) * b / 4", values: ["a": 2, "b": 3]) == 3)
  }
}
