import Foundation

extension Checker {
  /// What `extras` in `exercises.json` says is there: the drill parses and has its reference design
  /// (`DrillRule.swift`), the figures are the files in `figures/`, and the chapter's tests use the
  /// practice server exactly when it says so.
  func extrasProblems(_ chapter: Chapter) -> [Problem] {
    var found: [Problem] = []
    func problem(_ message: String) { found.append(Problem(rule: .extras, message: message)) }
    if let drill = chapter.extras.drill {
      found += drillProblems("\(chapter.folder)/\(drill)", chapter)
      found += referenceDesignProblems(chapter.folder)
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
}
