import Foundation

extension Checker {
  /// What `extras` in `exercises.json` says is there: the drill parses, the figures are the files
  /// in `figures/`, and the chapter's tests use the practice server exactly when it says so.
  func extrasProblems(_ chapter: Chapter) -> [Problem] {
    var found: [Problem] = []
    func problem(_ message: String) { found.append(Problem(rule: .extras, message: message)) }
    if let drill = chapter.extras.drill {
      found += drillProblems("\(chapter.folder)/\(drill)", chapter)
    }

    let listed = Set(chapter.extras.figures ?? [])
    let drawn = Set(files(in: "\(chapter.folder)/figures").filter { $0.hasSuffix(".svg") })
    for figure in listed.subtracting(drawn).sorted() {
      problem("\(chapter.exercisesPath) lists the figure \(figure), which is not in \(chapter.folder)/figures; run make figures, or drop it")
    }
    for figure in drawn.subtracting(listed).sorted() {
      problem(
        "\(chapter.folder)/figures/\(figure) is not listed in \(chapter.exercisesPath); add it to "
          + "\"extras\": { \"figures\": [...] }, or delete it if make figures no longer draws it")
    }

    let testFiles = files(in: chapter.testsPath).filter { $0.hasSuffix(".swift") }
    let serverTests = testFiles.filter { (read("\(chapter.testsPath)/\($0)") ?? "").contains("import PracticeServer") }
    let saysServer = chapter.extras.server ?? false
    if saysServer, serverTests.isEmpty {
      problem(
        "\(chapter.exercisesPath) says \"server\": true, but no test in \(chapter.testsPath) imports PracticeServer; "
          + "drop it, or add the tests against the practice server")
    }
    if !saysServer, let first = serverTests.first {
      problem(
        "\(chapter.testsPath)/\(first) imports PracticeServer, but \(chapter.exercisesPath) does not say so; "
          + "add \"extras\": { \"server\": true }")
    }
    return found
  }

  /// A drill has timed phases (`## N. Title — M min`), a rubric of 100 points and red flags.
  func drillProblems(_ relative: String, _ chapter: Chapter) -> [Problem] {
    var found: [Problem] = []
    func problem(_ message: String) { found.append(Problem(rule: .extras, message: message)) }
    guard let text = read(relative) else {
      return [Problem(rule: .extras, message: "\(chapter.exercisesPath) names the drill \(relative), which is missing")]
    }
    let sections = markdownSections(text: text)
    var phases = 0
    for section in sections where section.heading.first?.isNumber == true {
      if DrillCommand.phase(section) == nil {
        problem("\(relative):\(section.line): “\(section.heading)” is not a phase heading; write `## N. Title — M min`")
      } else {
        phases += 1
      }
    }
    if phases == 0 { problem("\(relative) has no timed phases (`## 1. Title — 5 min`)") }
    let points = DrillCommand.rubric(sections.first { $0.heading == "Rubric" }?.body ?? "").reduce(0) { $0 + $1.points }
    if points != 100 {
      problem("\(relative): the `## Rubric` table's points add up to \(points), not 100; the drill scores out of 100")
    }
    if (sections.first { $0.heading == "Red flags" }?.body ?? "").isEmpty {
      problem("\(relative) has no `## Red flags` section, or it is empty")
    }
    return found
  }
}
