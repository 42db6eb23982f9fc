import Foundation
import Testing

@testable import WorkbookKit

/// `count` questions of one chapter, `Question 1?` to `Question N?`, each with every part.
func numberedQuestions(_ count: Int, chapter: Int = 7) -> [InterviewQuestion] {
  let text = (1...count).map { number in
    """
    ## Question \(number)?

    ### Model answer
    Answer \(number).

    ### Follow-ups
    - Why?

    ### Red flags
    - Guessing.
    """
  }.joined(separator: "\n\n")
  return InterviewQuestion.parse(text, chapter: chapter, chapterTitle: "Chapter \(chapter)")
}

/// The text without terminal colours, which depend on where the tests run.
func plain(_ text: String) -> String {
  text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
}

/// New questions in `make review`: how many a day, on which day, and in what order.
@Suite("Review: new questions")
struct NewQuestionsTests {
  let schedule = Schedule(calendar: utcCalendar())

  func plan(
    _ questions: [InterviewQuestion], _ store: RatingsStore, _ clock: TestClock, chapter: Int? = nil, limit: Int? = nil,
    newPerDay: Int = 5
  ) -> ReviewCommand.Plan {
    ReviewCommand.plan(questions, store: store, schedule: schedule, now: clock.now(), chapter: chapter, limit: limit, newPerDay: newPerDay)
  }

  @Test("NEW= is a whole number from 0; nothing means five")
  func parsing() throws {
    #expect(try NewQuestions.perDay(nil) == 5)
    #expect(try NewQuestions.perDay("") == 5)
    #expect(try NewQuestions.perDay("0") == 0)
    #expect(try NewQuestions.perDay(" 12 ") == 12)
    #expect(throws: UsageError.self) { try NewQuestions.perDay("-1") }
    #expect(throws: UsageError.self) { try NewQuestions.perDay("five") }
  }

  @Test("a first review offers the first five questions never rated, in chapter order, and says how many wait")
  func fresh() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let store = RatingsStore(root: workbook.root)
    let questions = numberedQuestions(6) + numberedQuestions(2, chapter: 8)
    let fresh = plan(questions, store, TestClock())
    #expect(fresh.due.isEmpty)
    #expect(fresh.new.map(\.heading) == (1...5).map { "Question \($0)?" })
    #expect((fresh.dueCount, fresh.newToday, fresh.newLater) == (0, 5, 3))
    #expect(fresh.message.hasPrefix("0 due · 5 new today (up to 5 a day) · 3 new left for later days:\n"))
    #expect(fresh.message.contains("  ch7  [new] Question 5?"))
    #expect(!fresh.message.contains("Question 6?"))
    let eight = plan(questions, store, TestClock(), chapter: 8)
    #expect(eight.new.map(\.key) == questions.suffix(2).map(\.key), "CHAPTER= narrows the new questions too")
  }

  @Test("the daily limit: four rated today leaves one, five leave none, six (from a walkthrough) leave none and nothing negative")
  func dailyLimit() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let store = RatingsStore(root: workbook.root)
    let clock = TestClock()
    let questions = numberedQuestions(9)
    for question in questions.prefix(4) { try store.record(.good, for: question, schedule: schedule, at: clock.now()) }
    let one = plan(questions, store, clock)
    #expect(one.new.map(\.heading) == ["Question 5?"], "one short of the limit: one more")
    #expect((one.newToday, one.newLater) == (1, 4))

    try store.record(.good, for: questions[4], schedule: schedule, at: clock.now())
    let atLimit = plan(questions, store, clock)
    #expect(atLimit.questions.isEmpty, "at the limit: none")
    #expect((atLimit.newToday, atLimit.newLater) == (0, 4))
    #expect(
      atLimit.message
        == "No question is due. Next: 5 questions on Thu 26 Nov (in 1 day).\n"
        + "Today's new questions are done (5 a day); 4 never rated wait for the coming days (NEW=K changes how many a day).")

    try store.record(.hard, for: questions[5], schedule: schedule, at: clock.now())
    let past = plan(questions, store, clock)
    #expect(past.questions.isEmpty, "one past the limit: still none")
    #expect((past.newToday, past.newLater) == (0, 3))
    #expect(plan(questions, store, clock, newPerDay: 7).new.map(\.heading) == ["Question 7?"], "NEW=7 allows one more today")
  }

  @Test("the day ends at midnight of the schedule's calendar: five rated at 23:59:59 leave none, and at 00:00 five are due and three are new")
  func dayBoundary() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let store = RatingsStore(root: workbook.root)
    let clock = TestClock("2026-11-25T23:59:59Z")
    let questions = numberedQuestions(8)
    for question in questions.prefix(5) { try store.record(.good, for: question, schedule: schedule, at: clock.now()) }
    #expect(plan(questions, store, clock).questions.isEmpty)
    clock.advance(seconds: 1)
    let next = plan(questions, store, clock)
    #expect(next.due.count == 5)
    #expect(next.new.map(\.heading) == ["Question 6?", "Question 7?", "Question 8?"], "after the due ones, in chapter order")
    #expect(next.questions.map(\.key) == next.due.map(\.key) + next.new.map(\.key))
    #expect(next.message.hasPrefix("5 due · 3 new today (up to 5 a day) · 0 new left for later days:"))
  }

  @Test("LIMIT= keeps the due questions first and cuts the new ones; NEW=0 offers none")
  func limitAndNone() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let store = RatingsStore(root: workbook.root)
    let clock = TestClock()
    let questions = numberedQuestions(6)
    for question in questions.prefix(2) { try store.record(.again, for: question, schedule: schedule, at: clock.now()) }
    clock.advance(days: 1)
    let short = plan(questions, store, clock, limit: 3)
    #expect(short.due.count == 2)
    #expect(short.new.map(\.heading) == ["Question 3?"])
    #expect(short.message.hasPrefix("2 due · 4 new today (up to 5 a day) · 0 new left for later days · LIMIT=3 asks 3 now:"))
    #expect(plan(questions, store, clock, limit: 1).new.isEmpty)
    let none = plan(questions, store, clock, newPerDay: 0)
    #expect(none.new.isEmpty && none.due.count == 2)
    #expect(none.message.hasPrefix("2 due · 0 new today (NEW=0) · 4 new left for later days:"))
  }

  @Test("with every question rated and none due it says so, with no offer of new ones")
  func allSeen() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let store = RatingsStore(root: workbook.root)
    let clock = TestClock()
    let questions = numberedQuestions(2)
    for question in questions { try store.record(.good, for: question, schedule: schedule, at: clock.now()) }
    #expect(
      plan(questions, store, clock).message
        == "No question is due. Next: 2 questions on Thu 26 Nov (in 1 day).\nEvery question has been rated at least once.")
    let none = plan(questions, RatingsStore(root: workbook.root + "/elsewhere"), clock, newPerDay: 0)
    #expect(none.message.hasPrefix("No question to review yet: rate your answers in a walkthrough first"))
    #expect(none.message.hasSuffix("\nNEW=0: no new questions; 2 questions never rated."))
  }
}

/// Where `make walkthrough-N` starts, from the ratings on disk.
@Suite("Walkthrough: resume")
struct WalkthroughPlanTests {
  let schedule = Schedule(calendar: utcCalendar())
  let questions = numberedQuestions(5)

  func cards(_ ratings: [Int: Rating], at now: Date) -> [String: Card] {
    var cards: [String: Card] = [:]
    for (position, rating) in ratings {
      cards[questions[position].key] = schedule.rate(nil, rating, heading: questions[position].heading, at: now)
    }
    return cards
  }

  func plan(_ cards: [String: Card], from: Int? = nil, now: Date = TestClock().now()) -> WalkthroughPlan {
    WalkthroughPlan.make(chapter: 7, questions: questions, cards: cards, from: from, schedule: schedule, now: now)
  }

  @Test("a first walkthrough asks every question from the first, with no note")
  func fresh() {
    #expect(plan([:]) == WalkthroughPlan(positions: [0, 1, 2, 3, 4], note: nil))
  }

  @Test("three rated: it resumes at question 4 and says how many are rated")
  func resume() {
    let resumed = plan(cards([0: .good, 1: .hard, 2: .again], at: TestClock().now()))
    #expect(resumed.positions == [3, 4])
    #expect(resumed.note == "Resuming at question 4 of 5; 3 rated, 2 to go (`make walkthrough-7 FROM=1` starts over).")
  }

  @Test("a question skipped last time comes first, and rated ones after it are not asked again")
  func skippedFirst() {
    let resumed = plan(cards([1: .good, 2: .good], at: TestClock().now()))
    #expect(resumed.positions == [0, 3, 4])
    #expect(resumed.note?.hasPrefix("Resuming at question 1 of 5; 2 rated, 3 to go") == true)
  }

  @Test("only the last unrated: it resumes there; once it is rated, nothing is asked and the due ones are offered")
  func afterTheLast() {
    let now = TestClock().now()
    let resumed = plan(cards([0: .good, 1: .good, 2: .good, 3: .good], at: now))
    #expect(resumed.positions == [4])
    #expect(resumed.note?.hasPrefix("Resuming at question 5 of 5; 4 rated, 1 to go") == true)

    let all = cards([0: .good, 1: .again, 2: .good, 3: .easy, 4: .hard], at: now)
    let done = plan(all, now: now)
    #expect(done.allRated && done.positions.isEmpty && done.due.isEmpty)
    #expect(done.note == "All 5 questions of chapter 7 are rated; none is due now.")
    #expect(WalkthroughPlan.choicePrompt(due: 0) == "[1] start over at question 1  [q] quit")

    let tomorrow = TestClock().now() + 86_400
    let due = plan(all, now: tomorrow)
    #expect(due.due == [1, 4, 0, 2, 3], "weakest first: again, hard, then good and easy")
    #expect(due.note == "All 5 questions of chapter 7 are rated; 5 are due now.")
    #expect(WalkthroughPlan.choicePrompt(due: 5) == "[d] the 5 due now  [1] start over at question 1  [q] quit")
  }

  @Test("FROM=1 starts over and FROM=3 starts at question 3, rated or not")
  func from() {
    let all = cards([0: .good, 1: .good, 2: .good, 3: .good, 4: .good], at: TestClock().now())
    let over = plan(all, from: 1)
    #expect(over.positions == [0, 1, 2, 3, 4] && !over.allRated)
    #expect(over.note == "Starting over at question 1 of 5; 5 rated before, and answering again updates their schedule.")
    #expect(plan([:], from: 3) == WalkthroughPlan(positions: [2, 3, 4], note: "Starting at question 3 of 5."))
  }

  @Test("once all are rated: d takes the due ones only when there are some, 1 starts over, q or the end of input quits")
  func choices() {
    let clock = TestClock()
    #expect(WalkthroughPlan.choose(ScriptedKeys("xd1", clock: clock), due: 0) == .restart, "d with nothing due is ignored")
    #expect(WalkthroughPlan.choose(ScriptedKeys("d", clock: clock), due: 2) == .due)
    #expect(WalkthroughPlan.choose(ScriptedKeys("q", clock: clock), due: 2) == .quit)
    #expect(WalkthroughPlan.choose(ScriptedKeys("", clock: clock), due: 2) == .quit)
  }

  @Test("without a terminal: the questions it would ask, with their answers, and nothing recorded said before and after")
  func notATerminal() {
    let resumed = plan(cards([0: .good, 1: .good, 2: .good], at: TestClock().now()))
    let text = plain(WalkthroughCommand.listing(resumed, questions, chapter: 7))
    let lines = text.components(separatedBy: "\n")
    #expect(lines.first == resumed.note)
    #expect(
      lines[1]
        == "Not a terminal: the questions and their model answers are printed, nothing is asked and nothing is recorded. "
        + "To answer and rate them, run `make walkthrough-7` in a terminal.")
    #expect(text.contains("Question 4 of 5: Question 4?") && text.contains("Answer 5."))
    #expect(!text.contains("Question 3?"), "rated questions are not printed")
    #expect(lines.last == "Nothing was recorded: this was not a terminal. Run `make walkthrough-7` in a terminal to rate your answers.")

    let done = plan(cards([0: .good, 1: .good, 2: .good, 3: .good, 4: .good], at: TestClock().now()))
    #expect(
      plain(WalkthroughCommand.listing(done, questions, chapter: 7))
        == "All 5 questions of chapter 7 are rated; none is due now.\n"
        + "`make review` brings each back when it is due; `make walkthrough-7 FROM=1` goes through them all again.")
  }
}

/// The interview columns of `make progress`.
@Suite("Progress: seen, due, learned")
struct ReadinessTests {
  let schedule = Schedule(calendar: utcCalendar())

  @Test("seen counts rated questions, due the ones due now, learned the good or easy ones spaced seven days or more")
  func counts() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let store = RatingsStore(root: workbook.root)
    let clock = TestClock()
    let questions = numberedQuestions(11)
    func readiness() -> Readiness { Readiness(questions: questions, store: store, now: clock.now(), schedule: schedule) }
    #expect(plain(readiness().line(7)) == "interview 0/11 seen: make walkthrough-7")

    // Three rated on the first day: seen, none due, none learned (the learner's report read 0/11 learned only).
    for question in questions.prefix(3) { try store.record(.good, for: question, schedule: schedule, at: clock.now()) }
    #expect(plain(readiness().line(7)) == "interview 3/11 seen, 0 due, 0 learned")
    clock.advance(days: 1)
    #expect(readiness().counts[7] == Readiness.Count(questions: 11, learned: 0, due: 3, rated: 3))
    #expect(plain(readiness().line(7)) == "interview 3/11 seen, 3 due, 0 learned")

    // Good on day 1 (6 days), good on day 7 (15 days): learned at the third right answer.
    try store.record(.good, for: questions[0], schedule: schedule, at: clock.now())
    clock.advance(days: 6)
    #expect(readiness().counts[7]?.learned == 0, "six days is short of seven")
    try store.record(.good, for: questions[0], schedule: schedule, at: clock.now())
    #expect(readiness().counts[7] == Readiness.Count(questions: 11, learned: 1, due: 2, rated: 3))
    // A hard third answer is spaced past seven days too, but is not learned.
    try store.record(.good, for: questions[1], schedule: schedule, at: clock.now())
    clock.advance(days: 6)
    try store.record(.hard, for: questions[1], schedule: schedule, at: clock.now())
    #expect(readiness().counts[7]?.learned == 1)
  }
}

/// `FROM=`, `--restart` and `NEW=` as the commands read them.
@Suite("Practice arguments")
struct PracticeArgumentsTests {
  @Test("walkthrough: --from K, --restart is --from 1, nothing resumes; 0 is refused")
  func walkthrough() throws {
    #expect(try WalkthroughCommand(["1"]).from == nil)
    #expect(try WalkthroughCommand(["1", "--from", "4"]).from == 4)
    #expect(try WalkthroughCommand(["--restart", "2"]).from == 1)
    #expect(throws: UsageError("--from needs a question number, 1 or more, not 0")) { try WalkthroughCommand(["1", "--from", "0"]) }
  }

  @Test("review: --new K from 0, five without it")
  func review() throws {
    #expect(try ReviewCommand([]).newPerDay == 5)
    #expect(try ReviewCommand(["--new", "0"]).newPerDay == 0)
    #expect(try ReviewCommand(["--new", "12", "--limit", "3"]).newPerDay == 12)
    #expect(throws: UsageError("NEW takes how many new questions a day, 0 or more; not x")) { try ReviewCommand(["--new", "x"]) }
  }
}
