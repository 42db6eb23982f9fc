import Foundation

/// Where the review code reads the time. Commands use the system's clock; the tool's tests use one
/// they move by days at once, so a schedule weeks long is tested in microseconds.
protocol WorkbookClock {
  func now() -> Date
}

/// The system's clock, optionally shifted.
///
/// `WORKBOOK_NOW` (an ISO 8601 time such as `2026-12-01T09:00:00Z`) makes the clock start at that
/// time and run on from it. It exists for trials of the built tool (`Tools/check-review.sh` rates a
/// question, then comes back "a week later" to find it due); a learner never needs it.
struct SystemClock: WorkbookClock {
  let offset: TimeInterval

  init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    let formatter = ISO8601DateFormatter()
    if let text = environment["WORKBOOK_NOW"], let start = formatter.date(from: text) {
      offset = start.timeIntervalSinceNow
    } else {
      offset = 0
    }
  }

  func now() -> Date { Date().addingTimeInterval(offset) }
}
