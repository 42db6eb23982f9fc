import Foundation

/// A drill's written answers at two levels, `exemplars/senior.md` and `exemplars/staff.md` beside
/// a drill with scenarios: answers files (`DrillAnswers`) to one scenario of about 400 words each,
/// so a learner compares their answer with an example rather than with a list of cues. `workbook
/// check` scores each one and holds it to its name: every area at that level.
enum DrillExemplars {
  static let folder = "exemplars"

  static func fileName(_ level: DrillLevel) -> String { "\(level == .staff ? "staff" : "senior").md" }

  /// What is wrong with the exemplar at `file`: missing, refused, or an area at another level.
  static func problems(_ file: String, level: DrillLevel, round: DrillRound, scenarios: DrillScenarios, drillFile: String) -> [String] {
    guard let text = TextFile.read(file) else {
      return ["missing: a drill with scenarios has a written \(level.rawValue) answer to one of them, as an answers file"]
    }
    do {
      let answers = try DrillAnswers.parse(text, shown: file)
      let assessment = try DrillCommand.assess(answers, round: round, scenarios: scenarios, seed: nil, shown: file, drillFile: drillFile)
      return round.areas.compactMap { area in
        let found = assessment.levels[area.name] ?? .belowSenior
        return found == level ? nil : "\(area.name) scores \(found.rawValue); the \(level.rawValue) exemplar scores \(level.rawValue) in every area"
      }
    } catch {
      return ["cannot be scored: \(error)"]
    }
  }
}
