import Foundation

extension DrillCommand {
  /// `make drill-chat ANSWERS=file`: scores a candidate's written answers (`DrillAnswers`) without a
  /// terminal and prints each area's level. Nothing is recorded: a calibration run is not the
  /// learner's attempt, so neither the history nor the review queue changes. A missing file is
  /// written as a template to fill in, with the run's phases and every signal unmarked.
  static func score(
    _ drill: Drill, answers file: String, root: String = ".", console: Console, seed: UInt64?
  ) throws {
    func say(_ text: String) { console.write(text + "\n") }
    let text = try TextFile.contents(path(drill.file, in: root), shown: drill.file)
    guard let round = DrillRound.parse(text) else {
      throw Failure("\(drill.file) is in the older format, marked by points on a terminal; ANSWERS= scores a round")
    }
    guard FileManager.default.fileExists(atPath: file) else {
      let deepDive = seed.flatMap(round.deepDive(seed:))
      do {
        try DrillAnswers.template(round, drill: drill, deepDive: deepDive).write(toFile: file, atomically: true, encoding: .utf8)
      } catch {
        throw Failure("\(file) does not exist and cannot be written as a template (\(error))")
      }
      say("\(file) did not exist: it now holds a template for make drill-\(drill.id). Write the answers, mark the signals, run again.")
      return
    }
    let answers = try DrillAnswers.parse(try TextFile.contents(file, shown: file), shown: file)
    let deepDive = try answers.deepDive(round, seed: seed, shown: file)
    let marks = try answers.marks(round, deepDive: deepDive, shown: file)
    let levels = round.levels(marks: marks, deepDive: deepDive)

    let picked = deepDive.map { label in seed.map { ", deep dive \(label) (SEED=\($0))" } ?? ", deep dive \(label) (the answers' pick)" }
    say(Style.bold(round.title) + Style.dim(" — answers from \(file)\(picked ?? "")"))
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
    say(Style.dim("Levels: " + levelRule + " Nothing was recorded."))
  }
}
