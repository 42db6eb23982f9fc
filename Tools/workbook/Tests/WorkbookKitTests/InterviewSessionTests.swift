import Foundation
import Testing

@testable import WorkbookKit

/// A sitting of interview practice played from a script of keys, with the clock moved by the test.
@Suite("Interview session")
struct InterviewSessionTests {
  final class Screen {
    var text = ""
  }

  func session(_ keys: ScriptedKeys, _ clock: TestClock, _ screen: Screen, root: String, timed: Int? = nil) -> InterviewSession {
    InterviewSession(
      keys: keys, clock: clock, write: { screen.text += $0 },
      store: RatingsStore(root: root) { Issue.record("nothing to report: \($0)") },
      schedule: Schedule(calendar: utcCalendar()), timeLimit: timed)
  }

  @Test("Enter shows the answer, one key rates it, and the rating is saved before the next question")
  func walkthrough() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let clock = TestClock()
    let keys = ScriptedKeys("x\n3\n?a", clock: clock)
    let screen = Screen()
    let questions = Array(sampleQuestions().prefix(2))
    let outcome = session(keys, clock, screen, root: workbook.root).run(questions) { index, _ in "Question \(index + 1) of 2" }
    #expect(outcome == InterviewSession.Outcome(rated: [.good, .again], skipped: 0, quit: false))
    #expect(keys.finished, "x and ? are ignored, every other key was used")
    #expect(screen.text.contains("Question 1 of 2: How do you count?"))
    #expect(screen.text.contains("One at a time."), "the model answer is shown")
    #expect(screen.text.contains(InterviewSession.ratingPrompt))
    #expect(screen.text.contains("good: back tomorrow."))
    #expect(screen.text.contains("Rated 2 of 2 (1 again, 1 good)."))
    let cards = RatingsStore(root: workbook.root).load(now: clock.now())
    #expect(cards[questions[0].key]?.lastRating == .good)
    #expect(cards[questions[1].key]?.lastRating == .again)
  }

  @Test("s skips a question without rating it; q quits and what was rated before stays saved")
  func skipAndQuit() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let clock = TestClock()
    let keys = ScriptedKeys(" e sq", clock: clock)
    let screen = Screen()
    let outcome = session(keys, clock, screen, root: workbook.root).run(sampleQuestions()) { index, _ in "Q\(index + 1)" }
    #expect(outcome == InterviewSession.Outcome(rated: [.easy], skipped: 1, quit: true))
    #expect(screen.text.contains("Q3: Why cache at all?"))
    #expect(!screen.text.contains("Latency."), "q before the answer quits without showing it")
    #expect(RatingsStore(root: workbook.root).load(now: clock.now()).count == 1)
  }

  @Test("s before the answer skips the question without showing its answer or rating it")
  func skipBeforeTheAnswer() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let clock = TestClock()
    let keys = ScriptedKeys("s\n3", clock: clock)
    let screen = Screen()
    let questions = Array(sampleQuestions().prefix(2))
    let outcome = session(keys, clock, screen, root: workbook.root).run(questions) { index, _ in "Q\(index + 1)" }
    #expect(outcome == InterviewSession.Outcome(rated: [.good], skipped: 1, quit: false))
    #expect(screen.text.contains("[Enter] show the model answer  [s] skip  [q] quit"), "the prompt names the key")
    #expect(screen.text.contains("skipped: not rated, the answer not shown."))
    #expect(!screen.text.contains("One at a time."), "the skipped question's answer is not shown")
    #expect(screen.text.contains("Lost updates"), "the next question's is")
    let cards = RatingsStore(root: workbook.root).load(now: clock.now())
    #expect(cards.keys.sorted() == [questions[1].key])
  }

  @Test("timed: s skips during the countdown too, and no time is saved")
  func skipWhileTimed() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let clock = TestClock()
    let keys = ScriptedKeys([.wait(3), .press("s")], clock: clock)
    let screen = Screen()
    let outcome = session(keys, clock, screen, root: workbook.root, timed: 120).run([sampleQuestions()[0]]) { _, _ in "Q" }
    #expect(outcome == InterviewSession.Outcome(rated: [], skipped: 1, quit: false))
    #expect(screen.text.contains("[Enter] done, show the model answer  [s] skip  [q] quit"))
    #expect(RatingsStore(root: workbook.root).load(now: clock.now()).isEmpty)
  }

  @Test("timed: the countdown is redrawn every second, and the time taken is shown and saved")
  func timed() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let clock = TestClock()
    let keys = ScriptedKeys([.wait(95), .press("\n"), .press("g")], clock: clock)
    let screen = Screen()
    let question = sampleQuestions()[0]
    _ = session(keys, clock, screen, root: workbook.root, timed: 120).run([question]) { _, _ in "Q" }
    #expect(screen.text.contains("⏱ 2:00 left"))
    #expect(screen.text.contains("⏱ 1:00 left"))
    #expect(screen.text.contains("⏱ 0:26 left"), "the last redraw before the key, 94 seconds in")
    #expect(screen.text.components(separatedBy: "⏱").count - 1 == 95, "one line for each second from 2:00 to 0:26")
    #expect(screen.text.contains("You took 1:35 of 2:00."))
    let card = RatingsStore(root: workbook.root).load(now: clock.now())[question.key]
    #expect(card?.answers.last?.seconds == 95, "the time taken is kept with the rating")
  }

  @Test("timed: past the limit the countdown says by how much")
  func overTime() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let clock = TestClock()
    let keys = ScriptedKeys([.wait(130), .press(" "), .press("h")], clock: clock)
    let screen = Screen()
    _ = session(keys, clock, screen, root: workbook.root, timed: 120).run([sampleQuestions()[0]]) { _, _ in "Q" }
    #expect(screen.text.contains("⏱ 0:09 over"))
    #expect(screen.text.contains("You took 2:10 of 2:00: over by 0:10."))
  }

  @Test("the end of input quits at any prompt")
  func endOfInput() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let clock = TestClock()
    let outcome = session(ScriptedKeys("\n", clock: clock), clock, Screen(), root: workbook.root).run(sampleQuestions()) { _, _ in "Q" }
    #expect(outcome.quit && outcome.rated.isEmpty)
  }
}
