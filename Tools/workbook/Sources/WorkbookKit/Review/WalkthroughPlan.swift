import Foundation

/// Where `make walkthrough-N` starts and what it asks, from the ratings already on disk.
///
/// - Nothing rated yet: every question, from the first.
/// - Some rated: it resumes at the first question not yet rated and asks only the ones not yet
///   rated, in order (a question skipped last time is the first asked this time).
/// - `FROM=K` (`--from K`): every question from the K-th on, rated or not; `FROM=1` starts over.
///   Ratings are never deleted: answering again updates each question's schedule.
/// - Every question rated: nothing is asked until the learner chooses the due ones or a restart.
struct WalkthroughPlan: Equatable {
  /// Positions (from 0) in the chapter's questions to ask, in order.
  var positions: [Int]
  /// What to say before the first question (`resuming at question 4 of 11; 3 rated…`); nil on a
  /// first walkthrough.
  var note: String?
  /// True when every question is rated and no `FROM=` was given.
  var allRated = false
  /// Positions of the questions due now, weakest and most overdue first (`Schedule.queue`).
  var due: [Int] = []

  /// - Complexity: O(n log n) for n questions.
  static func make(
    chapter: Int, questions: [InterviewQuestion], cards: [String: Card], from: Int?, schedule: Schedule, now: Date
  ) -> WalkthroughPlan {
    let count = questions.count
    let unrated = questions.indices.filter { cards[questions[$0].key] == nil }
    let rated = count - unrated.count
    if let from {
      let start = min(max(from, 1), max(count, 1))
      let before = rated == 0 ? "" : "; \(rated) rated before, and answering again updates their schedule"
      return WalkthroughPlan(
        positions: Array((start - 1)..<count),
        note: start == 1 ? "Starting over at question 1 of \(count)\(before)." : "Starting at question \(start) of \(count)\(before).")
    }
    if rated == 0 { return WalkthroughPlan(positions: Array(0..<count), note: nil) }
    guard let first = unrated.first else {
      let position = Dictionary(questions.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
      let chapterCards = cards.filter { position[$0.key] != nil }
      let due = schedule.queue(chapterCards, at: now).compactMap { position[$0] }
      return WalkthroughPlan(positions: [], note: allRatedNote(chapter: chapter, count: count, due: due.count), allRated: true, due: due)
    }
    return WalkthroughPlan(
      positions: unrated,
      note: "Resuming at question \(first + 1) of \(count); \(rated) rated, \(unrated.count) to go "
        + "(`make walkthrough-\(chapter) FROM=1` starts over).")
  }

  /// `All 11 questions of chapter 1 are rated; 2 are due now.`
  static func allRatedNote(chapter: Int, count: Int, due: Int) -> String {
    let dueNow = due == 0 ? "none is due now" : "\(due == 1 ? "1 is" : "\(due) are") due now"
    return "All \(plural(count, "question")) of chapter \(chapter) are rated; \(dueNow)."
  }

  /// The choices once every question is rated, as keys on a terminal.
  static func choicePrompt(due: Int) -> String {
    (due > 0 ? "[d] the \(due) due now  " : "") + "[1] start over at question 1  [q] quit"
  }

  /// The same choices as commands, for a run without a terminal.
  static func choiceCommands(chapter: Int, due: Int) -> String {
    (due > 0 ? "`make review CHAPTER=\(chapter)` asks the due ones; " : "`make review` brings each back when it is due; ")
      + "`make walkthrough-\(chapter) FROM=1` goes through them all again."
  }

  enum Choice: Equatable {
    case due, restart, quit
  }

  /// Waits for one of the choices of `choicePrompt`.
  static func choose(_ keys: any KeySource, due: Int) -> Choice {
    while true {
      switch keys.next(timeout: nil) {
      case .key("d"), .key("D"): if due > 0 { return .due }
      case .key("1"): return .restart
      case .key("q"), .key("Q"), .end: return .quit
      default: continue
      }
    }
  }

  /// What the walkthrough says before it prints the questions when there is no terminal.
  static func notATerminal(chapter: Int) -> String {
    "Not a terminal: the questions and their model answers are printed, nothing is asked and nothing is recorded. "
      + "To answer and rate them, run `make walkthrough-\(chapter)` in a terminal."
  }

  /// And after them.
  static func nothingRecorded(chapter: Int) -> String {
    "Nothing was recorded: this was not a terminal. Run `make walkthrough-\(chapter)` in a terminal to rate your answers."
  }
}
