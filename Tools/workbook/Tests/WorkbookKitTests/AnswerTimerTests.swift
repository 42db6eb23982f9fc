import Foundation
import Testing

@testable import WorkbookKit

/// `TIMED=`: what it accepts, and the countdown at every moment of an answer.
@Suite("Answer timer")
struct AnswerTimerTests {
  @Test(
    "TIMED= values",
    arguments: [
      ("1", 120), ("yes", 120), ("true", 120), ("90", 90), ("90s", 90), ("3m", 180), ("1m30s", 90), ("15", 15),
    ])
  func accepted(text: String, seconds: Int) throws {
    #expect(try AnswerTime.parse(text) == seconds)
  }

  @Test("no timer for nothing, 0, no, false or off")
  func off() throws {
    for text in ["", "0", "no", "false", "off"] {
      #expect(try AnswerTime.parse(text) == nil, "TIMED=\(text) turns the timer off")
    }
  }

  @Test("a bare number under 15 is refused as most likely minutes, and anything else unreadable is refused")
  func refused() {
    #expect(throws: UsageError("TIMED=3 would give 3 seconds an answer; write 3m for minutes, or TIMED=1 for two")) {
      try AnswerTime.parse("3")
    }
    for text in ["abc", "m", "3x", "2m3"] {
      #expect(throws: UsageError.self, "TIMED=\(text)") { try AnswerTime.parse(text) }
    }
  }

  @Test("the countdown, the moment the time is up, past it, and the verdict")
  func countdown() {
    let clock = TestClock()
    let timer = AnswerTimer(limit: 120, start: clock.now())
    #expect(timer.status(at: clock.now()) == "2:00 left")
    clock.advance(seconds: 0.25)
    #expect(timer.untilNextTick(at: clock.now()) == 0.75, "the line changes on the next whole second, not a second from now")
    clock.advance(seconds: 47.75)
    #expect(timer.status(at: clock.now()) == "1:12 left")
    #expect(timer.verdict(at: clock.now()) == "You took 0:48 of 2:00.")
    clock.advance(seconds: 72)
    #expect(timer.status(at: clock.now()) == "0:00 left")
    clock.advance(seconds: 12.5)
    #expect(timer.status(at: clock.now()) == "0:12 over")
    #expect(timer.verdict(at: clock.now()) == "You took 2:12 of 2:00: over by 0:12. Say the point first, then stop.")
  }
}
