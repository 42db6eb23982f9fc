import Foundation

/// `make walkthrough-N`: interview practice, one question at a time.
///
/// Each `## ` heading of the chapter's `interview.md` is a question; its body holds the model
/// answer, follow-ups and red flags. On a terminal the learner answers out loud, then presses
/// Enter to compare; without a terminal (a pipe, CI) every question and answer is printed.
struct WalkthroughCommand: Command {
  static let name = "walkthrough"
  static let arguments = "N"
  static let summary = "interview practice for chapter N, one question at a time"

  let chapter: Int

  init(_ arguments: [String]) throws {
    chapter = try Arguments(arguments, positionals: 1...1).chapter()
  }

  func run() throws -> Bool {
    let chapter = try Catalog.load().chapter(self.chapter)
    try Self.walk(chapter.interviewPath, title: "Chapter \(chapter.number) — \(chapter.title): interview walkthrough")
    return true
  }

  static func walk(_ path: String, title: String) throws {
    let questions = try markdownSections(path)
    guard !questions.isEmpty else { throw Failure("\(path) has no `## ` questions") }
    let interactive = isatty(STDIN_FILENO) != 0
    print(Style.bold(title))
    if interactive {
      print(Style.dim("Answer each question out loud, as in an interview, then press Enter to compare. q quits.\n"))
    }
    for (index, question) in questions.enumerated() {
      print(Style.bold("\nQuestion \(index + 1) of \(questions.count): ") + question.heading)
      if interactive {
        print(Style.dim("  [Enter] show the model answer"), terminator: "")
        fflush(nil)
        if readLine()?.lowercased() == "q" { return }
      }
      print("")
      print(render(question.body))
      if interactive && index + 1 < questions.count {
        print(Style.dim("\n  [Enter] next question"), terminator: "")
        fflush(nil)
        if readLine()?.lowercased() == "q" { return }
      }
    }
  }

  /// Headings inside an answer become bold labels; the rest is printed as written.
  static func render(_ markdown: String) -> String {
    markdown.components(separatedBy: "\n").map { line in
      if line.hasPrefix("### ") { return Style.bold(String(line.dropFirst(4))) }
      return line.isEmpty ? "" : "  " + line
    }.joined(separator: "\n")
  }
}
