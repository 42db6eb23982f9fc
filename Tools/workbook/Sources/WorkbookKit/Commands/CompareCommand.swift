import Foundation

/// `make compare-N`: the learner's code of a chapter against the reference answer, as a diff.
struct CompareCommand: Command {
  static let name = "compare"
  static let arguments = "N"
  static let summary = "diff your chapter N against the reference answer"

  let chapter: Int

  init(_ arguments: [String]) throws {
    chapter = try Arguments(arguments, positionals: 1...1).chapter()
  }

  func run() throws -> Bool {
    let chapter = try Catalog.load().chapter(self.chapter)
    guard FileManager.default.fileExists(atPath: chapter.answerPath) else {
      print("The reference answer \(chapter.answerPath) is not in this copy of the workbook.")
      return false
    }
    print("Your code (\(chapter.starterPath)) against the answer (\(chapter.answerPath)):")
    let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    let status = try runAttached([
      "diff", "-ru", "--color=\(noColor ? "never" : "auto")", chapter.starterPath, chapter.answerPath,
    ])
    if status == 0 { print("identical") }
    // Differences are what the learner asked to see, not a failure.
    return true
  }
}
