import Foundation

/// `make walkthrough-N`: interview practice, one question at a time.
///
/// Each `## ` heading of the chapter's `interview.md` is a question; its body holds the model
/// answer, follow-ups and red flags. On a terminal the learner answers out loud, presses Enter to
/// compare (or `s` to skip), then rates their answer with one key (`InterviewSession`); the
/// ratings feed `make review`. A second walkthrough resumes at the first question not yet rated;
/// `FROM=K` starts at question K (`WalkthroughPlan`). `TIMED=1` adds a two-minute countdown.
/// Without a terminal (a pipe, CI) the questions it would ask are printed with their answers, and
/// it says that nothing was asked or recorded.
struct WalkthroughCommand: Command {
  static let name = "walkthrough"
  static let arguments = "N [--from K] [--restart] [--timed T]"
  static let summary = "interview practice for chapter N, one question at a time, rated as you go; resumes where you stopped"

  let chapter: Int
  /// The question to start at (`--from`, `--restart` is 1); nil resumes.
  let from: Int?
  /// Seconds an answer may take (`--timed`, else the `TIMED` variable `make` passes on).
  let timeLimit: Int?

  init(_ arguments: [String]) throws {
    let parsed = try Arguments(
      arguments, flags: ["--restart"], options: ["--from": "a question number", "--timed": "a time such as 1, 90 or 3m"],
      positionals: 1...1)
    chapter = try parsed.chapter()
    from = try parsed.has("--restart") ? 1 : parsed.number("--from", "a question number, 1 or more")
    timeLimit = try AnswerTime.parse(parsed.options["--timed"] ?? ProcessInfo.processInfo.environment["TIMED"] ?? "")
  }

  func run() throws -> Bool {
    let chapter = try Catalog.load().chapter(self.chapter)
    let title = "Chapter \(chapter.number) — \(chapter.title): interview walkthrough"
    let questions = try InterviewQuestion.load(chapter)
    guard !questions.isEmpty else { throw Failure("\(chapter.interviewPath) has no `## ` questions") }
    if let from, from > questions.count {
      throw UsageError("FROM=\(from): chapter \(chapter.number) has \(plural(questions.count, "question"))")
    }
    let clock = SystemClock()
    let store = RatingsStore()
    let cards = store.reconcile(questions, now: clock.now())
    let plan = WalkthroughPlan.make(
      chapter: chapter.number, questions: questions, cards: cards, from: from, schedule: Schedule(), now: clock.now())
    print(Style.bold(title))
    guard let keys = TerminalKeys() else {
      print(Self.listing(plan, questions, chapter: chapter.number))
      return true
    }
    defer { keys.restore() }
    if let note = plan.note { print(note) }
    var asked = plan.positions
    if plan.allRated {
      print(Style.bold(WalkthroughPlan.choicePrompt(due: plan.due.count)))
      switch WalkthroughPlan.choose(keys, due: plan.due.count) {
      case .due: asked = plan.due
      case .restart: asked = Array(questions.indices)
      case .quit: return true
      }
    }
    let timing = timeLimit.map { " You have \(minutesAndSeconds($0)) an answer." } ?? ""
    print(
      Style.dim(
        "Answer each question out loud, as in an interview, then press Enter to compare and rate your answer"
          + " with one key (s skips a question).\(timing) q quits."))
    let session = InterviewSession(
      keys: keys, clock: clock, write: InterviewSession.toStandardOutput, store: store, timeLimit: timeLimit)
    _ = session.run(asked.map { questions[$0] }) { index, _ in "Question \(asked[index] + 1) of \(questions.count)" }
    return true
  }

  /// Without a terminal: what the walkthrough would ask, each question with its answer, between
  /// two lines that say nothing is recorded; or, with every question rated, what to run next.
  static func listing(_ plan: WalkthroughPlan, _ questions: [InterviewQuestion], chapter: Int) -> String {
    var lines: [String] = []
    if let note = plan.note { lines.append(note) }
    if plan.allRated {
      lines.append(WalkthroughPlan.choiceCommands(chapter: chapter, due: plan.due.count))
      return lines.joined(separator: "\n")
    }
    lines.append(Style.yellow(WalkthroughPlan.notATerminal(chapter: chapter)))
    for position in plan.positions {
      lines.append(Style.bold("\nQuestion \(position + 1) of \(questions.count): ") + questions[position].heading)
      lines.append("")
      lines.append(render(questions[position].body))
    }
    lines.append("\n" + Style.yellow(WalkthroughPlan.nothingRecorded(chapter: chapter)))
    return lines.joined(separator: "\n")
  }

  /// Headings inside an answer become bold labels; the rest is printed as written.
  static func render(_ markdown: String) -> String {
    markdown.components(separatedBy: "\n").map { line in
      if line.hasPrefix("### ") { return Style.bold(String(line.dropFirst(4))) }
      return line.isEmpty ? "" : "  " + line
    }.joined(separator: "\n")
  }
}
