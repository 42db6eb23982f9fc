import Foundation

/// `make walkthrough-N`: interview practice, one question at a time.
///
/// Each `## ` heading of the chapter's `interview.md` is a question; its body holds the model
/// answer, follow-ups and red flags. On a terminal the learner answers out loud, presses Enter to
/// compare, then rates their answer with one key (`InterviewSession`); the ratings feed `make
/// review`. `TIMED=1` adds a two-minute countdown. Without a terminal (a pipe, CI) every question
/// and answer is printed, and nothing is asked or saved.
struct WalkthroughCommand: Command {
  static let name = "walkthrough"
  static let arguments = "N [--timed T]"
  static let summary = "interview practice for chapter N, one question at a time, rated as you go"

  let chapter: Int
  /// Seconds an answer may take (`--timed`, else the `TIMED` variable `make` passes on).
  let timeLimit: Int?

  init(_ arguments: [String]) throws {
    let parsed = try Arguments(arguments, options: ["--timed": "a time such as 1, 90 or 3m"], positionals: 1...1)
    chapter = try parsed.chapter()
    timeLimit = try AnswerTime.parse(parsed.options["--timed"] ?? ProcessInfo.processInfo.environment["TIMED"] ?? "")
  }

  func run() throws -> Bool {
    let chapter = try Catalog.load().chapter(self.chapter)
    let title = "Chapter \(chapter.number) — \(chapter.title): interview walkthrough"
    let questions = try InterviewQuestion.load(chapter)
    guard !questions.isEmpty else { throw Failure("\(chapter.interviewPath) has no `## ` questions") }
    print(Style.bold(title))
    guard let keys = TerminalKeys() else {
      Self.printAll(questions)
      return true
    }
    let timing = timeLimit.map { " You have \(minutesAndSeconds($0)) an answer." } ?? ""
    print(
      Style.dim(
        "Answer each question out loud, as in an interview, then press Enter to compare and rate your answer"
          + " with one key.\(timing) q quits."))
    let store = RatingsStore()
    _ = store.reconcile(questions)
    let session = InterviewSession(
      keys: keys, clock: SystemClock(), write: InterviewSession.toStandardOutput, store: store,
      timeLimit: timeLimit)
    _ = session.run(questions) { index, _ in "Question \(index + 1) of \(questions.count)" }
    keys.restore()
    return true
  }

  /// Without a terminal: every question and its answer, in order.
  static func printAll(_ questions: [InterviewQuestion]) {
    for (index, question) in questions.enumerated() {
      print(Style.bold("\nQuestion \(index + 1) of \(questions.count): ") + question.heading)
      print("")
      print(render(question.body))
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
