import Foundation

/// One sitting of interview practice on a terminal, shared by `make walkthrough-N` (a chapter's
/// questions in order) and `make review` (the due ones, weakest first).
///
/// For each question: the heading; the learner answers out loud (with `TIMED=`, a countdown runs
/// and the time they took is shown); a key shows the model answer, follow-ups and red flags (or
/// `s` skips the question before its answer is shown); the learner rates their answer with one
/// key, and the rating is saved at once, so quitting half way loses nothing. Keys, clock and output are given, so tests play a whole sitting from a script.
struct InterviewSession {
  let keys: any KeySource
  let clock: any WorkbookClock
  let write: (String) -> Void
  let store: RatingsStore
  var schedule = Schedule()
  /// Seconds an answer may take, or nil for no timer.
  var timeLimit: Int?

  /// Writes to standard output at once: a prompt has no newline to flush it.
  static func toStandardOutput(_ text: String) {
    print(text, terminator: "")
    fflush(nil)
  }

  /// The keys, as every prompt names them.
  static let ratingPrompt = "How did you answer? [1] again  [2] hard  [3] good  [4] easy  (or a h g e)  [s] skip  [q] quit"

  /// How a sitting went.
  struct Outcome: Equatable {
    var rated: [Rating] = []
    var skipped = 0
    var quit = false
  }

  /// Asks `questions` in order. `title` names each one (`Question 2 of 7`, `Review 1 of 3 ·
  /// chapter 2`).
  func run(_ questions: [InterviewQuestion], title: (Int, InterviewQuestion) -> String) -> Outcome {
    var outcome = Outcome()
    asking: for (index, question) in questions.enumerated() {
      write("\n" + Style.bold(title(index, question) + ": ") + question.heading + "\n")
      let seconds: Int?
      switch think() {
      case .revealed(let taken): seconds = taken
      case .skipped:
        write("  skipped: not rated, the answer not shown.\n")
        outcome.skipped += 1
        continue
      case .quit:
        outcome.quit = true
        break asking
      }
      write("\n" + WalkthroughCommand.render(question.body) + "\n\n")
      switch rate(question, seconds: seconds) {
      case .rated(let rating): outcome.rated.append(rating)
      case .skipped: outcome.skipped += 1
      case .quit: outcome.quit = true
      }
      if outcome.quit { break }
    }
    write("\n" + summary(outcome, of: questions.count) + "\n")
    return outcome
  }

  private enum Thought {
    /// The answer is shown; `seconds` is what the spoken answer took, when timed.
    case revealed(seconds: Int?)
    /// Skipped before the answer was shown: the question stays unrated.
    case skipped
    case quit
  }

  /// The keys while the learner thinks, after `[Enter] show the model answer` or the countdown.
  static let thinkingKeys = "[s] skip  [q] quit"

  /// The thinking time: waits for the key that shows the answer (or skips, or quits).
  private func think() -> Thought {
    guard let limit = timeLimit else {
      write(Style.dim("  Answer out loud. [Enter] show the model answer  \(Self.thinkingKeys)"))
      while true {
        switch keys.next(timeout: nil) {
        case .key("\n"), .key(" "):
          write("\n")
          return .revealed(seconds: nil)
        case .key("s"), .key("S"):
          write("\n")
          return .skipped
        case .key("q"), .key("Q"), .end:
          write("\n")
          return .quit
        default: continue
        }
      }
    }
    let timer = AnswerTimer(limit: limit, start: clock.now())
    while true {
      let now = clock.now()
      write("\r\u{1B}[K" + Style.dim("  ⏱ \(timer.status(at: now))  [Enter] done, show the model answer  \(Self.thinkingKeys)"))
      switch keys.next(timeout: timer.untilNextTick(at: now)) {
      case .tick: continue
      case .key("\n"), .key(" "):
        let end = clock.now()
        write("\n  " + timer.verdict(at: end) + "\n")
        return .revealed(seconds: timer.elapsed(at: end))
      case .key("s"), .key("S"):
        write("\n")
        return .skipped
      case .key("q"), .key("Q"), .end:
        write("\n")
        return .quit
      default: continue
      }
    }
  }

  private enum Step {
    case rated(Rating)
    case skipped
    case quit
  }

  /// Asks for a rating and saves it.
  private func rate(_ question: InterviewQuestion, seconds: Int?) -> Step {
    write(Style.bold("  " + Self.ratingPrompt))
    while true {
      switch keys.next(timeout: nil) {
      case .key(let key):
        if let rating = Rating(key: key) {
          let now = clock.now()
          do {
            let card = try store.record(rating, for: question, schedule: schedule, at: now, seconds: seconds)
            write("\n  " + Style.green("\(rating.rawValue):") + " back \(when(card, from: now)).\n")
          } catch {
            write("\n  " + Style.red("not saved: \(error)") + "\n")
          }
          return .rated(rating)
        }
        if key == "s" || key == "S" {
          write("\n  skipped: not rated.\n")
          return .skipped
        }
        if key == "q" || key == "Q" {
          write("\n")
          return .quit
        }
      case .end:
        write("\n")
        return .quit
      case .tick: continue
      }
    }
  }

  /// `tomorrow`, `in 6 days (Tue 2 Dec)`.
  private func when(_ card: Card, from now: Date) -> String {
    if card.interval == 1 { return "tomorrow" }
    return "in \(card.interval) days (\(schedule.calendar.shortDay(card.due)))"
  }

  private func summary(_ outcome: Outcome, of count: Int) -> String {
    guard !outcome.rated.isEmpty else {
      return Style.dim("Nothing rated this time. `make review` asks the questions you rated when they are due.")
    }
    let counts = Rating.allCases.compactMap { rating -> String? in
      let number = outcome.rated.filter { $0 == rating }.count
      return number == 0 ? nil : "\(number) \(rating.rawValue)"
    }
    return "Rated \(outcome.rated.count) of \(count) (\(counts.joined(separator: ", "))). "
      + "`make review` brings each back when it is due; `make progress` shows what you have learned."
  }
}
