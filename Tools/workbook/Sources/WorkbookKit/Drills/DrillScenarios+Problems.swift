import Foundation

extension DrillScenarios {
  /// The least number of scenarios: with fewer, a fixed answer meets too few keys to be told apart.
  static let leastScenarios = 3

  /// Words that fit a cost or reason of any decision, so none starts a topic: filler such as "there
  /// are real trade-offs here" or "it depends on the constraints" must name nothing.
  static let fillerWords = ["trade", "depends", "constraint", "complex", "cost", "better", "worse", "choice", "option", "scale", "simpl"]

  /// What `workbook check` finds wrong with the file against its round, one sentence each: ids,
  /// phases, choices and formulas that resolve; every scenario giving every constraint and keying
  /// every decision; each `then` changing exactly one constraint; each decision's right choice
  /// differing between scenarios; in each scenario, each area with decisions holding one whose key
  /// changes with its `then`, so the same answer before and after misses there unless it names the
  /// condition of an accepted alternative (which a fixed answer does not); every key holding a `then`
  /// that moves its choice and a `hold` it survives, so both changes are always asked and the answer
  /// to "does it change?" cannot be read from how many changes are asked; and every decision listing
  /// the topics its costs and reasons name, none of them filler.
  func problems(round: DrillRound) -> [String] {
    var found: [String] = []
    let constraintIds = constraints.map(\.id)
    let labels = Set(round.phases.map(\.label))
    if scenarios.count < Self.leastScenarios {
      found.append("\(scenarios.count) scenarios; write at least \(Self.leastScenarios) that differ in the constraints that matter")
    }
    if decisions.isEmpty { found.append("no decisions; write at least one decision point a scenario keys") }
    var estimateIds: Set<String> = []
    for decision in decisions {
      let name = "decision \(decision.id)"
      if decision.id != QuestionKey.slug(decision.id) { found.append("\(name): write its id as \(QuestionKey.slug(decision.id))") }
      if !labels.contains(decision.phase) { found.append("\(name) is asked in phase \(decision.phase), which the round does not have") }
      if Set(decision.choices).count < 2 { found.append("\(name) offers \(decision.choices.count) distinct choices; a decision has two or more") }
      if decision.choices.contains(where: { $0 != $0.lowercased() || $0.contains(" ") || $0.isEmpty }) {
        found.append("\(name): write each choice in lower case without spaces (push-and-pull), as an answer names it")
      }
      for (field, text) in [("question", decision.question), ("probe", decision.probe), ("senior", decision.senior), ("staff", decision.staff)]
      where text.trimmingCharacters(in: .whitespaces).isEmpty {
        found.append("\(name) has no \(field)")
      }
      if decision.topics.isEmpty {
        found.append("\(name) has no topics; list the words a cost or reason of this decision names (battery, socket, server)")
      }
      for topic in decision.topics where DrillScenarios.Decision.words(topic).isEmpty {
        found.append("\(name): the topic “\(topic)” has no letters or digits, so every line would name it")
      }
      for topic in decision.topics where Self.fillerWords.contains(where: { DrillScenarios.Decision.words(topic).hasPrefix($0) }) {
        found.append("\(name): the topic “\(topic)” is said of any choice; a topic names what this one costs or rests on")
      }
      if area(of: decision, in: round) == nil { found.append("\(name): no rubric row scores phase \(decision.phase)") }
      for estimate in decision.estimates {
        if !estimateIds.insert(estimate.id).inserted { found.append("the estimate \(estimate.id) is written twice; ids are the drill's") }
        if estimate.factor <= 1 { found.append("estimate \(estimate.id): a factor of \(estimate.factor) takes nothing; give one above 1") }
      }
    }
    if Set(decisions.map(\.id)).count != decisions.count { found.append("two decisions share an id") }
    if Set(scenarios.map(\.id)).count != scenarios.count { found.append("two scenarios share an id") }
    for scenario in scenarios {
      let name = "scenario \(scenario.id)"
      if scenario.card.trimmingCharacters(in: .whitespaces).isEmpty { found.append("\(name) has no card") }
      let missing = constraintIds.filter { scenario.values[$0] == nil }
      if !missing.isEmpty { found.append("\(name) gives no value for \(missing.joined(separator: ", "))") }
      for id in scenario.values.keys.sorted() where !constraintIds.contains(id) {
        found.append("\(name) gives \(id), which is not a constraint")
      }
      let options = round.options.map(\.label)
      if scenario.risks.map(\.dive).sorted() != options.sorted() || scenario.risks.contains(where: { $0.because.isEmpty }) {
        found.append(
          "\(name) ranks the deep dives \(scenario.risks.map(\.dive).joined(separator: ", ")); rank every option (\(options.joined(separator: ", "))) once, "
            + "riskiest first, each with its because")
      }
      for decision in decisions {
        guard let key = scenario.keys[decision.id] else {
          found.append("\(name) has no key for decision \(decision.id)")
          continue
        }
        found += keyProblems(key, decision: decision, scenario: scenario, constraints: constraintIds)
      }
      for id in scenario.keys.keys.sorted() where !decisions.contains(where: { $0.id == id }) {
        found.append("\(name) keys \(id), which is not a decision")
      }
      var flipped: [String: Bool] = [:]
      for decision in decisions {
        guard let area = area(of: decision, in: round), let key = scenario.keys[decision.id] else { continue }
        // An accepted alternative does not stand in the way: it scores only with its condition
        // named, and a fixed answer names no scenario's condition.
        let flips = key.choice != key.then.choice
        flipped[area.name] = (flipped[area.name] ?? false) || flips
      }
      for (area, flips) in flipped.sorted(by: { $0.key < $1.key }) where !flips {
        found.append(
          "\(name): no decision of \(area) changes its choice after its `then`; give one a change that flips it, "
            + "or the same answer in every scenario passes there")
      }
    }
    for decision in decisions where scenarios.count >= 2 {
      let rights = Set(scenarios.compactMap { $0.keys[decision.id]?.choice })
      if rights.count < 2 {
        found.append("decision \(decision.id) has the same right choice, \(rights.first ?? "none"), in every scenario; make it flip with the constraints")
      }
    }
    return found
  }

  private func keyProblems(_ key: Key, decision: Decision, scenario: Scenario, constraints: [String]) -> [String] {
    var found: [String] = []
    let name = "scenario \(scenario.id), decision \(decision.id)"
    for (choice, accepted) in [(key.choice, key.accepted), (key.then.choice, key.then.accepted)] {
      if !decision.choices.contains(choice) { found.append("\(name): \(choice) is not one of \(decision.choices.joined(separator: ", "))") }
      for other in accepted ?? [] {
        if !decision.choices.contains(other.choice) || other.choice == choice {
          found.append("\(name): the accepted \(other.choice) is not another of its choices")
        }
        if other.cost.trimmingCharacters(in: .whitespaces).isEmpty { found.append("\(name): the accepted \(other.choice) says no cost") }
        if other.mentions.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) || other.mentions.isEmpty {
          found.append("\(name): the accepted \(other.choice) names no condition an answer must state (mentions)")
        }
      }
    }
    // Two changes, one the choice survives and one it does not, in an order drawn per scenario and
    // decision: how many changes are asked, or which comes first, says nothing of the answer.
    if key.then.choice == key.choice {
      found.append("\(name): then leaves the choice at \(key.choice); a then is the change that moves it (the hold is the one it survives)")
    }
    if key.hold == nil {
      found.append("\(name) has no hold: write a change its choice survives (set, say, because), so that both changes are asked")
    }
    if let hold = key.hold {
      if hold.say.isEmpty || hold.because.isEmpty { found.append("\(name): a hold says the change (say) and why the choice stays (because)") }
      if hold.set.count != 1 { found.append("\(name): hold changes \(hold.set.count) constraints; it changes exactly one") }
      if hold.set == key.then.set { found.append("\(name): hold makes the same change as then") }
      for (id, value) in hold.set {
        if !constraints.contains(id) {
          found.append("\(name): hold sets \(id), which is not a constraint")
        } else if scenario.values[id] == value {
          found.append("\(name): hold sets \(id) to the value it already has")
        }
      }
    }
    if key.because.isEmpty || key.then.because.isEmpty || key.then.say.isEmpty {
      found.append("\(name): a key says why (because), and its then says the change (say) and why (because)")
    }
    if key.then.set.count != 1 {
      found.append("\(name): then changes \(key.then.set.count) constraints; it changes exactly one")
    }
    for (id, value) in key.then.set {
      if !constraints.contains(id) {
        found.append("\(name): then sets \(id), which is not a constraint")
      } else if scenario.values[id] == value {
        found.append("\(name): then sets \(id) to the value it already has")
      }
    }
    let changed = key.changes(scenario: scenario.id, decision: decision.id).map { Self.changed(scenario, set: $0.set) }
    for estimate in decision.estimates {
      for values in [scenario.values] + changed {
        do {
          let value = try ScenarioFormula.evaluate(estimate.formula, values: values)
          if !value.isFinite || value <= 0 { found.append("\(name): estimate \(estimate.id) comes to \(value); an estimate is positive") }
        } catch {
          found.append("\(name): estimate \(estimate.id) cannot be worked out: \(error)")
        }
      }
    }
    return found
  }
}
