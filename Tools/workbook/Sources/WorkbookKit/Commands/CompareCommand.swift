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
    let color = Self.diffTakesColor ? (noColor ? "never" : "auto") : nil
    let status = try runAttached(Self.diffArguments(chapter.starterPath, chapter.answerPath, color: color))
    if status == 0 { print("identical") }
    // Differences are what the learner asked to see, not a failure.
    return true
  }

  /// `diff` of a starter folder against its answer, leaving out clutter (a `.DS_Store` is no
  /// difference of the learner's). `color` is the value of `--color=`, or nil to leave it out.
  static func diffArguments(_ starter: String, _ answer: String, color: String?) -> [String] {
    ["diff", "-ru"] + Clutter.diffExclusions + (color.map { ["--color=\($0)"] } ?? []) + [starter, answer]
  }

  /// Whether this system's `diff` takes `--color` (GNU diff does; the one macOS ships may not).
  static var diffTakesColor: Bool {
    (try? runCommand(["diff", "--color=never", "/dev/null", "/dev/null"], timeout: 10))?.status == 0
  }
}
