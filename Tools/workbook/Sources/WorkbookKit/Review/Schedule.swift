import Foundation

/// How the learner says their spoken answer went, one key each in the walkthrough and the review.
enum Rating: String, Codable, CaseIterable, Comparable {
  case again, hard, good, easy

  /// The key for it: `1`–`4`, or its initial (`a`, `h`, `g`, `e`).
  init?(key: Character) {
    switch key.lowercased() {
    case "1", "a": self = .again
    case "2", "h": self = .hard
    case "3", "g": self = .good
    case "4", "e": self = .easy
    default: return nil
    }
  }

  /// The SM-2 grade (0–5) it stands for: again is a wrong answer whose model answer rang true (1);
  /// hard, right with serious difficulty (3); good, right after some hesitation (4); easy, perfect (5).
  var grade: Int {
    switch self {
    case .again: return 1
    case .hard: return 3
    case .good: return 4
    case .easy: return 5
    }
  }

  /// Weakest first.
  static func < (a: Rating, b: Rating) -> Bool { a.grade < b.grade }
}

/// One answer given: when, how it went, and how long it took when the learner was timed.
struct Answer: Codable, Equatable {
  let date: Date
  let rating: Rating
  var seconds: Int?
}

/// What the schedule knows about one question.
struct Card: Codable, Equatable {
  /// The heading when it was last rated: the file stays readable, and an edited heading can be
  /// matched to its old record (`RatingsStore.reconcile`).
  var heading: String
  /// Successful answers in a row (SM-2's n): reset by `again`.
  var repetitions: Int
  /// SM-2's E-Factor: how fast the interval grows; 2.5 for a new question, never below 1.3.
  var ease: Double
  /// Days until the next review, from the day of the last one.
  var interval: Int
  /// The start of the day the question comes back.
  var due: Date
  var lastRating: Rating
  var lastReviewed: Date
  /// Every answer, oldest first.
  var answers: [Answer]
}

/// The spaced-repetition schedule: SM-2, as Piotr Woźniak published it in "Optimization of
/// learning" (1990, section 3.2, on supermemo.com), with the four keys mapped to its grades.
///
/// Why SM-2 rather than fixed intervals: each question has its own pace. An interview question the
/// learner answers easily grows its interval by a factor of 2.6, one they keep stumbling on by as
/// little as 1.3, so the hard questions come back more often without anything to tune; a fixed
/// ladder (1, 3, 7, 14 days…) would ask the easy ones as often as the hard ones. It is also the
/// scheme Anki's own scheduler grew from, so the deck `make flashcards` writes behaves the same
/// way there. With a few dozen questions the heavier models (FSRS fits parameters to thousands of
/// reviews) have nothing to learn from.
///
/// The rules: a successful answer (hard, good, easy) gives intervals of 1 day, then 6 days, then the
/// last interval times the E-Factor (as it was before this answer), rounded up to whole days as
/// the published text says ("If interval is a fraction, round it up to the nearest integer"):
/// rounding to the nearest day instead would make the intervals up to 13 % shorter (after eight
/// hard answers, 237 days instead of 271); the E-Factor then moves by
/// `0.1 - (5 - q) * (0.08 + (5 - q) * 0.02)` for grade q (hard −0.14, good 0, easy +0.10) and never
/// goes below 1.3. `again` starts the repetitions over (1 day) and leaves the E-Factor as it was.
/// Days are calendar days: a question rated on Monday evening with an interval of one day is due
/// all of Tuesday, not from Tuesday evening.
struct Schedule {
  var calendar: Calendar

  /// A question is learned when its last answer was good or easy and it is not due again for at
  /// least this many days (`make progress`).
  static let learnedInterval = 7
  static let startingEase = 2.5
  static let minimumEase = 1.3

  init(calendar: Calendar = .current) {
    self.calendar = calendar
  }

  /// The card after answering `rating` at `now`; `card` is nil for a question never rated.
  func rate(_ card: Card?, _ rating: Rating, heading: String, at now: Date, seconds: Int? = nil) -> Card {
    var repetitions = card?.repetitions ?? 0
    var ease = card?.ease ?? Self.startingEase
    var interval: Int
    if rating == .again {
      repetitions = 0
      interval = 1
    } else {
      repetitions += 1
      switch repetitions {
      case 1: interval = 1
      case 2: interval = 6
      default: interval = max(1, Self.roundedUp(Double(card?.interval ?? 1) * ease))
      }
      let q = Double(5 - rating.grade)
      ease = max(Self.minimumEase, ease + 0.1 - q * (0.08 + q * 0.02))
    }
    let today = calendar.startOfDay(for: now)
    let due = calendar.date(byAdding: .day, value: interval, to: today) ?? today.addingTimeInterval(Double(interval) * 86_400)
    return Card(
      heading: heading, repetitions: repetitions, ease: ease, interval: interval, due: due,
      lastRating: rating, lastReviewed: now,
      answers: (card?.answers ?? []) + [Answer(date: now, rating: rating, seconds: seconds)])
  }

  /// `days` rounded up to a whole day. An E-Factor such as 2.5 or 1.3 is no exact binary fraction,
  /// so a product that is a whole number on paper (10 × 1.3 = 13) may come out a hair above it:
  /// within a millionth of a day it counts as whole.
  static func roundedUp(_ days: Double) -> Int {
    Int((days - 1e-6).rounded(.up))
  }

  func isDue(_ card: Card, at now: Date) -> Bool {
    card.due <= now
  }

  /// Whole days since the card fell due (0 on the day it is due).
  func daysOverdue(_ card: Card, at now: Date) -> Int {
    calendar.dateComponents([.day], from: card.due, to: calendar.startOfDay(for: now)).day ?? 0
  }

  func isLearned(_ card: Card) -> Bool {
    card.lastRating >= .good && card.interval >= Self.learnedInterval
  }

  /// The keys of the due cards, weakest first (by the last rating: again, hard, good, easy), then
  /// the most overdue for their interval (three days late on a one-day interval before three days
  /// late on a month), then by key so the order never depends on the dictionary's.
  ///
  /// - Complexity: O(n log n) for n cards.
  func queue(_ cards: [String: Card], at now: Date) -> [String] {
    let due = cards.filter { isDue($0.value, at: now) }
    func lateness(_ card: Card) -> Double {
      Double(daysOverdue(card, at: now)) / Double(max(1, card.interval))
    }
    return due.sorted { a, b in
      if a.value.lastRating != b.value.lastRating { return a.value.lastRating < b.value.lastRating }
      let (x, y) = (lateness(a.value), lateness(b.value))
      if x != y { return x > y }
      return a.key < b.key
    }.map(\.key)
  }
}
