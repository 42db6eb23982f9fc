import Foundation

extension DrillCommand {
  /// Runs a drill written as a round: its shape, the introductions, each phase of this run (one deep
  /// dive) with its pushback question and its signals, communication, the candidate's questions,
  /// then the rubric of levels and the red flags.
  ///
  /// On a terminal without `seed` the deep dive is the candidate's pick, asked when the round gets
  /// there: at staff level, choosing where to go deep is itself what is judged. `SEED=` picks it
  /// instead, to repeat a round; without a terminal the day's seed picks it.
  ///
  /// On a terminal each phase is timed and the learner marks every signal `y` (hit) or `n`
  /// (missed); the levels follow from the marks, the attempt is saved, and each missed signal is
  /// put in the review queue (`DrillSignalCards`). Either way a phase's signals come only after
  /// its answer: without a terminal every phase's prompts are printed first and the key (signals,
  /// rubric, red flags) after them, nothing is recorded or waited for, and `make drill-chat
  /// </dev/null` ends at once.
  static func runRound(
    _ round: DrillRound, drill: Drill, root: String, console: Console, now: () -> Date, calendar: Calendar,
    seed: UInt64?, showKey: Bool = false
  ) throws {
    func say(_ text: String) { console.write(text + "\n") }
    func ask(_ text: String) -> String? {
      console.write(text)
      return console.readLine()
    }
    let candidatePicks = seed == nil && console.interactive && !round.options.isEmpty
    let drawSeed = seed ?? UInt64(max(0, Int(now().timeIntervalSince1970 / 86_400)))
    var deepDive = candidatePicks ? nil : round.deepDive(seed: drawSeed)
    /// The run's slots: every option has the same length, so the first stands in for the pick.
    let phases = round.phases(deepDive: deepDive ?? round.options.first?.label)
    let pushback = round.pushback(for: phases.count, seed: drawSeed)
    let chosen = candidatePicks ? nil : phases.first { $0.option != nil }
    func name(_ phase: DrillRound.Phase) -> String {
      candidatePicks && phase.option != nil ? "\(phase.number). Deep dive: your pick" : "\(phase.label). \(phase.title)"
    }

    say(Style.bold(round.title))
    say(round.intro)
    say(Style.bold("\nThe round") + " — \(round.minutes) minutes")
    let width = phases.map { $0.label.count + $0.title.count + 2 }.max().map { max($0, 14) + 2 } ?? 16
    say("  \(padded("Introductions", width)) \(round.introductions.minutes) min")
    for phase in phases {
      say("  \(padded(name(phase), width)) \(phase.minutes) min")
    }
    if let questions = round.questions { say("  \(padded("Your questions", width)) \(questions.minutes) min") }
    let labels = round.options.map(\.label).joined(separator: ", ")
    if let chosen {
      say(
        Style.dim(
          "  Design: \(round.designMinutes) min. Deep dive today: \(chosen.label) of \(labels) (SEED=\(drawSeed); "
            + "make drill-\(drill.id) SEED=N picks another)."))
    } else if candidatePicks {
      say(
        Style.dim(
          "  Design: \(round.designMinutes) min. The deep dive is yours to pick when the round gets there, from \(labels) "
            + "(make drill-\(drill.id) SEED=N has one picked for you)."))
    }
    say(Style.dim("  A pushback question closes each phase. Levels per area: " + levelRule))
    let scenarios = try DrillScenarios.load(drill, root: root)
    let scenario = scenarios?.scenario(seed: drawSeed)
    if let scenarios, let scenario {
      say(Style.bold("\nThe scenario") + Style.dim(" (\(scenario.id); SEED=N draws another)"))
      say(scenarios.card(scenario))
      say(Style.dim("  At each decision point you commit to a choice and the numbers it rests on; the key is this scenario's."))
    }

    say(Style.bold("\nIntroductions") + " — \(round.introductions.minutes) min")
    say(WalkthroughCommand.render(round.introductions.text))
    var seconds: [Int] = []
    var marks: [String: Bool] = [:]
    func timed(_ minutes: Int) -> Bool {
      guard console.interactive else { return true }
      guard ask(Style.dim("  [Enter] start the clock and answer out loud")) != nil else { return false }
      let start = now()
      guard ask(Style.dim("  … talking. [Enter] when you are done")) != nil else { return false }
      let elapsed = max(0, Int(now().timeIntervalSince(start)))
      seconds.append(elapsed)
      let box = minutes * 60
      let verdict = elapsed <= box ? Style.green("within the box") : Style.yellow("over by \(clock(elapsed - box))")
      say("  You took \(clock(elapsed)) of \(clock(box)): \(verdict)")
      return true
    }
    /// Shows `signals`; on a terminal asks for each mark. False when the input ended.
    func mark(_ signals: [DrillSignal]) -> Bool {
      say(Style.bold("  Signals") + Style.dim(console.interactive ? " — mark each: y hit, n missed" : ""))
      for signal in signals {
        let kind: String
        switch signal.kind {
        case .mustHit: kind = Style.yellow("[must-hit]")
        case .judgment: kind = Style.green("[judgment]")
        case .bonus: kind = Style.dim("[bonus]   ")
        }
        say("  \(kind) \(Style.bold(signal.cue)): \(signal.text)")
        guard console.interactive else { continue }
        while true {
          guard let line = ask("      hit? [y/n] ") else { return false }
          switch line.trimmingCharacters(in: .whitespaces).lowercased() {
          case "y", "yes": marks[signal.id] = true
          case "n", "no", "": marks[signal.id] = false
          default:
            say(Style.yellow("      y or n, please"))
            continue
          }
          break
        }
      }
      return true
    }
    /// The candidate's deep dive, asked as an interviewer would; nil when the input ended.
    func pick() -> DrillRound.Phase? {
      say(Style.bold("\nYour deep dive") + ": which part of your design carries the most risk? Go deep on one.")
      for option in round.options { say("  \(option.label). \(option.title)") }
      let letters = round.options.compactMap(\.option).map(String.init)
      while true {
        guard let line = ask("  pick [\(letters.joined(separator: "/"))] ") else { return nil }
        let text = line.trimmingCharacters(in: .whitespaces).lowercased()
        if let option = round.options.first(where: { $0.label == text || $0.option.map(String.init) == text }) { return option }
        say(Style.yellow("      one of \(letters.joined(separator: ", ")), please"))
      }
    }
    func abandon() {
      say(Style.yellow("\nInput ended before every signal was marked: nothing was recorded."))
      say(referenceDesign(drill, root: root))
    }

    var decided = DecisionAnswers()
    decided.scenario = scenario?.id
    /// The phase's decision points: on a terminal each choice, estimate, cost, the changed
    /// constraint and the choice after it are asked; otherwise the questions are printed. False
    /// when the input ended.
    func decide(_ phase: DrillRound.Phase) -> Bool {
      guard let scenarios, let scenario else { return true }
      for decision in scenarios.decisions where decision.phase == phase.label {
        let choices = decision.choices.joined(separator: " | ")
        say(Style.bold("  Decision: ") + "\(decision.question) (\(choices))")
        func choose(_ prompt: String) -> String? {
          while true {
            guard let line = ask("    \(prompt) [\(choices)] ") else { return nil }
            let text = line.trimmingCharacters(in: .whitespaces).lowercased()
            if decision.choices.contains(text) { return text }
            say(Style.yellow("      one of \(choices), please"))
          }
        }
        let changes = scenario.keys[decision.id]?.changes(scenario: scenario.id, decision: decision.id) ?? []
        let then = changes.first?.say ?? ""
        let instead = changes.dropFirst().first?.say
        guard console.interactive else {
          for estimate in decision.estimates { say("    Estimate: \(estimate.question), in \(estimate.unit).") }
          say("    Then: \(then). Does your choice change, and why?")
          if let instead { say("    Or instead: \(instead). Does it change, and why?") }
          continue
        }
        guard let choice = choose("your choice") else { return false }
        decided.choices[decision.id] = choice
        for estimate in decision.estimates {
          guard let line = ask("    \(estimate.question), in \(estimate.unit): ") else { return false }
          decided.estimates[estimate.id] = line
        }
        guard let cost = ask("    what does it cost in this scenario, and what condition does it rest on? ") else { return false }
        decided.costs[decision.id] = cost.trimmingCharacters(in: .whitespaces)
        say(Style.bold("    Then: ") + then + ".")
        guard let after = choose("your choice now") else { return false }
        decided.thens[decision.id] = after
        guard let why = ask("    why does it change, or not? ") else { return false }
        decided.whys[decision.id] = why.trimmingCharacters(in: .whitespaces)
        if let instead {
          say(Style.bold("    Or instead: ") + instead + ".")
          guard let other = choose("your choice now") else { return false }
          decided.insteads[decision.id] = other
          guard let why = ask("    why does it change, or not? ") else { return false }
          decided.insteadWhys[decision.id] = why.trimmingCharacters(in: .whitespaces)
        }
        let grade = DecisionGrade.grade(decision, scenario: scenario, answers: decided, constraints: scenarios.constraints)
        say("    \(grade.level == .belowSenior ? Style.yellow(grade.level.rawValue) : grade.level.rawValue)")
        for finding in grade.findings { say(Style.dim("      - \(finding)")) }
        if showKey { for line in grade.key { say(Style.dim("      key: \(line)")) } }
      }
      return true
    }

    var ran: [DrillRound.Phase] = []
    for (index, slot) in phases.enumerated() {
      var phase = slot
      if candidatePicks, slot.option != nil {
        guard let picked = pick() else { return abandon() }
        phase = picked
        deepDive = picked.label
      }
      say(Style.bold("\nPhase \(index + 1) of \(phases.count): \(phase.label). \(phase.title)") + " — \(phase.minutes) min")
      say(WalkthroughCommand.render(phase.prompts))
      guard timed(phase.minutes) else { return abandon() }
      guard decide(phase) else { return abandon() }
      let question = scenarios.flatMap { Self.pushback(on: phase, scenarios: $0, answers: decided) } ?? pushback[index]
      if !question.isEmpty {
        say(Style.bold("  Pushback: ") + question)
        if console.interactive, ask(Style.dim("  Answer it out loud. [Enter] when you are done")) == nil { return abandon() }
      }
      ran.append(phase)
      guard console.interactive else { continue }
      guard mark(phase.signals) else { return abandon() }
    }
    if console.interactive {
      say(Style.bold("\nCommunication") + Style.dim(" (no timer shows it: mark what you did)"))
      guard mark(round.communication) else { return abandon() }
    }
    if let questions = round.questions {
      say(Style.bold("\nYour questions") + " — \(questions.minutes) min")
      say(WalkthroughCommand.render(questions.text))
    }
    if !console.interactive {
      // Read without a terminal, the round still keeps the key after the questions, so a reader
      // answers each phase before seeing what it is marked on.
      say(Style.bold("\nThe key") + Style.dim(" (read it once you have answered every phase out loud)"))
      for phase in ran {
        say(Style.bold("\n\(phase.label). \(phase.title)"))
        _ = mark(phase.signals)
      }
      say(Style.bold("\nCommunication"))
      _ = mark(round.communication)
      if let scenarios, let scenario {
        say(Style.bold("\nThe scenario's key") + Style.dim(" (\(scenario.id))"))
        for decision in scenarios.decisions(in: round, deepDive: deepDive) {
          guard let key = scenario.keys[decision.id] else { continue }
          say("  \(Style.bold(decision.id)): \(key.choice), because \(key.because).")
          for other in key.accepted ?? [] {
            say(Style.dim("    \(other.choice) scores too when its cost and condition are said: \(other.cost)."))
          }
          for estimate in decision.estimates {
            if let value = try? ScenarioFormula.evaluate(estimate.formula, values: scenario.values) {
              say(
                Style.dim(
                  "    \(estimate.question): about \(DrillScenarios.shown(value.rounded(toSignificant: 2))) \(estimate.unit) (\(estimate.formula), within a factor \(DrillScenarios.shown(estimate.factor)))"
                ))
            }
          }
          for change in key.changes(scenario: scenario.id, decision: decision.id) {
            say("    \(change.holds ? "it stays" : "then") (\(change.say)): \(change.choice), because \(change.because).")
          }
        }
      }
    }

    say(Style.bold("\nRubric") + Style.dim(" (levels: below senior · senior · staff)"))
    for area in round.areas {
      let from = area.isCommunication ? "communication" : "phase " + area.phases.map(String.init).joined(separator: ", ")
      say("  \(Style.bold(area.name))" + Style.dim(" (\(from))"))
      say("    senior: \(area.senior)")
      say("    staff adds: \(area.staff)")
      if let shownBy = area.shownBy, !shownBy.isEmpty, shownBy != DrillLimits.notBuiltHere {
        say(Style.dim("    shown by: \(shownBy)"))
      }
    }
    say(Style.bold("\nRed flags"))
    say(WalkthroughCommand.render(round.redFlags))

    guard console.interactive else {
      say(referenceDesign(drill, root: root))
      say(
        Style.dim(
          "\nNothing was recorded: marking signals needs a terminal. Run make drill-\(drill.id) in one to time the phases, "
            + "mark each signal and get a level per area."))
      return
    }
    var levels = round.levels(marks: marks, deepDive: deepDive)
    var grades: [DecisionGrade] = []
    if let scenarios, let scenario {
      grades = scenarios.grades(round, deepDive: deepDive, scenario: scenario, answers: decided)
      if candidatePicks, let pick = scenarios.pickGrade(deepDive, scenario: scenario) {
        grades.append(pick)
        say(Style.bold("\nYour deep dive") + ": \(pick.level.rawValue)" + pick.findings.map { " — \($0)" }.joined())
        if showKey { for line in pick.key { say(Style.dim("  key: \(line)")) } }
      }
      levels = scenarios.levels(round, signalLevels: levels, deepDive: deepDive, grades: grades)
    }
    let date = now()
    let file = path(DrillHistory.relativePath, in: root)
    var (attempts, persist) = DrillHistory.load(file, now: date)
    let attempt = DrillHistory.Attempt(
      date: date, drill: drill.id, secondsPerPhase: seconds, levels: levels.mapValues(\.rawValue), signals: marks,
      deepDive: deepDive, seed: candidatePicks ? nil : drawSeed, scenario: scenario?.id,
      decisions: grades.isEmpty ? nil : Dictionary(uniqueKeysWithValues: grades.map { ($0.decision, $0.level.rawValue) }))
    attempts.append(attempt)
    if persist {
      do {
        try DrillHistory.save(attempts, to: file)
      } catch {
        warn("this attempt is not saved: \(file) cannot be written (\(error))")
      }
    }
    say(Style.bold("\nYour level per area"))
    for area in round.areas {
      let level = levels[area.name] ?? .belowSenior
      let text = padded(level.rawValue, 14)
      let shown: String
      switch level {
      case .staff: shown = Style.green(text)
      case .senior: shown = text
      case .belowSenior: shown = Style.yellow(text)
      }
      let signals = round.signals(of: area, deepDive: deepDive)
      let hit = signals.filter { marks[$0.id] == true }.count
      say("  \(padded(area.name, 28)) \(shown) \(Style.dim("\(hit) of \(signals.count) signals"))")
    }
    let missed = round.allSignals.filter { marks[$0.id] == false && !DrillSignalCards.coveredByDecisions($0, scenarios: scenarios) }
    var cards = missed.map { DrillSignalCards.question(drill, round: round, signal: $0, root: root) }
    if let scenarios, let scenario {
      for grade in grades where grade.level != .staff {
        if grade.decision == DrillScenarios.deepDivePick {
          cards.append(DrillSignalCards.pickQuestion(drill, round: round, scenarios: scenarios, scenario: scenario))
          continue
        }
        guard let decision = scenarios.decisions.first(where: { $0.id == grade.decision }) else { continue }
        cards.append(DrillSignalCards.question(drill, scenarios: scenarios, scenario: scenario, decision: decision))
      }
    }
    if !cards.isEmpty {
      do {
        try DrillSignalCards.enqueue(cards, store: RatingsStore(root: root), at: date)
        say(
          (cards.count == missed.count
            ? "\(plural(cards.count, "missed signal")) \(cards.count == 1 ? "is now a card" : "are now cards")"
            : "\(plural(cards.count, "card")) from missed signals and decisions \(cards.count == 1 ? "is" : "are") now")
            + " in make review "
            + "(due today, then spaced like the questions) and in make flashcards.")
      } catch {
        warn("the missed signals are not in the review queue: \(error)")
      }
    }
    let history = DrillHistory(attempts: attempts)
    if let due = history.dueDate(drill.id, calendar: calendar) {
      say("An area is below senior: make review brings this drill back on \(calendar.shortDay(due)).")
    }
    say(referenceDesign(drill, root: root))
  }

  /// Pushback aimed at what the candidate chose in `phase`, as an interviewer aims it: the first
  /// decision of the phase they committed to, argued against by its other choices. Nil when the
  /// phase has no decision they answered, and the bank's question is asked instead.
  static func pushback(on phase: DrillRound.Phase, scenarios: DrillScenarios, answers: DecisionAnswers) -> String? {
    for decision in scenarios.decisions where decision.phase == phase.label {
      guard let choice = answers.choices[decision.id] else { continue }
      let others = decision.choices.filter { $0 != choice }.joined(separator: " or ")
      return "You chose \(choice). I would have gone with \(others) here. Convince me, with a number from the scenario."
    }
    return nil
  }

  /// How the levels follow from the marks, said once at the start of a round.
  static let levelRule =
    "senior = every must-hit signal of its phases hit; staff = that, and every judgment signal; bonus signals move no level."
    + " With a scenario, an area is no higher than its lowest decision, and an area without decisions no higher than"
    + " the lowest area with them."
}
