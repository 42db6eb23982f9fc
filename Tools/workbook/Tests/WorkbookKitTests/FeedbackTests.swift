import Foundation
import Testing

@testable import WorkbookKit

/// What the grader shows under a failure: the failure in the learner's words, the hint paragraph
/// that fits, and what a crash most likely was.
@Suite("Failures and hints")
struct FeedbackTests {
  /// Text without terminal colours (the tests may run on a terminal).
  func plain(_ text: String) -> String {
    text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
  }

  // MARK: - Explaining a failure

  @Test("an expectation with a comment: the comment first, then the expression")
  func expectationWithComment() {
    let line = "Expectation failed: (double(value) → -6) == -7 (error): -3 doubled is -6"
    #expect(plain(explain(line)) == "    -3 doubled is -6\n      Expectation failed: (double(value) → -6) == -7")
  }

  @Test("a caught error and a recorded issue lose their prefix and the (error) tag")
  func caughtError() {
    #expect(plain(explain("Caught error: not implemented yet: answer() (error)")) == "    not implemented yet: answer()")
    #expect(plain(explain("Issue recorded (error): the store lost an update")) == "    the store lost an update")
  }

  // MARK: - Choosing the hint paragraph

  static let hint = """
    Start with the actor: one dictionary, no lock.

    `countsOne` fails when the increment is lost: read and write in one call.

    `startsAtZero` and `countsTwo` need the pair's total.
    """
  static let tests: Set<String> = ["countsOne", "startsAtZero", "countsTwo"]

  @Test("the paragraph that names the failing test")
  func namesTheFailingTest() {
    let paragraph = hintParagraph(Self.hint, failing: "countsTwo", failingNames: ["countsTwo"], testNames: Self.tests)
    #expect(paragraph == "`startsAtZero` and `countsTwo` need the pair's total.")
  }

  @Test("else the first paragraph that names no test, or a failing one")
  func firstRelevant() {
    let paragraph = hintParagraph(Self.hint, failing: "other", failingNames: ["other"], testNames: Self.tests)
    #expect(paragraph == "Start with the actor: one dictionary, no lock.")
    let noNudge = "`countsOne` is about lost updates.\n\n`countsTwo` is about totals."
    #expect(
      hintParagraph(noNudge, failing: "other", failingNames: ["other", "countsTwo"], testNames: Self.tests)
        == "`countsTwo` is about totals.")
  }

  @Test("else the first paragraph, when every paragraph speaks only of tests that pass")
  func fallsBackToFirst() {
    let passing = "`countsOne` is about lost updates.\n\n`countsTwo` is about totals."
    #expect(
      hintParagraph(passing, failing: "other", failingNames: ["other"], testNames: Self.tests)
        == "`countsOne` is about lost updates.")
  }

  @Test("a test's name without its labels, and code in backticks that is not a test")
  func testNames() {
    #expect(testName("doublesNegative(value:)") == "doublesNegative")
    let hint = "Use `value += 1` here.\n\n`countsOne` checks it."
    #expect(hintParagraph(hint, failing: nil, failingNames: [], testNames: Self.tests) == "Use `value += 1` here.")
  }

  @Test("a hint is read from hints.md by exercise number")
  func hintFromFile() throws {
    let workbook = try ScratchWorkbook()
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    #expect(try HintCommand.hint(for: 2, chapter, root: workbook.root) == "Use two counters from exercise 1.")
    #expect(throws: Failure.self) { try HintCommand.hint(for: 3, chapter, root: workbook.root) }
  }

  @Test("tests are shown in the order they are declared, suite by suite")
  func declarationOrderOfTests() throws {
    let workbook = try ScratchWorkbook()
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    let order = declarationOrder(chapter, root: workbook.root)
    let first = try #require(order["Exercise1_CounterTests.countsOne()"])
    let second = try #require(order["Exercise2_PairTests.startsAtZero()"])
    #expect(first < second)
  }

  // MARK: - Crashes

  static let console = """
    ◇ Test "doubling works" started.
    ◇ Test "the answer is 42" started.
    ✔ Test "doubling works" passed after 0.001 seconds.
    Fatal error: Index out of range
    *** Program crashed: Illegal instruction at 0x0000
    0 0x000055 Counter.increment() + 12 in Counters at /work/Sources/Counters/Counter.swift:12:5
    """

  @Test("a crash: what stopped it, which test was running, and what a trap means")
  func crash() {
    #expect(Grader.crashed(Self.console))
    #expect(Grader.stopReason(Self.console) == "the test process crashed")
    #expect(Grader.runningNote(Self.console) == ", while running \"the answer is 42\"")
    #expect(Grader.crashAdvice(Self.console).contains("Swift stopped the program on purpose"))
    let summary = crashSummary(Self.console)
    #expect(summary.contains("Fatal error: Index out of range"))
    #expect(summary.contains("Sources/Counters/Counter.swift:12:5"))
  }

  @Test("a data race reported by the thread sanitizer, with the learner's lines that raced")
  func race() {
    let output = """
      WARNING: ThreadSanitizer: data race (pid=1)
        Write of size 8 at 0x1 by thread T2:
          #0 Counter.increment() /work/Sources/Counters/Counter.swift:12 (x+0x1)
        Previous read of size 8 at 0x1 by thread T1:
          #0 Counter.value.getter /work/Sources/Counters/Counter.swift:7 (x+0x2)
      ThreadSanitizer: reported 1 warnings
      """
    #expect(Grader.raced(output))
    #expect(Grader.stopReason(output) == "the thread sanitizer found a data race")
    let summary = crashSummary(output)
    #expect(summary.contains("at Sources/Counters/Counter.swift:12"))
    #expect(summary.contains("at Sources/Counters/Counter.swift:7"))
  }

  @Test("a Linux sanitizer report, recorded: the graded code's frames, with or without a line")
  func linuxRace() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/linux-tsan-race.txt")
    let output = try String(contentsOf: url, encoding: .utf8)
    #expect(Grader.raced(output))
    let lines = output.components(separatedBy: "\n")
    let files = ["answers/DataStore/DataStore.swift", "answers/DataStore/LockedStore.swift"]
    #expect(racingLocations(lines, codeFiles: files) == ["answers/DataStore/LockedStore.swift", "answers/DataStore/LockedStore.swift:66:13"])
    // The tests' frames and the macro expansions under /tmp are not the learner's lines.
    #expect(racingLocations(lines, codeFiles: []).isEmpty)
  }

  @Test("a crash with no message of the learner's suggests a data race")
  func badPointer() {
    #expect(Grader.crashAdvice("*** Program crashed: Bad pointer dereference").contains("often a data race"))
  }
}
