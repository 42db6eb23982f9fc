import Foundation

@testable import WorkbookKit

/// A clock the test moves: by days between reviews, by seconds inside a timed answer.
final class TestClock: WorkbookClock {
  private(set) var current: Date

  init(_ iso: String = "2026-11-25T18:00:00Z") {
    current = ISO8601DateFormatter().date(from: iso)!
  }

  func now() -> Date { current }

  func advance(seconds: TimeInterval) { current += seconds }
  func advance(days: Int) { current += Double(days) * 86_400 }
}

/// Key presses from a script. `.wait(s)` lets `s` seconds pass on the clock before the next step:
/// a wait with a timeout shorter than what is left returns `.tick` after moving the clock by the
/// timeout, as the terminal does when a second passes with no key.
final class ScriptedKeys: KeySource {
  enum Step {
    case press(Character)
    case wait(TimeInterval)
  }

  private var steps: [Step]
  private let clock: TestClock

  init(_ steps: [Step], clock: TestClock) {
    self.steps = steps
    self.clock = clock
  }

  convenience init(_ keys: String, clock: TestClock) {
    self.init(keys.map { .press($0) }, clock: clock)
  }

  var finished: Bool { steps.isEmpty }

  func next(timeout: TimeInterval?) -> KeyEvent {
    while let step = steps.first {
      switch step {
      case .press(let key):
        steps.removeFirst()
        return .key(key)
      case .wait(let seconds):
        if let timeout, timeout < seconds {
          clock.advance(seconds: timeout)
          steps[0] = .wait(seconds - timeout)
          return .tick
        }
        clock.advance(seconds: seconds)
        steps.removeFirst()
      }
    }
    return .end
  }
}

/// The Gregorian calendar in UTC, so a test's "next day" does not depend on the machine's zone.
func utcCalendar() -> Calendar {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = TimeZone(identifier: "UTC")!
  return calendar
}

/// Two questions of chapter 7 (the scratch workbook's, and one more) and one of chapter 8, with
/// the parts every question has.
func sampleQuestions() -> [InterviewQuestion] {
  let seven = InterviewQuestion.parse(
    countersInterview + """


      ## What breaks when two threads count?

      ### Model answer
      Lost updates: both read 4, both write 5.

      ### Follow-ups
      - How do you prove it?

      ### Red flags
      - "It never happened to me."
      """, chapter: 7, chapterTitle: "Counters")
  let eight = InterviewQuestion.parse(
    """
    ## Why cache at all?

    ### Model answer
    Latency.

    ### Follow-ups
    - And memory?

    ### Red flags
    - Caching everything.
    """, chapter: 8, chapterTitle: "Caches")
  return seven + eight
}
