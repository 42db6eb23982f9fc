import Foundation

/// `make review`: the interview questions that are due again, across every chapter, the weakest
/// and the most overdue first (the schedule is SM-2: `Schedule`).
///
/// A question joins the review once it has been rated in a walkthrough (`make walkthrough-N`). On a
/// terminal the due questions are asked like the walkthrough's; without one (a pipe, CI) the
/// command lists what is due and exits 0.
struct ReviewCommand: Command {
  static let name = "review"
  static let arguments = "[--chapter N] [--limit K] [--timed T]"
  static let summary = "ask the interview questions that are due, weakest and most overdue first"

  let chapter: Int?
  let limit: Int?
  /// Seconds an answer may take (`--timed`, else the `TIMED` variable `make` passes on).
  let timeLimit: Int?

  init(_ arguments: [String]) throws {
    let parsed = try Arguments(
      arguments,
      options: ["--chapter": "a chapter number", "--limit": "how many questions at most", "--timed": "a time such as 1, 90 or 3m"])
    chapter = try parsed.number("--chapter", "a chapter number")
    limit = try parsed.number("--limit", "how many questions at most")
    timeLimit = try AnswerTime.parse(parsed.options["--timed"] ?? ProcessInfo.processInfo.environment["TIMED"] ?? "")
  }

  func run() throws -> Bool {
    let catalog = try Catalog.load()
    if let chapter { _ = try catalog.chapter(chapter) }
    if let drills = DrillHistory.reviewNote(catalog, chapter: chapter, now: SystemClock().now()) { print(drills + "\n") }
    let clock = SystemClock()
    let store = RatingsStore()
    let keys = TerminalKeys()
    let plan = Self.plan(
      InterviewQuestion.loadAll(catalog), store: store, schedule: Schedule(), now: clock.now(),
      chapter: chapter, limit: limit, firstChapter: catalog.chapters.first?.number ?? 1)
    guard let keys, !plan.due.isEmpty else {
      print(plan.message)
      return true
    }
    print(plan.message)
    if let timeLimit { print(Style.dim("You have \(minutesAndSeconds(timeLimit)) an answer.")) }
    let session = InterviewSession(
      keys: keys, clock: clock, write: InterviewSession.toStandardOutput, store: store, timeLimit: timeLimit)
    let total = plan.due.count
    _ = session.run(plan.due) { index, question in "Review \(index + 1) of \(total) · chapter \(question.chapter)" }
    keys.restore()
    return true
  }

  /// What a review would ask, and what to say about it.
  struct Plan {
    /// The questions to ask, in order.
    var due: [InterviewQuestion]
    /// The headline on a terminal; without one, the whole listing.
    var message: String
  }

  /// The due questions of `chapter` (every chapter when nil), weakest and most overdue first, at
  /// most `limit`; or why there are none: nothing rated yet (and how to start), or nothing due
  /// yet (and when the next question is).
  ///
  /// - Complexity: O(n log n) for n questions (the ratings are read once).
  static func plan(
    _ questions: [InterviewQuestion], store: RatingsStore, schedule: Schedule, now: Date, chapter: Int?, limit: Int?,
    firstChapter: Int = 1
  ) -> Plan {
    let asked = questions.filter { chapter == nil || $0.chapter == chapter }
    let byKey = Dictionary(asked.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    let cards = store.reconcile(questions, now: now).filter { byKey[$0.key] != nil }
    guard !cards.isEmpty else {
      let start = chapter ?? firstChapter
      let scope = chapter.map { " in chapter \($0)" } ?? ""
      return Plan(
        due: [],
        message: "Nothing to review yet\(scope): rate your answers in a walkthrough first (`make walkthrough-\(start)`), "
          + "and each question comes back here when it is due.")
    }
    let queue = schedule.queue(cards, at: now)
    let due = queue.prefix(limit ?? queue.count).compactMap { byKey[$0] }
    guard !due.isEmpty else {
      let next = cards.values.map(\.due).min() ?? now
      let count = cards.values.filter { schedule.calendar.isDate($0.due, inSameDayAs: next) }.count
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.calendar = schedule.calendar
      formatter.timeZone = schedule.calendar.timeZone
      formatter.dateFormat = "EEE d MMM"
      let days = max(1, schedule.calendar.dateComponents([.day], from: schedule.calendar.startOfDay(for: now), to: next).day ?? 1)
      return Plan(
        due: [],
        message: "Nothing is due. Next: \(count) question\(count == 1 ? "" : "s") on \(formatter.string(from: next)) "
          + "(in \(days) day\(days == 1 ? "" : "s")).")
    }
    let more = queue.count > due.count ? " (\(queue.count) in all; LIMIT=\(due.count) keeps this session short)" : ""
    var lines = ["\(due.count) question\(due.count == 1 ? "" : "s") due\(more):"]
    for question in due {
      guard let card = cards[question.key] else { continue }
      let late = schedule.daysOverdue(card, at: now)
      let lateness = late > 0 ? ", \(late) day\(late == 1 ? "" : "s") late" : ""
      lines.append("  ch\(question.chapter)  [\(card.lastRating.rawValue)\(lateness)] \(question.heading)")
    }
    return Plan(due: Array(due), message: lines.joined(separator: "\n"))
  }
}
