import Foundation

/// The signals a learner missed in drills, as cards that `make review` asks and `make flashcards`
/// exports, scheduled by the same SM-2 `Schedule` as the interview questions.
///
/// A signal becomes a card the first time it is marked missed, and stays one (a later hit does not
/// remove it: the schedule spaces it out as it is answered well). Its key is
/// `drill-<id>/<signal id>`, so it never collides with a question's `<chapter>/<slug>`, and its
/// text is read from the drill as it is now: a signal whose cue was edited away is no card.
enum DrillSignalCards {
  /// The prefix of every card key made from a drill.
  static let keyPrefix = "drill-"

  static func key(drill: String, signal: DrillSignal) -> String { "\(keyPrefix)\(drill)/\(signal.id)" }

  /// One card: the cue as a question, the signal's text as the answer.
  static func question(_ drill: Drill, round: DrillRound, signal: DrillSignal) -> InterviewQuestion {
    let phase = round.phases.first { $0.label == signal.phase }
    let place = phase.map { "phase \($0.label), \($0.title)" } ?? "communication"
    let heading = "\(drill.title) (\(place)): \(signal.cue). What does an answer that hits this say?"
    let level: String
    switch signal.kind {
    case .mustHit: level = "Must-hit (senior)"
    case .judgment: level = "Judgment (staff)"
    case .bonus: level = "Bonus (depth, no level)"
    }
    let answer = "\(level). \(signal.text)"
    return InterviewQuestion(
      chapter: drill.chapter ?? 0, chapterTitle: "Drill: \(drill.title)", heading: heading, body: answer,
      modelAnswer: answer, followUps: "", redFlags: "", key: key(drill: drill.id, signal: signal), drill: drill.id)
  }

  /// Every signal missed in any attempt at a round, as cards, drill by drill in catalog order.
  static func questions(_ drills: [Drill], history: DrillHistory, root: String = ".") -> [InterviewQuestion] {
    drills.flatMap { drill -> [InterviewQuestion] in
      let missed = Set(history.attempts(of: drill.id).flatMap { ($0.signals ?? [:]).filter { !$0.value }.keys })
      guard !missed.isEmpty, let text = TextFile.read(path(drill.file, in: root)), let round = DrillRound.parse(text) else {
        return []
      }
      return round.allSignals.filter { missed.contains($0.id) }.map { question(drill, round: round, signal: $0) }
    }
  }

  /// Every card of `catalog`'s drills at `root` (none when the drills cannot be read).
  static func questions(_ catalog: Catalog, now: Date, root: String = ".") -> [InterviewQuestion] {
    let drills = (try? DrillCatalog.load(catalog, root: root))?.drills ?? []
    return questions(drills, history: DrillHistory.read(root: root, now: now), root: root)
  }

  /// Puts each missed signal in the review queue, due today: a card is created (or an existing one
  /// lapses) as an `again` answer would, except that it is due at once rather than tomorrow, so
  /// the gap is rehearsed while the round is fresh. Returns how many cards were written.
  @discardableResult
  static func enqueue(_ questions: [InterviewQuestion], store: RatingsStore, schedule: Schedule = Schedule(), at now: Date) throws
    -> Int
  {
    guard !questions.isEmpty else { return 0 }
    var cards = store.load(now: now)
    for question in questions {
      var card = schedule.rate(cards[question.key], .again, heading: question.heading, at: now)
      card.due = schedule.calendar.startOfDay(for: now)
      cards[question.key] = card
    }
    try store.save(cards)
    return questions.count
  }
}
