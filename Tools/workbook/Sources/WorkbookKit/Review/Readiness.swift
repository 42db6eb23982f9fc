import Foundation

/// How ready the learner is for a chapter's interview, for `make progress`: of its questions, how
/// many were seen (rated at least once), how many are due now, and how many are learned (the last
/// answer good or easy, on an interval of at least `Schedule.learnedInterval` days).
struct Readiness {
  struct Count: Equatable {
    var questions = 0
    var learned = 0
    var due = 0
    /// Questions rated at least once.
    var rated = 0
  }

  let counts: [Int: Count]

  /// What the interview columns of `make progress` mean.
  static let legend =
    "Interview: seen = rated at least once; due = due for review now; learned = your last answer was good or easy\n"
    + "and SM-2 spaced it \(Schedule.learnedInterval) days or more (at the earliest, the third right answer in a row)."
    + " `make review` asks what is due, then new questions."

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

  /// `interview 3/7 seen, 2 due, 1 learned`: seen is rated at least once, due is due now (overdue
  /// included), learned is `Schedule.isLearned`. With nothing seen yet, how to start.
  func line(_ chapter: Int) -> String {
    let count = counts[chapter] ?? Count()
    guard count.rated > 0 else { return Style.dim("interview 0/\(count.questions) seen: make walkthrough-\(chapter)") }
    let due = ", " + (count.due > 0 ? Style.yellow("\(count.due) due") : "0 due")
    let learned = ", " + (count.learned == count.questions ? Style.green("\(count.learned) learned") : "\(count.learned) learned")
    return "interview \(count.rated)/\(count.questions) seen" + due + learned
  }
}
