import Foundation

/// How many questions never rated `make review` offers in a day (`NEW=K`, `--new K`).
///
/// The day is a calendar day of the schedule's calendar, and the count comes from the ratings
/// store: a question whose first answer was given today counts against today's number, whether it
/// was rated in the review or in a walkthrough. So a learner who rated six new questions in
/// `make walkthrough-1` this morning is offered none in the evening's review, and five tomorrow.
enum NewQuestions {
  /// New questions a day when `NEW=` is not given: with a dozen questions a chapter, a chapter's
  /// questions are all seen in two or three days, and a day's review stays a few minutes long.
  static let standardPerDay = 5

  /// `NEW=`: a whole number, 0 (no new questions) or more; nothing means `standardPerDay`.
  static func perDay(_ text: String?) throws -> Int {
    guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return standardPerDay }
    guard let number = Int(text.trimmingCharacters(in: .whitespaces)), number >= 0 else {
      throw UsageError("NEW takes how many new questions a day, 0 or more; not \(text)")
    }
    return number
  }

  /// How many cards were rated for the first time on the calendar day of `now`. A card made from a
  /// drill's missed signal does not count: the drill put it in the queue, the learner did not
  /// choose to start it, and it must not crowd out the day's new interview questions.
  ///
  /// - Complexity: O(n) for n cards.
  static func introduced(_ cards: [String: Card], on now: Date, calendar: Calendar) -> Int {
    cards.filter { key, card in
      !key.hasPrefix(DrillSignalCards.keyPrefix) && calendar.isDate(card.answers.first?.date ?? card.lastReviewed, inSameDayAs: now)
    }.count
  }
}

extension ReviewCommand {
  /// What a review would ask, and what to say about it.
  struct Plan {
    /// The due questions this sitting asks, weakest and most overdue first.
    var due: [InterviewQuestion]
    /// The questions never rated that this sitting asks after the due ones, in chapter order.
    var new: [InterviewQuestion] = []
    /// The headline on a terminal; without one, the whole listing.
    var message: String
    /// Every question due now in the scope, before `LIMIT=` cuts the sitting short.
    var dueCount = 0
    /// The new questions today's allowance offers (the sitting may ask fewer under `LIMIT=`).
    var newToday = 0
    /// The questions never rated that today's allowance leaves for later days.
    var newLater = 0

    /// Everything this sitting asks, in order: the due questions, then the new ones.
    var questions: [InterviewQuestion] { due + new }
  }

  /// The due questions of `chapter` (every chapter when nil), weakest and most overdue first, then
  /// the questions never rated, in chapter order, as many as are left of today's `newPerDay`; at
  /// most `limit` in all. With nothing to ask: why (nothing rated and no new allowed, nothing due
  /// and today's new questions taken) and when the next question is due.
  ///
  /// - Complexity: O(n log n) for n questions (the ratings are read once).
  static func plan(
    _ questions: [InterviewQuestion], store: RatingsStore, schedule: Schedule, now: Date, chapter: Int?, limit: Int?,
    newPerDay: Int = NewQuestions.standardPerDay, firstChapter: Int = 1
  ) -> Plan {
    let asked = questions.filter { chapter == nil || $0.chapter == chapter }
    let byKey = Dictionary(asked.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    let allCards = store.reconcile(questions, now: now)
    let cards = allCards.filter { byKey[$0.key] != nil }
    let unseen = asked.filter { allCards[$0.key] == nil }
    let allowance = max(0, newPerDay - NewQuestions.introduced(allCards, on: now, calendar: schedule.calendar))
    let offered = Array(unseen.prefix(allowance))
    let queue = schedule.queue(cards, at: now)
    let cap = limit ?? Int.max
    let due = queue.prefix(cap).compactMap { byKey[$0] }
    let new = Array(offered.prefix(max(0, cap - due.count)))
    var plan = Plan(due: due, new: new, message: "", dueCount: queue.count, newToday: offered.count, newLater: unseen.count - offered.count)
    let scope = chapter.map { " in chapter \($0)" } ?? ""

    guard !plan.questions.isEmpty else {
      let newsLine: String
      if unseen.isEmpty {
        newsLine = cards.isEmpty ? "" : "Every question\(scope) has been rated at least once."
      } else if newPerDay == 0 {
        newsLine = "NEW=0: no new questions; \(plural(unseen.count, "question")) never rated\(scope)."
      } else {
        newsLine =
          "Today's new questions are done (\(newPerDay) a day); \(unseen.count) never rated\(scope) wait for the coming days "
          + "(NEW=K changes how many a day)."
      }
      guard !cards.isEmpty else {
        let start = chapter ?? firstChapter
        plan.message =
          "No question to review yet\(scope): rate your answers in a walkthrough first (`make walkthrough-\(start)`), "
          + "and each question comes back here when it is due." + (newsLine.isEmpty ? "" : "\n" + newsLine)
        return plan
      }
      plan.message = "No question is due. Next: \(nextDue(cards, schedule: schedule, now: now))." + (newsLine.isEmpty ? "" : "\n" + newsLine)
      return plan
    }

    let perDay = newPerDay == 0 ? "NEW=0" : "up to \(newPerDay) a day"
    var headline = "\(queue.count) due · \(offered.count) new today (\(perDay)) · \(plan.newLater) new left for later days"
    if plan.questions.count < queue.count + offered.count {
      headline += " · LIMIT=\(cap) asks \(plan.questions.count) now"
    }
    var lines = [headline + ":"]
    for question in due {
      guard let card = cards[question.key] else { continue }
      let late = schedule.daysOverdue(card, at: now)
      let lateness = late > 0 ? ", \(plural(late, "day")) late" : ""
      lines.append("  \(question.label)  [\(card.lastRating.rawValue)\(lateness)] \(question.heading)")
    }
    for question in new {
      lines.append("  \(question.label)  [new] \(question.heading)")
    }
    plan.message = lines.joined(separator: "\n")
    return plan
  }

  /// `3 questions on Sat 28 Nov (in 1 day)`: the soonest day a card is due, and how many are due
  /// that day.
  private static func nextDue(_ cards: [String: Card], schedule: Schedule, now: Date) -> String {
    let next = cards.values.map(\.due).min() ?? now
    let count = cards.values.filter { schedule.calendar.isDate($0.due, inSameDayAs: next) }.count
    let days = max(1, schedule.calendar.dateComponents([.day], from: schedule.calendar.startOfDay(for: now), to: next).day ?? 1)
    return "\(plural(count, "question")) on \(schedule.calendar.shortDay(next)) (in \(plural(days, "day")))"
  }

  /// What the review says after its listing when there is no terminal to ask on.
  static let notRecorded =
    "Not a terminal, so nothing was asked and nothing was recorded. To answer and rate these, run `make review` in a terminal."
}

/// `1 day`, `3 days`.
func plural(_ count: Int, _ noun: String) -> String {
  "\(count) \(noun)\(count == 1 ? "" : "s")"
}
