import Foundation

/// `make drill-NAME ROLE=interviewer`: what a peer playing the interviewer needs to run the round
/// as calibrated as a company's. Most candidates practise with a peer; a peer without the key
/// either grades by feel or reads the rubric aloud. The kit gives the scenario card to read out,
/// per phase what to ask, each decision point with its key, the estimates' arithmetic, where to
/// push and the constraint to change, what a senior and a staff answer sound like, the pushback
/// bank, the red flags, and a scorecard to fill in. It is for the interviewer's eyes: the
/// candidate who reads it has read the key.
enum InterviewerKit {
  static func render(_ round: DrillRound, drill: Drill, scenarios: DrillScenarios?, seed: UInt64) -> String {
    var lines: [String] = []
    func say(_ text: String = "") { lines.append(text) }
    let scenario = scenarios?.scenario(seed: seed)
    say(Style.bold("Interviewer's kit: \(round.title)") + Style.dim(" (SEED=\(seed); keep it from the candidate)"))
    say("The round takes \(round.minutes) minutes. Keep time, ask, listen; hand over nothing below until the round is over.")

    if let scenarios, let scenario {
      say()
      say(Style.bold("The scenario card") + Style.dim(" (\(scenario.id): read it out, give the numbers when asked)"))
      say(scenarios.card(scenario))
    }

    say()
    say(Style.bold("Introductions") + " — \(round.introductions.minutes) min: say who you are and how the round runs; ask what they built closest to this.")
    let options = round.options
    var shownOptions = false
    for phase in round.phases {
      if phase.option != nil {
        guard !shownOptions else { continue }
        shownOptions = true
        say()
        say(Style.bold("\(phase.number). Deep dive, the candidate's pick") + " — \(phase.minutes) min")
        say("  Ask: which part of your design carries the most risk? Go deep on one. A staff candidate picks and says why.")
        if let scenario, !scenario.risks.isEmpty {
          say("  This scenario's ranking (riskiest first; another pick keeps the area at senior at most):")
          for risk in scenario.risks { say("    \(risk.dive): \(risk.because)") }
        }
        for option in options {
          say("  \(option.label). \(option.title)")
          say(indented(option.prompts, by: "      "))
          for decision in scenarios?.decisions.filter({ $0.phase == option.label }) ?? [] {
            lines += decisionLines(decision, scenario: scenario)
          }
        }
        continue
      }
      say()
      say(Style.bold("\(phase.label). \(phase.title)") + " — \(phase.minutes) min")
      say("  Ask (vaguely: let them clarify):")
      say(indented(phase.prompts, by: "    "))
      for decision in scenarios?.decisions.filter({ $0.phase == phase.label }) ?? [] {
        lines += decisionLines(decision, scenario: scenario)
      }
      if let area = round.areas.first(where: { !$0.isCommunication && $0.phases.contains(phase.number) }) {
        say(Style.dim("  Senior sounds like: \(area.senior)."))
        say(Style.dim("  Staff adds: \(area.staff)."))
      }
    }
    if let questions = round.questions {
      say()
      say(Style.bold("Their questions") + " — \(questions.minutes) min: answer as the team would; note whether they ask what only the team knows.")
    }

    say()
    say(Style.bold("Pushback") + Style.dim(" (one a phase, aimed at a choice they made, never at random)"))
    for question in round.pushback { say("  - \(question)") }
    say()
    say(Style.bold("Red flags"))
    say(indented(round.redFlags, by: "  "))

    say()
    say(Style.bold("Scorecard") + Style.dim(" (fill it in during the round; an area is no higher than its lowest decision)"))
    for area in round.areas {
      say("  \(area.name): [ ] below senior  [ ] senior  [ ] staff")
      let decisions = scenarios.map { scenarios in scenarios.decisions.filter { scenarios.area(of: $0, in: round)?.name == area.name } } ?? []
      for decision in decisions {
        let estimates = decision.estimates.map { "\($0.id) ____" }.joined(separator: "  ")
        say(
          "    \(decision.id): choice ____ cost said [ ]  \(estimates)\(estimates.isEmpty ? "" : "  ")then ____ why said [ ]"
            + (scenario?.keys[decision.id]?.hold == nil ? "" : "  instead ____ why said [ ]"))
      }
      if area.isCommunication {
        say("    checked in [ ]  pushback answered with a trade-off [ ]  decision first [ ]  drove the round [ ]  named what was left out [ ]")
      }
      say("    notes: ______________________________________________")
    }
    say(Style.dim("Then run: make drill-\(drill.id) SEED=\(seed) ANSWERS=their-answers.md with your marks, to check the arithmetic."))
    return lines.joined(separator: "\n")
  }

  /// One decision point: the question, the scenario's key with its reason, the estimates' values,
  /// where to push, the change to make and its key, and what the levels sound like.
  static func decisionLines(_ decision: DrillScenarios.Decision, scenario: DrillScenarios.Scenario?) -> [String] {
    var lines = ["  " + Style.bold("Decision \(decision.id): ") + "\(decision.question) (\(decision.choices.joined(separator: " | ")))"]
    guard let scenario, let key = scenario.keys[decision.id] else { return lines }
    lines.append("    Key: \(key.choice), because \(key.because).")
    for other in key.accepted ?? [] {
      lines.append("    Also scores: \(other.choice), when they say its cost (\(other.cost)) and name \(other.mentions.joined(separator: " or ")).")
    }
    for estimate in decision.estimates {
      guard let value = try? ScenarioFormula.evaluate(estimate.formula, values: scenario.values) else { continue }
      lines.append(
        "    Estimate \(estimate.id): \(estimate.question): about \(DrillScenarios.shown(value.rounded(toSignificant: 2))) \(estimate.unit) "
          + "(\(estimate.formula)); within a factor \(DrillScenarios.shown(estimate.factor)) counts.")
    }
    lines.append("    Push: \(decision.probe)")
    for (index, change) in key.changes(scenario: scenario.id, decision: decision.id).enumerated() {
      let verdict = change.holds ? "it stays \(change.choice) (a candidate who always changes misses here)" : change.choice
      lines.append("    \(index == 0 ? "Then say" : "Or instead say"): “\(change.say).” Key: \(verdict), because \(change.because).")
    }
    lines.append(Style.dim("    Senior: \(decision.senior)"))
    lines.append(Style.dim("    Staff: \(decision.staff)"))
    return lines
  }

  static func indented(_ text: String, by prefix: String) -> String {
    text.trimmingCharacters(in: .whitespacesAndNewlines).components(separatedBy: "\n").map { $0.isEmpty ? "" : prefix + $0 }
      .joined(separator: "\n")
  }
}
