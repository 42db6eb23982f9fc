import Foundation

/// Which code a grading run compiles for the selected chapters.
struct Variant: Codable, Equatable {
  /// Chapters built from `answers/` (all of them with `make chapter-N ANSWERS=1`; a chapter that
  /// composes others takes a few with `REFERENCE=3,4`).
  var answers: Set<Int> = []
  /// The chapter read from `.mutant/` (`make mutants`).
  var mutant: Int?
  /// Built and run under the thread sanitizer (`SANITIZE=1`).
  var sanitize = false

  /// A name for the build folder: `starter`, `answers`, `reference-3-4` or `mutant-2`.
  func label(for chapters: [Chapter]) -> String {
    let numbers = chapters.map(\.number)
    if let mutant { return "mutant-\(mutant)" }
    if numbers.allSatisfy(answers.contains) { return "answers" }
    if answers.isEmpty { return "starter" }
    return "reference-" + answers.sorted().map(String.init).joined(separator: "-")
  }

  /// Whether two runs compiled the same code (the sanitizer does not change what is graded).
  func gradesSameCode(as other: Variant) -> Bool {
    answers == other.answers && mutant == other.mutant
  }

  /// The code of a run of the learner's chapter, in words.
  var inWords: String {
    guard !answers.isEmpty else { return "your own code" }
    return "the reference answers of chapters " + answers.sorted().map(String.init).joined(separator: ", ")
  }

  /// What `swift build` and `swift test` are given: the sanitizer flag, or nothing.
  var swiftFlags: [String] { sanitize ? ["--sanitize=thread"] : [] }

  func environment(for chapters: [Chapter]) -> [String: String] {
    var environment = [
      "WORKBOOK_CHAPTERS": chapters.map { String($0.number) }.joined(separator: ","),
      "WORKBOOK_ANSWERS": answers.sorted().map(String.init).joined(separator: ","),
    ]
    if let mutant { environment["WORKBOOK_MUTANT"] = String(mutant) }
    if sanitize {
      // Stop at the first race: the exercise that raced is then graded alone and shows the report.
      let suppressions = FileManager.default.currentDirectoryPath + "/Tools/tsan-suppressions.txt"
      environment["TSAN_OPTIONS"] = "suppressions=\(suppressions) halt_on_error=1"
    }
    return environment
  }
}
