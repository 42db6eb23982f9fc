import Foundation

/// How ready the learner is for a chapter's interview, for `make progress`: of its questions, how
/// many are learned (the last answer good or easy, and the next review at least
/// `Schedule.learnedInterval` days away) and how many are due now.
struct Readiness {
  struct Count: Equatable {
    var questions = 0
    var learned = 0
    var due = 0
    /// Questions rated at least once.
    var rated = 0
  }

  let counts: [Int: Count]

  /// - Complexity: O(q) for q questions, after reading the ratings once.
  init(questions: [InterviewQuestion], store: RatingsStore, now: Date, schedule: Schedule = Schedule()) {
    let cards = store.reconcile(questions, now: now)
    var counts: [Int: Count] = [:]
    for question in questions {
      var count = counts[question.chapter] ?? Count()
      count.questions += 1
      if let card = cards[question.key] {
        count.rated += 1
        if schedule.isLearned(card) { count.learned += 1 }
        if schedule.isDue(card, at: now) { count.due += 1 }
      }
      counts[question.chapter] = count
    }
    self.counts = counts
  }

  /// `interview 3/7 learned, 2 due`, or how to start when no question of the chapter is rated.
  func line(_ chapter: Int) -> String {
    let count = counts[chapter] ?? Count()
    guard count.rated > 0 else { return Style.dim("interview 0/\(count.questions) learned") }
    let due = count.due > 0 ? Style.yellow(", \(count.due) due") : ""
    let text = "interview \(count.learned)/\(count.questions) learned"
    return (count.learned == count.questions ? Style.green(text) : text) + due
  }
}
