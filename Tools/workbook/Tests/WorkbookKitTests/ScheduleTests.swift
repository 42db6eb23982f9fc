import Foundation
import Testing

@testable import WorkbookKit

/// The SM-2 schedule, with the clock moved by days.
@Suite("Review schedule")
struct ScheduleTests {
  let schedule = Schedule(calendar: utcCalendar())

  /// Rates `ratings` in turn, each on the day the card falls due, and returns every card.
  func play(_ ratings: [Rating], clock: TestClock) -> [Card] {
    var cards: [Card] = []
    for rating in ratings {
      if let last = cards.last { clock.advance(seconds: last.due.timeIntervalSince(clock.now()) + 9 * 3_600) }
      cards.append(schedule.rate(cards.last, rating, heading: "Q", at: clock.now()))
    }
    return cards
  }

  @Test("good answers come back after 1, 6, then 15 days (6 × 2.5), and the third makes the question learned")
  func goodLadder() {
    let cards = play([.good, .good, .good], clock: TestClock())
    #expect(cards.map(\.interval) == [1, 6, 15], "SM-2: I(1) = 1, I(2) = 6, I(n) = I(n-1) × EF with EF 2.5")
    #expect(cards.map(\.ease) == [2.5, 2.5, 2.5], "a good answer (grade 4) leaves the E-Factor as it was")
    #expect(cards.map(\.repetitions) == [1, 2, 3])
    #expect(cards.map { schedule.isLearned($0) } == [false, false, true], "learned: good or easy at an interval of 7 days or more")
  }

  @Test("easy answers raise the E-Factor by 0.1 each, so the third interval is 6 × 2.7 = 16.2, rounded up to 17 days")
  func easyLadder() {
    let cards = play([.easy, .easy, .easy], clock: TestClock())
    #expect(cards.map(\.interval) == [1, 6, 17], "SM-2 rounds a fractional interval up")
    #expect(cards.map { ($0.ease * 100).rounded() } == [260, 270, 280])
  }

  @Test("hard answers lower the E-Factor by 0.14 each, never below 1.3")
  func hardFloor() {
    let cards = play(Array(repeating: .hard, count: 12), clock: TestClock())
    #expect((cards[0].ease * 100).rounded() == 236, "2.5 − 0.14")
    #expect(cards.last?.ease == Schedule.minimumEase, "the E-Factor stops at 1.3, so a hard question still comes back less often each time")
    #expect(cards.allSatisfy { !schedule.isLearned($0) }, "a question last rated hard is never learned")
  }

  /// The published sequence: I(n) = ⌈I(n−1) × EF⌉ with the E-Factor before the n-th answer, which
  /// falls by 0.14 per hard answer (2.5, 2.36, 2.22, 2.08, 1.94, 1.80, 1.66, 1.52). Rounding to the
  /// nearest day would give 1, 6, 13, 27, 52, 94, 156, 237.
  @Test("eight hard answers give SM-2's published intervals, each rounded up: 1, 6, 14, 30, 59, 107, 178, 271 days")
  func hardSequenceRoundsUp() {
    let cards = play(Array(repeating: .hard, count: 8), clock: TestClock())
    #expect(cards.map(\.interval) == [1, 6, 14, 30, 59, 107, 178, 271])
    #expect(cards.map { ($0.ease * 100).rounded() } == [236, 222, 208, 194, 180, 166, 152, 138])
  }

  @Test("an interval that is a whole number on paper is not rounded up a day by floating point")
  func wholeProductsStay() {
    #expect(Schedule.roundedUp(10 * 1.3) == 13)
    #expect(Schedule.roundedUp(6 * 2.5) == 15)
    #expect(Schedule.roundedUp(13.32) == 14)
  }

  @Test("again starts the repetitions over with a one-day interval and keeps the E-Factor")
  func againResets() {
    let cards = play([.easy, .easy, .easy, .again, .good], clock: TestClock())
    let lapse = cards[3]
    #expect(lapse.interval == 1 && lapse.repetitions == 0, "after a lapse the question is asked tomorrow")
    #expect(lapse.ease == cards[2].ease, "SM-2 leaves the E-Factor alone when the grade is below 3")
    #expect(cards[4].interval == 1 && cards[4].repetitions == 1, "the ladder starts again at I(1)")
    #expect(cards[4].answers.map(\.rating) == [.easy, .easy, .easy, .again, .good], "every answer is kept, oldest first")
  }

  @Test("a question is due from the start of its day: rated Monday 23:00 with 1 day, due all of Tuesday")
  func calendarDays() {
    let clock = TestClock("2026-11-23T23:00:00Z")
    let card = schedule.rate(nil, .good, heading: "Q", at: clock.now())
    clock.advance(seconds: 59 * 60)
    #expect(!schedule.isDue(card, at: clock.now()), "still Monday 23:59")
    clock.advance(seconds: 60)
    #expect(schedule.isDue(card, at: clock.now()), "Tuesday 00:00")
    #expect(schedule.daysOverdue(card, at: clock.now()) == 0)
    clock.advance(days: 3)
    #expect(schedule.daysOverdue(card, at: clock.now()) == 3)
  }

  @Test("the queue: due cards only, the weakest rating first, then the most overdue for its interval")
  func queueOrder() {
    let now = TestClock().now()
    let today = schedule.calendar.startOfDay(for: now)
    func card(_ rating: Rating, interval: Int, dueDaysAgo: Int) -> Card {
      let due = today - Double(dueDaysAgo) * 86_400
      return Card(
        heading: "", repetitions: 1, ease: 2.5, interval: interval, due: due, lastRating: rating,
        lastReviewed: due - Double(interval) * 86_400, answers: [])
    }
    let cards = [
      "7/short": card(.good, interval: 1, dueDaysAgo: 3),
      "8/long": card(.good, interval: 15, dueDaysAgo: 5),
      "7/again": card(.again, interval: 1, dueDaysAgo: 0),
      "8/hard": card(.hard, interval: 6, dueDaysAgo: 1),
      "8/tomorrow": card(.again, interval: 1, dueDaysAgo: -1),
    ]
    #expect(
      schedule.queue(cards, at: now) == ["7/again", "8/hard", "7/short", "8/long"],
      "again before hard before good; among the good ones, 3 days late on a 1-day interval before 5 days late on 15; tomorrow's card is not due")
  }
}
