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

  /// Where a chapter's code is read from in this run: the learner's starter folder, the
  /// reference answer, or the mutant copy.
  func codePath(for chapter: Chapter) -> String {
    if chapter.number == mutant { return ".mutant/\(chapter.module)" }
    return answers.contains(chapter.number) ? chapter.answerPath : chapter.starterPath
  }

  /// The environment of the build command. `root` is the workbook's folder, as an absolute path;
  /// `linux` says whether the sanitizer needs the workbook's suppressions.
  func environment(
    for chapters: [Chapter], root: String = FileManager.default.currentDirectoryPath, linux: Bool = Platform.isLinux
  ) -> [String: String] {
    var environment = [
      "WORKBOOK_CHAPTERS": chapters.map { String($0.number) }.joined(separator: ","),
      "WORKBOOK_ANSWERS": answers.sorted().map(String.init).joined(separator: ","),
    ]
    if let mutant { environment["WORKBOOK_MUTANT"] = String(mutant) }
    if sanitize {
      // Stop at the first race: the exercise that raced is then graded alone and shows the report.
      // The suppressions are for Linux's `Mutex`, which the sanitizer cannot see lock; on macOS it
      // can, and the same lines would hide real races in the learner's files.
      let suppressions = linux ? root + "/Tools/tsan-suppressions.txt" : nil
      environment["TSAN_OPTIONS"] = Self.sanitizerOptions(suppressions: suppressions, haltOnError: true)
    }
    return environment
  }

  /// The environment of the test commands: the build's, and Swift's backtracer turned on, so a
  /// crash shows the stack with the learner's line (on macOS the runtime leaves it off when the
  /// output is not a terminal, as under the grader). A setting in `inherited`, the tool's own
  /// environment, wins.
  func testEnvironment(
    for chapters: [Chapter], root: String = FileManager.default.currentDirectoryPath, linux: Bool = Platform.isLinux,
    inherited: [String: String] = ProcessInfo.processInfo.environment
  ) -> [String: String] {
    var environment = self.environment(for: chapters, root: root, linux: linux)
    if inherited["SWIFT_BACKTRACE"] == nil {
      environment["SWIFT_BACKTRACE"] = Self.backtraceSettings
    }
    return environment
  }

  /// Swift's crash backtracer: on, never waiting for input, plain text, real paths (the grader
  /// matches them to the learner's files), the crashed thread only.
  static let backtraceSettings = "enable=yes,interactive=no,color=no,sanitize=no,threads=crashed,registers=none,images=none"

  /// `TSAN_OPTIONS` for the thread sanitizer. The suppressions path is quoted, so a workbook in a
  /// folder whose name has spaces works (the sanitizer splits the options at spaces otherwise).
  static func sanitizerOptions(suppressions: String?, haltOnError: Bool) -> String {
    var options: [String] = []
    if let suppressions {
      let quote = suppressions.contains("'") ? "\"" : "'"
      options.append("suppressions=\(quote)\(suppressions)\(quote)")
    }
    options.append("halt_on_error=\(haltOnError ? 1 : 0)")
    return options.joined(separator: " ")
  }
}
