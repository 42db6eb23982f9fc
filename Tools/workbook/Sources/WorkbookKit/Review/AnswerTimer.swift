import Foundation

/// `TIMED=`: how long a spoken answer may take. A staff-level answer says the point, the trade-off
/// and the failure mode, then stops; two minutes is about 250 spoken words, room for that and not
/// much more.
enum AnswerTime {
  /// `TIMED=1`: two minutes.
  static let standard = 120

  /// The seconds `TIMED=` asks for, or nil for no timer.
  ///
  /// `1`, `yes`, `true` or `on`: two minutes. A duration: `90` or `90s` (seconds), `3m`, `1m30s`.
  /// `0`, `no`, `false`, `off` or nothing: no timer. A bare number from 2 to 14 is refused: it is
  /// too short for an answer and most likely meant minutes (`TIMED=3` → write `3m`).
  static func parse(_ text: String) throws -> Int? {
    let value = text.trimmingCharacters(in: .whitespaces).lowercased()
    switch value {
    case "", "0", "no", "false", "off": return nil
    case "1", "yes", "true", "on": return standard
    default: break
    }
    if let seconds = Int(value) {
      guard seconds >= 15 else {
        throw UsageError("TIMED=\(text) would give \(seconds) seconds an answer; write \(seconds)m for minutes, or TIMED=1 for two")
      }
      return seconds
    }
    var total = 0
    var number = ""
    var sawUnit = false
    for character in value {
      if character.isASCII, character.isNumber {
        number.append(character)
      } else if character == "m" || character == "s", let amount = Int(number) {
        total += character == "m" ? amount * 60 : amount
        number = ""
        sawUnit = true
      } else {
        throw UsageError("TIMED takes 1 (two minutes), seconds (90) or a duration (3m, 1m30s); not \(text)")
      }
    }
    guard sawUnit, number.isEmpty, total > 0 else {
      throw UsageError("TIMED takes 1 (two minutes), seconds (90) or a duration (3m, 1m30s); not \(text)")
    }
    return total
  }
}

/// The clock of one timed answer: what the countdown line shows at any moment and the verdict at
/// the end. It only reads the times it is given, so tests step through a two-minute answer
/// without waiting.
struct AnswerTimer {
  /// Seconds the answer may take.
  let limit: Int
  let start: Date

  /// Whole seconds since the start (never negative).
  func elapsed(at now: Date) -> Int {
    max(0, Int(now.timeIntervalSince(start).rounded(.down)))
  }

  /// The countdown: `1:42 left`, then `0:12 over` once the time is up.
  func status(at now: Date) -> String {
    let spent = elapsed(at: now)
    return spent <= limit ? "\(minutesAndSeconds(limit - spent)) left" : "\(minutesAndSeconds(spent - limit)) over"
  }

  /// What the learner took: `You took 0:48 of 2:00.` and, past the limit, by how much.
  func verdict(at now: Date) -> String {
    let spent = elapsed(at: now)
    let head = "You took \(minutesAndSeconds(spent)) of \(minutesAndSeconds(limit))"
    return spent <= limit ? head + "." : head + ": over by \(minutesAndSeconds(spent - limit)). Say the point first, then stop."
  }

  /// How long until the countdown line changes, so the screen is redrawn once a second and no more.
  func untilNextTick(at now: Date) -> TimeInterval {
    let since = now.timeIntervalSince(start)
    guard since >= 0 else { return -since }
    return (since.rounded(.down) + 1) - since
  }
}

/// `m:ss`, as the timers show time.
func minutesAndSeconds(_ seconds: Int) -> String {
  String(format: "%d:%02d", seconds / 60, seconds % 60)
}
