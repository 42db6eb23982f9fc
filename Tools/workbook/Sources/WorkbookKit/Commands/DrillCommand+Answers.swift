import Foundation

extension DrillCommand {
  /// `make drill-chat ANSWERS=file`: scores a candidate's written answers (`DrillAnswers`) without a
  /// terminal and prints each area's level. Nothing is recorded: a calibration run is not the
  /// learner's attempt, so neither the history nor the review queue changes. A missed decision is
  /// named with what to weigh; the key's choice, reason and arithmetic only with `showKey` (`KEY=1`). A missing file is
  /// written as a template to fill in, with the run's phases and every signal unmarked.
  static func score(
    _ drill: Drill, answers file: String, root: String = ".", console: Console, seed: UInt64?, showKey: Bool = false
  ) throws {
    func say(_ text: String) { console.write(text + "\n") }
    let text = try TextFile.contents(path(drill.file, in: root), shown: drill.file)
    guard let round = DrillRound.parse(text) else {
      throw Failure("\(drill.file) is in the older format, marked by points on a terminal; ANSWERS= scores a round")
    }
    let scenarios = try DrillScenarios.load(drill, root: root)
    guard FileManager.default.fileExists(atPath: file) else {
      let deepDive = seed.flatMap(round.deepDive(seed:))
      let scenario = seed.flatMap { seed in scenarios?.scenario(seed: seed) }
      do {
        try DrillAnswers.template(round, drill: drill, deepDive: deepDive, scenarios: scenarios, scenario: scenario).write(
          toFile: file, atomically: true, encoding: .utf8)
      } catch {
        throw Failure("\(file) does not exist and cannot be written as a template (\(error))")
      }
      say("\(file) did not exist: it now holds a template for make drill-\(drill.id). Write the answers, mark the signals, run again.")
      return
    }
    let answers = try DrillAnswers.parse(try TextFile.contents(file, shown: file), shown: file)
    let assessment = try assess(answers, round: round, scenarios: scenarios, seed: seed, shown: file, drillFile: drill.file)
    let (deepDive, marks, levels, grades, scenario) = (
      assessment.deepDive, assessment.marks, assessment.levels, assessment.grades, assessment.scenario
    )

    let picked = deepDive.map { label in seed.map { ", deep dive \(label) (SEED=\($0))" } ?? ", deep dive \(label) (the answers' pick)" }
    say(Style.bold(round.title) + Style.dim(" — answers from \(file)\(picked ?? "")\(scenario.map { ", scenario \($0.id)" } ?? "")"))
    for area in round.areas {
      let level = levels[area.name] ?? .belowSenior
      let signals = round.signals(of: area, deepDive: deepDive)
      func count(_ kind: DrillSignal.Kind) -> String {
        let all = signals.filter { $0.kind == kind }
        return "\(all.filter { marks[$0.id] == true }.count)/\(all.count)"
      }
      let detail = "must-hit \(count(.mustHit)), judgment \(count(.judgment)), bonus \(count(.bonus))"
      say("  \(padded(area.name, 28)) \(padded(level.rawValue, 14)) \(Style.dim(detail))")
    }
    if !grades.isEmpty {
      say(
        Style.bold("Decisions")
          + Style.dim(
            " (graded against the scenario's key: an area is no higher than its lowest decision; an area without decisions,"
              + " no higher than the lowest area with them)"))
      for grade in grades {
        say("  \(padded(grade.decision, 28)) \(grade.level.rawValue)")
        for finding in grade.findings { say(Style.dim("    - \(finding)")) }
        if showKey { for line in grade.key { say(Style.dim("    key: \(line)")) } }
      }
      if !showKey && grades.contains(where: { !$0.key.isEmpty }) {
        say(Style.dim("The key's choices and arithmetic are left out: answer again, or add KEY=1 to see them."))
      }
    }
    say(Style.dim("Levels: " + levelRule + " Nothing was recorded."))
  }

  /// What a file of answers comes to: the deep dive and scenario it runs, its marks, each
  /// decision's grade and each area's level.
  struct Assessment {
    let deepDive: String?
    let marks: [String: Bool]
    let levels: [String: DrillLevel]
    let grades: [DecisionGrade]
    let scenario: DrillScenarios.Scenario?
  }

  /// Scores `answers` against `round` and, when the drill has them, its scenarios; refused as the
  /// file's problems say.
  static func assess(
    _ answers: DrillAnswers, round: DrillRound, scenarios: DrillScenarios?, seed: UInt64?, shown file: String, drillFile: String
  ) throws -> Assessment {
    let deepDive = try answers.deepDive(round, seed: seed, shown: file)
    let marks = try answers.marks(round, deepDive: deepDive, shown: file)
    var levels = round.levels(marks: marks, deepDive: deepDive)
    var grades: [DecisionGrade] = []
    var scenario: DrillScenarios.Scenario?
    if let scenarios {
      let chosen = try Self.scenario(scenarios, answers: answers.decisions, seed: seed, shown: file)
      grades = scenarios.grades(round, deepDive: deepDive, scenario: chosen, answers: answers.decisions)
      if seed == nil, let pick = scenarios.pickGrade(deepDive, scenario: chosen) { grades.append(pick) }
      levels = scenarios.levels(round, signalLevels: levels, deepDive: deepDive, grades: grades)
      scenario = chosen
    } else if !answers.decisions.isEmpty {
      throw Failure("\(file) answers decision points, but \(drillFile) has no \(DrillScenarios.fileName): mark its signals only")
    }
    return Assessment(deepDive: deepDive, marks: marks, levels: levels, grades: grades, scenario: scenario)
  }

  /// The scenario the answers are graded against: `seed`'s, or the one the file names. Refused when
  /// both are given and differ, when neither is, or when the file names decisions the drill lacks.
  static func scenario(
    _ scenarios: DrillScenarios, answers: DecisionAnswers, seed: UInt64?, shown: String
  ) throws -> DrillScenarios.Scenario {
    let unknown = answers.unknownIds(scenarios)
    guard unknown.isEmpty else {
      throw Failure(
        "\(shown) names what the drill does not have: \(unknown.joined(separator: ", ")); the decisions are "
          + scenarios.decisions.map(\.id).joined(separator: ", "))
    }
    let ids = scenarios.scenarios.map(\.id).joined(separator: ", ")
    let named = answers.scenario.flatMap { $0.isEmpty ? nil : $0 }
    if let named, scenarios.scenario(named: named) == nil {
      throw Failure("\(shown) names scenario \(named), which the drill does not have; it has \(ids)")
    }
    if let seed {
      let drawn = scenarios.scenario(seed: seed)
      if let named, named != drawn.id {
        throw Failure("\(shown) answers scenario \(named), but SEED=\(seed) draws \(drawn.id); answer it, or leave SEED= out")
      }
      return drawn
    }
    guard let named, let scenario = scenarios.scenario(named: named) else {
      throw Failure("\(shown) names no scenario; write `scenario: ID` (one of \(ids)) at the top, or give SEED=")
    }
    return scenario
  }
}
