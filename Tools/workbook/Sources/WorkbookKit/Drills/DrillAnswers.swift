import Foundation

/// A candidate's answers to a round, read from a file (`make drill-chat ANSWERS=file`), so that a
/// calibration reviewer can score a written answer without a terminal.
///
/// The file is Markdown, one `## ` section a phase of the run and one for communication:
///
///     ## 1. Clarify the requirements
///     What the candidate said, in any words: the tool keeps none of it.
///     - [x] Scope cut
///     - [ ] Targets before drawing
///
///     ## 4b
///     …
///     ## Communication
///     - [x] Checked in
///
/// A section's heading starts with the phase's label (`1`, `4b`); what follows the label is free.
/// A line `- [x] Cue` marks the signal with that cue hit, `- [ ] Cue` missed (cues compare as
/// `DrillSignal.id` does, so case and punctuation do not matter); every other line, `- [?] Cue`
/// included, is the answer's text. Every signal of the run is marked, or the file is refused with
/// the missing cues named: a signal left out is not quietly a miss. README.md documents the format. The deep dive is the file's own when it answers exactly
/// one option and no `SEED=` is given: choosing it is part of the answer.
struct DrillAnswers: Equatable {
  /// The marks of one section, by the slug of each cue.
  struct Section: Equatable {
    /// The phase's label (`4b`), or `communication`.
    let label: String
    var marks: [String: Bool] = [:]
    /// The heading's line in the file, for messages.
    let line: Int
  }

  let sections: [Section]
  /// The scenario named and the decision lines (`DecisionAnswers`), wherever they stand.
  var decisions = DecisionAnswers()

  static let communication = "communication"

  /// The sections of `text`, in file order; a mark before any section, or two sections for one
  /// phase, is refused.
  static func parse(_ text: String, shown: String) throws -> DrillAnswers {
    var sections: [Section] = []
    var decisions = DecisionAnswers()
    for (index, raw) in text.components(separatedBy: "\n").enumerated() {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if decisions.read(line) { continue }
      if line.hasPrefix("## ") {
        let heading = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
        let label =
          heading.lowercased().hasPrefix(communication)
          ? communication : String(heading.prefix { $0.isNumber || $0.isLowercase })
        guard !label.isEmpty else {
          throw Failure("\(shown):\(index + 1): “## \(heading)” names no phase; start it with the phase's label (## 1, ## 4b) or write ## Communication")
        }
        if sections.contains(where: { $0.label == label }) {
          throw Failure("\(shown):\(index + 1): phase \(label) is answered twice; keep one section for it")
        }
        sections.append(Section(label: label, line: index + 1))
        continue
      }
      guard let (hit, cue) = mark(line) else { continue }
      guard !sections.isEmpty else {
        throw Failure("\(shown):\(index + 1): “\(line)” comes before any ## section; put each mark under its phase")
      }
      sections[sections.count - 1].marks[QuestionKey.slug(cue)] = hit
    }
    return DrillAnswers(sections: sections, decisions: decisions)
  }

  /// `- [x] Cue` as (true, "Cue"), `- [ ] Cue` as (false, "Cue"); nil for any other line.
  static func mark(_ line: String) -> (Bool, String)? {
    for (box, hit) in [("- [x] ", true), ("- [X] ", true), ("- [ ] ", false)] where line.hasPrefix(box) {
      return (hit, String(line.dropFirst(box.count)).trimmingCharacters(in: .whitespaces))
    }
    return nil
  }

  /// The deep dive these answers run: `seed`'s when one is given, else the one option the file
  /// answers. Refused when the file answers an option the seed did not pick, or several options.
  func deepDive(_ round: DrillRound, seed: UInt64?, shown: String) throws -> String? {
    let options = round.options.map(\.label)
    guard !options.isEmpty else { return nil }
    let answered = sections.map(\.label).filter(options.contains)
    if let seed {
      let chosen = round.deepDive(seed: seed)
      if let other = answered.first(where: { $0 != chosen }) {
        throw Failure(
          "\(shown) answers deep dive \(other), but SEED=\(seed) runs \(chosen ?? "none"); answer \(chosen ?? "it"), or leave SEED= out to run the file's own pick"
        )
      }
      return chosen
    }
    guard answered.count == 1 else {
      throw Failure(
        "\(shown) answers \(answered.isEmpty ? "no deep dive" : "deep dives \(answered.joined(separator: ", "))"); "
          + "answer one of \(options.joined(separator: ", ")) (your pick), or give SEED= to have one picked")
    }
    return answered[0]
  }

  /// Each signal's mark by `DrillSignal.id` for a run of `round` with `deepDive`; refused when a
  /// section is for a phase the run does not have, a mark names no signal, or a signal is unmarked.
  func marks(_ round: DrillRound, deepDive: String?, shown: String) throws -> [String: Bool] {
    let phases = round.phases(deepDive: deepDive)
    var expected: [(label: String, signals: [DrillSignal])] = phases.map { ($0.label, $0.signals) }
    expected.append((Self.communication, round.communication))
    var marks: [String: Bool] = [:]
    var problems: [String] = []
    for section in sections {
      guard let signals = expected.first(where: { $0.label == section.label })?.signals else {
        problems.append("line \(section.line): this run has no phase \(section.label)")
        continue
      }
      let known = Set(signals.map { QuestionKey.slug($0.cue) })
      for slug in section.marks.keys.sorted() where !known.contains(slug) {
        problems.append("phase \(section.label) has no signal “\(slug)”")
      }
    }
    for (label, signals) in expected {
      let section = sections.first { $0.label == label }
      var missing: [String] = []
      for signal in signals {
        if let hit = section?.marks[QuestionKey.slug(signal.cue)] {
          marks[signal.id] = hit
        } else {
          missing.append(signal.cue)
        }
      }
      if !missing.isEmpty {
        let place = label == Self.communication ? "communication" : "phase \(label)"
        problems.append("\(place) leaves unmarked: \(missing.joined(separator: "; "))")
      }
    }
    guard problems.isEmpty else {
      throw Failure(
        "\(shown) cannot be scored:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
          + "\nMark every signal of the run `- [x] Cue` (hit) or `- [ ] Cue` (missed) under its phase's ## section.")
    }
    return marks
  }

  /// A file to fill in for a run of `round`: a section a phase (every deep-dive option when none is
  /// chosen: keep the one you pick), its prompts as a reminder, room for the answer, then every
  /// signal as `- [?] Cue`, which is no mark: scored unchanged, the template is refused rather than
  /// read as all missed.
  static func template(
    _ round: DrillRound, drill: Drill, deepDive: String?, scenarios: DrillScenarios? = nil, scenario: DrillScenarios.Scenario? = nil
  ) -> String {
    let phases = deepDive == nil ? round.phases : round.phases(deepDive: deepDive)
    var lines = [
      "# Answers: make drill-\(drill.id)\(deepDive.map { " (deep dive \($0))" } ?? "")",
      "",
      "Write each phase's answer under its heading, then mark each signal: - [x] hit, - [ ] missed.",
      "A signal left as - [?] is unmarked, and the file is not scored until none is.",
      deepDive == nil && !round.options.isEmpty
        ? "Keep one deep dive (\(round.options.map(\.label).joined(separator: ", "))) and delete the others: the pick is yours." : "",
      "",
    ]
    if let scenarios {
      if let scenario {
        lines += ["scenario: \(scenario.id)", ""] + scenarios.card(scenario).components(separatedBy: "\n").map { "> \($0)" } + [""]
      } else {
        lines += ["scenario: ", "", "> Name one of \(scenarios.scenarios.map(\.id).joined(separator: ", ")); SEED= picks one and writes its card here.", ""]
      }
    }
    for phase in phases {
      lines += ["## \(phase.label). \(phase.title)", ""]
      lines += phase.prompts.components(separatedBy: "\n").filter { !$0.isEmpty }.map { "> \($0)" }
      lines += ["", "(your answer)", ""]
      for decision in scenarios?.decisions.filter({ $0.phase == phase.label }) ?? [] {
        lines += [
          "> Decision: \(decision.question) (\(decision.choices.joined(separator: " | ")))", "- choice \(decision.id): ",
          "> What it costs in this scenario, and the condition it rests on, in \(DecisionGrade.sayingWords) words or more:", "- cost \(decision.id): ",
        ]
        for estimate in decision.estimates {
          lines += ["> Estimate: \(estimate.question), in \(estimate.unit)", "- estimate \(estimate.id): "]
        }
        let changes = scenario.flatMap { scenario in scenario.keys[decision.id]?.changes(scenario: scenario.id, decision: decision.id) }
        let first = changes?.first?.say ?? "one constraint changes (SEED= names it)"
        lines += [
          "> Then: \(first). Your choice now, and why (\(DecisionGrade.sayingWords) words or more)?", "- then \(decision.id): ", "- why \(decision.id): ", "",
        ]
        if let second = changes?.dropFirst().first {
          lines += [
            "> Or instead: \(second.say). Your choice now, and why?", "- instead \(decision.id): ", "- why-instead \(decision.id): ", "",
          ]
        }
      }
      lines += phase.signals.map { "- [?] \($0.cue)" } + [""]
    }
    lines += ["## Communication", ""] + round.communication.map { "- [?] \($0.cue)" } + [""]
    return lines.joined(separator: "\n")
  }
}
