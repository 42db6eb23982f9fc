import Foundation

/// The signals a learner missed in drills, as cards that `make review` asks and `make flashcards`
/// exports, scheduled by the same SM-2 `Schedule` as the interview questions.
///
/// A signal becomes a card the first time it is marked missed, and stays one (a later hit does not
/// remove it: the schedule spaces it out as it is answered well). Its key is
/// `drill-<id>/<signal id>`, so it never collides with a question's `<chapter>/<slug>`, and its
/// text is read from the drill as it is now: a signal whose cue was edited away is no card.
enum DrillSignalCards {
  /// The prefix of every card key made from a drill.
  static let keyPrefix = "drill-"

  static func key(drill: String, signal: DrillSignal) -> String { "\(keyPrefix)\(drill)/\(signal.id)" }

  /// One card: the phase's question as the round asks it, never the signal's cue or text, so what is
  /// rehearsed is answering the interviewer, not recalling the rubric. With a written staff answer
  /// beside the drill, the card asks that answer's scenario (its card and numbers) and its answer is
  /// what the staff answer said in the phase (a deep dive it did not take points to the drill's
  /// written answers instead); a communication signal asks the round's opening.
  static func question(_ drill: Drill, round: DrillRound, signal: DrillSignal, root: String = ".") -> InterviewQuestion {
    let phase = round.phases.first { $0.label == signal.phase } ?? round.phases.first
    let place = phase.map { "phase \($0.label), \($0.title)" } ?? "the round"
    let asked = phase.map { prompt(of: $0) } ?? "Open the round as you would."
    let staff = StaffAnswer.read(drill, root: root)
    let setting = staff.map { " \($0.card)" } ?? ""
    let heading = "\(drill.title) (\(place)):\(setting) \(asked) Answer it aloud as you would in the round, then compare."
    let level: String
    switch signal.kind {
    case .mustHit: level = "Missed at senior"
    case .judgment: level = "Missed at staff"
    case .bonus: level = "Missed depth"
    }
    let compared =
      staff.flatMap { answer in phase.flatMap { answer.said(in: $0.label) }.map { "A staff answer (\(answer.scenario)) said: \($0)" } }
      ?? "Compare with the drill's written answers: make drill-\(drill.id) ROLE=interviewer shows what senior and staff answers sound like."
    let answer = "\(level) (\(signal.kind == .bonus ? "no level" : "its area")). \(compared)"
    return InterviewQuestion(
      chapter: drill.chapter ?? 0, chapterTitle: "Drill: \(drill.title)", heading: heading, body: answer,
      modelAnswer: answer, followUps: "", redFlags: "", key: key(drill: drill.id, signal: signal), drill: drill.id)
  }

  /// A phase's prompts as one question, the way the interviewer says them.
  static func prompt(of phase: DrillRound.Phase) -> String {
    phase.prompts.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      .map { $0.hasPrefix("- ") ? String($0.dropFirst(2)) : $0 }.filter { !$0.isEmpty }.joined(separator: " ")
  }

  /// The drill's written staff answer (`exemplars/staff.md`): its scenario and what it said in each phase.
  struct StaffAnswer {
    let scenario: String
    /// The scenario's card with its numbers, on one line.
    let card: String
    let text: String

    static func read(_ drill: Drill, root: String) -> StaffAnswer? {
      let file = "\(drill.folder)/\(DrillExemplars.folder)/\(DrillExemplars.fileName(.staff))"
      guard let text = TextFile.read(path(file, in: root)), let scenarios = try? DrillScenarios.load(drill, root: root),
        let answers = try? DrillAnswers.parse(text, shown: file), let id = answers.decisions.scenario,
        let scenario = scenarios.scenario(named: id)
      else { return nil }
      let numbers = scenarios.constraints.compactMap { constraint in
        scenario.values[constraint.id].map { "\(constraint.says) \(DrillScenarios.shown($0))" }
      }
      let card = "\(scenario.card) (\(numbers.joined(separator: "; ")))"
      return StaffAnswer(scenario: id, card: card, text: text)
    }

    /// The prose of the section for phase `label`, without its marks and decision lines.
    func said(in label: String) -> String? {
      var inside = false
      var kept: [String] = []
      for raw in text.components(separatedBy: "\n") {
        let line = raw.trimmingCharacters(in: .whitespaces)
        if line.hasPrefix("## ") {
          let heading = line.dropFirst(3)
          inside = heading.hasPrefix(label) && !(heading.dropFirst(label.count).first.map { $0.isNumber || $0.isLowercase } ?? false)
          continue
        }
        var decision = DecisionAnswers()
        guard inside, !line.isEmpty, !line.hasPrefix("- ["), !decision.read(line) else { continue }
        kept.append(line)
      }
      return kept.isEmpty ? nil : kept.joined(separator: " ")
    }
  }

  /// A decision point below staff, as the scenario's question: the card states the scenario's
  /// numbers and asks for a choice, the numbers it rests on and what would flip it, and the answer
  /// is the scenario's key. It never quotes a signal: what is rehearsed is deciding under these
  /// constraints, not the rubric's words. Its key, `drill-<id>/decision/<decision>/<scenario>`,
  /// keeps one card per decision and scenario.
  static func question(
    _ drill: Drill, scenarios: DrillScenarios, scenario: DrillScenarios.Scenario, decision: DrillScenarios.Decision
  ) -> InterviewQuestion {
    let numbers = scenarios.constraints.compactMap { constraint in
      scenario.values[constraint.id].map { "\(constraint.says) \(DrillScenarios.shown($0))" }
    }
    let heading =
      "\(scenario.card) (\(numbers.joined(separator: "; "))) \(decision.question) Commit to one of "
      + "\(decision.choices.joined(separator: " or ")), give the numbers it rests on, and say what would flip it."
    var answer: [String] = []
    if let key = scenario.keys[decision.id] {
      answer.append("\(key.choice), because \(key.because).")
      for other in key.accepted ?? [] {
        answer.append("\(other.choice) also fits when its cost is said: \(other.cost).")
      }
      for estimate in decision.estimates {
        if let value = try? ScenarioFormula.evaluate(estimate.formula, values: scenario.values) {
          answer.append("\(estimate.question): about \(DrillScenarios.shown(value.rounded(toSignificant: 2))) \(estimate.unit).")
        }
      }
      for change in key.changes(scenario: scenario.id, decision: decision.id) {
        answer.append("If \(change.say): \(change.holds ? "still " : "")\(change.choice), because \(change.because).")
      }
    }
    let body = answer.joined(separator: " ")
    return InterviewQuestion(
      chapter: drill.chapter ?? 0, chapterTitle: "Drill: \(drill.title)", heading: heading, body: body, modelAnswer: body,
      followUps: "", redFlags: "", key: "\(keyPrefix)\(drill.id)/decision/\(decision.id)/\(scenario.id)", drill: drill.id)
  }

  /// A deep dive picked away from the scenario's riskiest part, as the scenario's question: which
  /// part carries the most risk here? The answer is the scenario's ranking with its reasons.
  static func pickQuestion(_ drill: Drill, round: DrillRound, scenarios: DrillScenarios, scenario: DrillScenarios.Scenario)
    -> InterviewQuestion
  {
    let options = round.options.map { "\($0.label) \($0.title)" }.joined(separator: "; ")
    let heading = "\(scenarios.card(scenario).replacingOccurrences(of: "\n", with: " ")) Which part of the design carries the most risk, and why? (\(options))"
    let body = scenario.risks.map { "\($0.dive): \($0.because)." }.joined(separator: " ")
    return InterviewQuestion(
      chapter: drill.chapter ?? 0, chapterTitle: "Drill: \(drill.title)", heading: heading, body: body, modelAnswer: body,
      followUps: "", redFlags: "", key: "\(keyPrefix)\(drill.id)/deep-dive/\(scenario.id)", drill: drill.id)
  }

  /// Whether a missed signal is rehearsed by its scenario's decision cards instead: a judgment
  /// signal of a phase that has decision points, in a drill with scenarios.
  static func coveredByDecisions(_ signal: DrillSignal, scenarios: DrillScenarios?) -> Bool {
    guard let scenarios, signal.kind == .judgment else { return false }
    return scenarios.decisions.contains { $0.phase == signal.phase }
  }

  /// Every signal missed in any attempt at a round, as cards, and every decision an attempt graded
  /// below staff, as its scenario's question; drill by drill in catalog order.
  static func questions(_ drills: [Drill], history: DrillHistory, root: String = ".") -> [InterviewQuestion] {
    drills.flatMap { drill -> [InterviewQuestion] in
      let attempts = history.attempts(of: drill.id)
      let missed = Set(attempts.flatMap { ($0.signals ?? [:]).filter { !$0.value }.keys })
      guard let text = TextFile.read(path(drill.file, in: root)), let round = DrillRound.parse(text) else {
        return []
      }
      let scenarios = try? DrillScenarios.load(drill, root: root)
      var cards = round.allSignals.filter { missed.contains($0.id) && !coveredByDecisions($0, scenarios: scenarios) }.map {
        question(drill, round: round, signal: $0, root: root)
      }
      guard let scenarios else { return cards }
      var seen: Set<String> = []
      for attempt in attempts {
        guard let id = attempt.scenario, let scenario = scenarios.scenario(named: id) else { continue }
        for decision in scenarios.decisions where attempt.decisions?[decision.id].map({ $0 != DrillLevel.staff.rawValue }) == true {
          let card = question(drill, scenarios: scenarios, scenario: scenario, decision: decision)
          if seen.insert(card.key).inserted { cards.append(card) }
        }
        if attempt.decisions?[DrillScenarios.deepDivePick].map({ $0 != DrillLevel.staff.rawValue }) == true {
          let card = pickQuestion(drill, round: round, scenarios: scenarios, scenario: scenario)
          if seen.insert(card.key).inserted { cards.append(card) }
        }
      }
      return cards
    }
  }

  /// Every card of `catalog`'s drills at `root` (none when the drills cannot be read).
  static func questions(_ catalog: Catalog, now: Date, root: String = ".") -> [InterviewQuestion] {
    let drills = (try? DrillCatalog.load(catalog, root: root))?.drills ?? []
    return questions(drills, history: DrillHistory.read(root: root, now: now), root: root)
  }

  /// Puts each missed signal in the review queue, due today: a card is created (or an existing one
  /// lapses) as an `again` answer would, except that it is due at once rather than tomorrow, so
  /// the gap is rehearsed while the round is fresh. Returns how many cards were written.
  @discardableResult
  static func enqueue(_ questions: [InterviewQuestion], store: RatingsStore, schedule: Schedule = Schedule(), at now: Date) throws
    -> Int
  {
    guard !questions.isEmpty else { return 0 }
    var cards = store.load(now: now)
    for question in questions {
      var card = schedule.rate(cards[question.key], .again, heading: question.heading, at: now)
      card.due = schedule.calendar.startOfDay(for: now)
      cards[question.key] = card
    }
    try store.save(cards)
    return questions.count
  }
}
