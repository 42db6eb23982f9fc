import Foundation

/// What a candidate said at the decision points of a round, as an answers file writes it:
///
///     scenario: marketplace
///     - choice transport: push-and-pull
///     - cost transport: a message waits for the next fetch when the push is late
///     - estimate peak-sockets: 40k
///     - then transport: websocket
///     - why transport: at 20 messages a session, polling costs more than the held socket
///     - instead transport: push-and-pull
///     - why-instead transport: eight messages a day are still met by a push and a fetch
///
/// Ids are the decisions' and the estimates' in the drill's `scenarios.json`.
struct DecisionAnswers: Equatable {
  var scenario: String?
  var choices: [String: String] = [:]
  var costs: [String: String] = [:]
  var estimates: [String: String] = [:]
  var thens: [String: String] = [:]
  var whys: [String: String] = [:]
  /// The choice after the second change asked ("Or instead: …"), and why, for a decision whose
  /// key has a hold; which of the two changes moves the choice is the scenario's, not the field's.
  var insteads: [String: String] = [:]
  var insteadWhys: [String: String] = [:]

  static let fields = ["choice", "cost", "estimate", "then", "why", "instead", "why-instead"]

  var isEmpty: Bool {
    scenario == nil && choices.isEmpty && costs.isEmpty && estimates.isEmpty && thens.isEmpty && whys.isEmpty && insteads.isEmpty
      && insteadWhys.isEmpty
  }

  /// Reads `line` when it is a decision line or `scenario: id`; false for any other line.
  mutating func read(_ line: String) -> Bool {
    var text = Substring(line.trimmingCharacters(in: .whitespaces))
    if text.hasPrefix("- ") { text = text.dropFirst(2) }
    if text.lowercased().hasPrefix("scenario:") {
      scenario = text.dropFirst("scenario:".count).trimmingCharacters(in: .whitespaces)
      return true
    }
    guard let space = text.firstIndex(of: " "), let colon = text.firstIndex(of: ":"), space < colon else { return false }
    let field = text[..<space].lowercased()
    guard Self.fields.contains(field) else { return false }
    let id = text[text.index(after: space)..<colon].trimmingCharacters(in: .whitespaces).lowercased()
    guard !id.isEmpty, !id.contains(" ") else { return false }
    let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    switch field {
    case "choice": choices[id] = value.lowercased()
    case "cost": costs[id] = value
    case "estimate": estimates[id] = value
    case "then": thens[id] = value.lowercased()
    case "instead": insteads[id] = value.lowercased()
    case "why-instead": insteadWhys[id] = value
    default: whys[id] = value
    }
    return true
  }

  /// The ids named that the drill does not have, for a refusal that names them.
  func unknownIds(_ scenarios: DrillScenarios) -> [String] {
    let decisions = Set(scenarios.decisions.map(\.id))
    let estimateIds = Set(scenarios.decisions.flatMap(\.estimates).map(\.id))
    var unknown: [String] = []
    for (field, ids) in [
      ("choice", choices.keys), ("cost", costs.keys), ("then", thens.keys), ("why", whys.keys), ("instead", insteads.keys),
      ("why-instead", insteadWhys.keys),
    ] {
      unknown += ids.filter { !decisions.contains($0) }.map { "\(field) \($0)" }
    }
    unknown += estimates.keys.filter { !estimateIds.contains($0) }.map { "estimate \($0)" }
    return unknown.sorted()
  }
}

/// One decision point graded against a scenario's key. Below senior when the candidate committed to
/// no choice, to one that does not fit the scenario, to an accepted one without its cost and
/// condition, to an estimate outside the scenario's arithmetic, to the wrong choice once a
/// constraint changed (a change the key survives included: "yes, it changes" is not always right),
/// or when a cost or why is padding that names nothing this decision costs or rests on;
/// staff when every part fits and the choice's cost and what each change did to it are said;
/// senior between.
struct DecisionGrade: Equatable {
  let decision: String
  let level: DrillLevel
  /// What was measured, one line each, for the candidate: which part missed and what to weigh,
  /// never the key's choice, its reason or its arithmetic, so a missed decision can be answered
  /// again without the answer in view.
  let findings: [String]
  /// What the key says about each part that missed (its choice and reason, the arithmetic, the
  /// cost and condition an accepted choice needs), shown with `KEY=1` and in the interviewer's kit.
  var key: [String] = []

  static func grade(_ decision: DrillScenarios.Decision, scenario: DrillScenarios.Scenario, answers: DecisionAnswers) -> DecisionGrade {
    grade(decision, scenario: scenario, answers: answers, constraints: [])
  }

  /// `constraints` name, in a missed estimate's finding, the card's numbers its arithmetic rests on.
  static func grade(
    _ decision: DrillScenarios.Decision, scenario: DrillScenarios.Scenario, answers: DecisionAnswers,
    constraints: [DrillScenarios.Constraint]
  ) -> DecisionGrade {
    guard let key = scenario.keys[decision.id] else {
      return DecisionGrade(decision: decision.id, level: .belowSenior, findings: ["the scenario has no key for \(decision.id)"])
    }
    var wrong: [String] = []
    var short: [String] = []
    var told: [String] = []
    let cost = Self.said(answers.costs[decision.id])
    // A line long enough to count that names nothing of this decision ("there are real trade-offs
    // here") is padding, not a short answer: it misses, where a line left out or too short only
    // keeps the decision from staff.
    func bluffs(_ text: String?, field: String, names: String) {
      guard let text, Self.said(text), !decision.isAbout(text) else { return }
      wrong.append("\(field) \(decision.id): “\(text)” names no \(names) of this choice in this scenario")
    }
    bluffs(answers.costs[decision.id], field: "cost", names: "cost")
    func judge(_ choice: String?, right: String, because: String, accepted: [DrillScenarios.Alternative]?, argued: String?, field: String, when: String) {
      guard let choice, !choice.isEmpty else {
        wrong.append("\(when): no choice committed to (one of \(decision.choices.joined(separator: ", ")))")
        return
      }
      if choice == right { return }
      if let other = accepted?.first(where: { $0.choice == choice }) {
        if !Self.said(argued) || !other.isArgued(by: argued) {
          wrong.append(
            "\(when): \(choice) can fit here only with its cost and the condition it rests on said "
              + "(\(field) \(decision.id): …, \(Self.sayingWords) words or more)")
          told.append("\(when): \(choice) costs \(other.cost); an answer names \(other.mentions.map { "“\($0)”" }.joined(separator: " or "))")
        }
        return
      }
      wrong.append("\(when): you chose \(choice), which does not fit this scenario; weigh the choices again against the card's numbers")
      told.append("\(when): this scenario calls for \(right), because \(because)")
    }
    judge(
      answers.choices[decision.id], right: key.choice, because: key.because, accepted: key.accepted, argued: answers.costs[decision.id],
      field: "cost", when: "the choice")
    for estimate in decision.estimates {
      guard let expected = try? ScenarioFormula.evaluate(estimate.formula, values: scenario.values) else { continue }
      let said = answers.estimates[estimate.id].flatMap(ScenarioFormula.number)
      let shownExpected = "\(DrillScenarios.shown(expected.rounded(toSignificant: 2))) \(estimate.unit)"
      let arithmetic = "\(estimate.question): the scenario's arithmetic gives about \(shownExpected) (\(estimate.formula))"
      let named = constraints.filter { Self.words(of: estimate.formula).contains($0.id) }.map(\.says)
      let weigh = "work it from the card's numbers" + (named.isEmpty ? "" : ": " + named.map { "“\($0)”" }.joined(separator: ", "))
      guard let said else {
        wrong.append("\(estimate.question): no estimate given; \(weigh)")
        told.append(arithmetic)
        continue
      }
      if !(expected / estimate.factor...expected * estimate.factor).contains(said) && !(expected == 0 && said == 0) {
        wrong.append(
          "\(estimate.question): you said \(DrillScenarios.shown(said)), not within a factor "
            + "\(DrillScenarios.shown(estimate.factor)) of the scenario's arithmetic; \(weigh)")
        told.append(arithmetic)
      }
    }
    var unexplained: [String] = []
    let asked = [(answers.thens, answers.whys, "why"), (answers.insteads, answers.insteadWhys, "why-instead")]
    for (change, (choices, whys, field)) in zip(key.changes(scenario: scenario.id, decision: decision.id), asked) {
      judge(
        choices[decision.id], right: change.choice, because: change.because, accepted: change.accepted, argued: whys[decision.id],
        field: field, when: "after “\(change.say)”")
      bluffs(whys[decision.id], field: field, names: "reason")
      if !Self.said(whys[decision.id]) {
        unexplained.append("why “\(change.say)” moves the choice, or does not, is not said (\(field) \(decision.id): …, \(Self.sayingWords) words or more)")
      }
    }
    if !cost { short.append("the choice's cost is not said (cost \(decision.id): …, \(Self.sayingWords) words or more)") }
    short += unexplained
    let level: DrillLevel = !wrong.isEmpty ? .belowSenior : short.isEmpty ? .staff : .senior
    return DecisionGrade(decision: decision.id, level: level, findings: wrong + short, key: told)
  }

  /// The fewest words a cost or a why counts with: "slow" or "more battery" name no price; a line
  /// this long must also name one of the decision's topics (`Decision.isAbout`), or it is padding.
  static let sayingWords = 4

  /// Whether a cost or why line says something: `sayingWords` words or more.
  static func said(_ text: String?) -> Bool {
    (text ?? "").split(whereSeparator: \.isWhitespace).count >= sayingWords
  }

  /// The names in a formula: `dau * peakShare / 1000` has `dau` and `peakShare`.
  static func words(of formula: String) -> Set<String> {
    Set(formula.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
  }
}

extension Double {
  /// 1234567 to 2 significant digits is 1200000: an expected value shown as an estimate is said.
  func rounded(toSignificant digits: Int) -> Double {
    guard self != 0, isFinite else { return self }
    let scale = pow(10, Double(digits) - ceil(log10(abs(self))))
    return (self * scale).rounded() / scale
  }
}

extension DrillScenarios {
  /// Each decision of the run graded, in the file's order.
  func grades(_ round: DrillRound, deepDive: String?, scenario: Scenario, answers: DecisionAnswers) -> [DecisionGrade] {
    decisions(in: round, deepDive: deepDive).map {
      DecisionGrade.grade($0, scenario: scenario, answers: answers, constraints: constraints)
    }
  }

  /// The candidate's own pick of the deep dive graded against the scenario's ranking of risks:
  /// picking the riskiest is what a staff candidate does, so any other pick keeps the deep dive's
  /// area at senior at most, and says which part this scenario puts at risk. Nil when the deep dive
  /// was drawn by a seed, not picked.
  func pickGrade(_ pick: String?, scenario: Scenario) -> DecisionGrade? {
    guard let pick, let top = scenario.risks.first else { return nil }
    if pick == top.dive { return DecisionGrade(decision: Self.deepDivePick, level: .staff, findings: []) }
    return DecisionGrade(
      decision: Self.deepDivePick, level: .senior,
      findings: ["you went deep on \(pick); another part of the design is at more risk in this scenario: weigh the card's numbers"],
      key: ["this scenario's riskiest part is \(top.dive), because \(top.because)"])
  }

  /// The grade's name for the deep dive's pick, beside the decisions'.
  static let deepDivePick = "deep-dive pick"

  /// The signal levels capped by the decisions: an area is no higher than its lowest decision, so
  /// the rubric's words marked hit cannot lift an area whose choices did not fit the scenario. An
  /// area without decisions (requirements, communication, often the deep dive) is no higher than the
  /// lowest area with them: marks alone set its level, so a recital that marks every signal and
  /// commits to nothing would otherwise reach staff there.
  func levels(
    _ round: DrillRound, signalLevels: [String: DrillLevel], deepDive: String?, grades: [DecisionGrade]
  ) -> [String: DrillLevel] {
    var levels = signalLevels
    var decided: Set<String> = []
    for decision in decisions(in: round, deepDive: deepDive) {
      guard let area = area(of: decision, in: round), let grade = grades.first(where: { $0.decision == decision.id }) else { continue }
      levels[area.name] = Swift.min(levels[area.name] ?? .belowSenior, grade.level)
      decided.insert(area.name)
    }
    if let floor = decided.map({ levels[$0] ?? .belowSenior }).min() {
      for area in round.areas where !decided.contains(area.name) {
        levels[area.name] = Swift.min(levels[area.name] ?? .belowSenior, floor)
      }
    }
    if let pick = grades.first(where: { $0.decision == Self.deepDivePick }), let number = round.options.first?.number,
      let area = round.areas.first(where: { $0.phases.contains(number) })
    {
      levels[area.name] = Swift.min(levels[area.name] ?? .belowSenior, pick.level)
    }
    return levels
  }
}

extension DrillScenarios.Decision {
  /// Whether a cost or why line names one of the decision's topics, at the start of a word: a
  /// line's words are its letters, digits and `$`, lower case, so "Sockets," takes "socket" and
  /// "third-party code" takes "third party".
  func isAbout(_ text: String?) -> Bool {
    let line = " " + Self.words(text ?? "") + " "
    return topics.contains { line.contains(" " + Self.words($0)) }
  }

  /// `text` in lower case with every run of other characters than letters, digits and `$` one space.
  static func words(_ text: String) -> String {
    text.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "$") }.joined(separator: " ")
  }
}
