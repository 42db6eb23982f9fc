import Foundation

/// `make review`: the interview questions that are due again, across every chapter, the weakest
/// and the most overdue first (the schedule is SM-2: `Schedule`).
///
/// After the due questions come new ones, never rated, in chapter order, at most `NEW=` a day
/// (`NewQuestions`); the plan is `ReviewCommand.plan`. On a terminal they are asked like the
/// walkthrough's; without one (a pipe, CI) the command lists what it would ask, says that nothing
/// was recorded, and exits 0.
struct ReviewCommand: Command {
  static let name = "review"
  static let arguments = "[--chapter N] [--limit K] [--new K] [--timed T]"
  static let summary = "ask the interview questions that are due, weakest and most overdue first, then new ones"

  let chapter: Int?
  let limit: Int?
  /// New questions a day (`--new`, else `NewQuestions.standardPerDay`).
  let newPerDay: Int
  /// Seconds an answer may take (`--timed`, else the `TIMED` variable `make` passes on).
  let timeLimit: Int?

  init(_ arguments: [String]) throws {
    let parsed = try Arguments(
      arguments,
      options: [
        "--chapter": "a chapter number", "--limit": "how many questions at most", "--new": "how many new questions a day",
        "--timed": "a time such as 1, 90 or 3m",
      ])
    chapter = try parsed.number("--chapter", "a chapter number")
    limit = try parsed.number("--limit", "how many questions at most")
    newPerDay = try NewQuestions.perDay(parsed.options["--new"])
    timeLimit = try AnswerTime.parse(parsed.options["--timed"] ?? ProcessInfo.processInfo.environment["TIMED"] ?? "")
  }

  func run() throws -> Bool {
    let catalog = try Catalog.load()
    if let chapter { _ = try catalog.chapter(chapter) }
    if let drills = DrillHistory.reviewNote(catalog, chapter: chapter, now: SystemClock().now()) { print(drills + "\n") }
    let clock = SystemClock()
    let store = RatingsStore()
    let keys = TerminalKeys()
    // A drill's missed signals are asked like questions; the plan keeps them only when due (they
    // were put in the queue by the drill), never as new questions.
    let signalCards = DrillSignalCards.questions(catalog, now: clock.now()).filter { chapter == nil || $0.chapter == chapter }
    let cards = store.load(now: clock.now())
    let plan = Self.plan(
      InterviewQuestion.loadAll(catalog) + signalCards.filter { cards[$0.key] != nil }, store: store, schedule: Schedule(), now: clock.now(),
      chapter: chapter, limit: limit, newPerDay: newPerDay, firstChapter: catalog.chapters.first?.number ?? 1)
    guard let keys, !plan.questions.isEmpty else {
      print(plan.message)
      if !plan.questions.isEmpty { print(Style.yellow(Self.notRecorded)) }
      return true
    }
    print(plan.message)
    if let timeLimit { print(Style.dim("You have \(minutesAndSeconds(timeLimit)) an answer.")) }
    let session = InterviewSession(
      keys: keys, clock: clock, write: InterviewSession.toStandardOutput, store: store, timeLimit: timeLimit)
    let (total, due) = (plan.questions.count, plan.due.count)
    _ = session.run(plan.questions) { index, question in
      let source = question.drill.map { "drill \($0)" } ?? "chapter \(question.chapter)"
      return "Review \(index + 1) of \(total) · \(source)" + (index < due ? "" : " · new")
    }
    keys.restore()
    return true
  }
}
