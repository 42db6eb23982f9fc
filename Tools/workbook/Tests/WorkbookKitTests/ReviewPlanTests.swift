import Foundation
import Testing

@testable import WorkbookKit

/// What `make review` asks, across days of practice.
@Suite("Review plan")
struct ReviewPlanTests {
  let schedule = Schedule(calendar: utcCalendar())

  @Test("with nothing rated and NEW=0 it says so and how to start")
  func fresh() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let store = RatingsStore(root: workbook.root)
    let plan = ReviewCommand.plan(
      sampleQuestions(), store: store, schedule: schedule, now: TestClock().now(), chapter: nil, limit: nil, newPerDay: 0, firstChapter: 1)
    #expect(plan.questions.isEmpty)
    #expect(plan.message.hasPrefix("No question to review yet: rate your answers in a walkthrough first (`make walkthrough-1`)"))
    let eight = ReviewCommand.plan(
      sampleQuestions(), store: store, schedule: schedule, now: TestClock().now(), chapter: 8, limit: nil, newPerDay: 0)
    #expect(eight.message.hasPrefix("No question to review yet in chapter 8: rate your answers in a walkthrough first (`make walkthrough-8`)"))
  }

  @Test("over two weeks: nothing due the same day, due the next day weakest first, CHAPTER= and LIMIT= narrow it")
  func overDays() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let store = RatingsStore(root: workbook.root)
    let clock = TestClock()
    let questions = sampleQuestions()
    try store.record(.good, for: questions[0], schedule: schedule, at: clock.now())
    try store.record(.again, for: questions[1], schedule: schedule, at: clock.now())
    try store.record(.hard, for: questions[2], schedule: schedule, at: clock.now())
    func plan(chapter: Int? = nil, limit: Int? = nil) -> ReviewCommand.Plan {
      ReviewCommand.plan(questions, store: store, schedule: schedule, now: clock.now(), chapter: chapter, limit: limit)
    }
    #expect(plan().due.isEmpty)
    #expect(plan().message == "No question is due. Next: 3 questions on Thu 26 Nov (in 1 day).\nEvery question has been rated at least once.")

    clock.advance(days: 1)
    #expect(plan().due.map(\.key) == [questions[1].key, questions[2].key, questions[0].key], "again, hard, good")
    #expect(plan(chapter: 8).due.map(\.key) == [questions[2].key])
    let short = plan(limit: 1)
    #expect(short.due.map(\.key) == [questions[1].key])
    #expect(short.message.hasPrefix("3 due · 0 new today (up to 5 a day) · 0 new left for later days · LIMIT=1 asks 1 now:"))

    for question in questions { try store.record(.good, for: question, schedule: schedule, at: clock.now()) }
    clock.advance(days: 1)
    #expect(plan().due.map(\.key) == [questions[1].key], "after a lapse the ladder starts again at 1 day; the others are at 6")
    try store.record(.good, for: questions[1], schedule: schedule, at: clock.now())
    clock.advance(days: 4)
    #expect(plan().due.isEmpty)
    #expect(plan().message == "No question is due. Next: 2 questions on Wed 2 Dec (in 1 day).\nEvery question has been rated at least once.")
    clock.advance(days: 1)
    #expect(plan().due.map(\.key) == [questions[0].key, questions[2].key])
  }
}
