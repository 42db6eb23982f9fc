/// `make test`: the untouched starter compiles, does not crash, and leaves every exercise with at
/// least one failing test, so no exercise is solved before the learner has written anything.
struct CheckStarterCommand: Command {
  static let name = "check-starter"
  static let arguments = "[N…]"
  static let summary = "every exercise fails on the untouched starter (all chapters, or those named)"

  let chapters: [Int]

  init(_ arguments: [String]) throws {
    chapters = try Arguments(arguments, positionals: 0...Int.max).chapters()
  }

  func run() throws -> Bool {
    let catalog = try Catalog.load()
    let wanted = chapters.isEmpty ? catalog.chapters : try chapters.map { try catalog.chapter($0) }
    let results = try Grader.grade(wanted, Variant())
    var ok = true
    for (chapter, result) in zip(wanted, results) {
      var problems: [String] = []
      if !result.compiled { problems.append("does not compile") }
      if let crash = result.crash { problems.append(crash) }
      for exercise in result.exercises where result.compiled {
        if exercise.total == 0 { problems.append("exercise \(exercise.number) has no tests") }
        if exercise.solved { problems.append("exercise \(exercise.number) already passes on the starter") }
      }
      let mark = problems.isEmpty ? Style.green(Style.pass) : Style.red(Style.fail)
      let summary = result.exercises.map { "\($0.number): \($0.failures.count)/\($0.total) failing" }
      print("\(mark) starter of chapter \(chapter.number) (\(chapter.module)) — " + summary.joined(separator: ", "))
      for problem in problems { print("    " + problem) }
      ok = ok && problems.isEmpty
    }
    return ok
  }
}
