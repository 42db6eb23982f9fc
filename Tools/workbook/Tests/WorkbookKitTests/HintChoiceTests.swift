import Foundation
import Testing

@testable import WorkbookKit

/// Which paragraph of an exercise's hint the grader shows under its failure: the plan while the
/// exercise reads not started, else the paragraph that fits the failing test; always a paragraph
/// of that exercise's own section of `hints.md`.
@Suite("The hint under a failure")
struct HintChoiceTests {
  /// Chapter 7's hints, each exercise with a plan first and then edge cases naming its tests (and,
  /// in exercise 2, one of exercise 1's).
  static let hints = """
    # Chapter 7 hints

    ## 1. A counter

    Plan one: start at zero and add one.

    Stop at the limit (`countsOne`).

    ## 2. Two counters

    Plan two: keep two counters and add them up.


    An empty pair is zero (`startsAtZero`); the counters themselves are exercise 1's (`countsOne`).
    """

  static func workbook() throws -> (ScratchWorkbook, Chapter) {
    let workbook = try ScratchWorkbook()
    try workbook.write("Chapters/07-counters/hints.md", hints)
    return (workbook, try Catalog.load(root: workbook.root).chapter(7))
  }

  static func exercise(_ number: Int, failing name: String, message: String, untouched: Bool?) -> ExerciseResult {
    var exercise = ExerciseResult(number: number, title: "E\(number)")
    exercise.failures = [
      TestCase(suite: "CountersTests.Exercise\(number)_Tests", name: name + "()", failure: message)
    ]
    exercise.untouched = untouched
    return exercise
  }

  static func shown(_ exercise: ExerciseResult, _ workbook: ScratchWorkbook, _ chapter: Chapter) -> String? {
    let order = declarationOrder(chapter, root: workbook.root)
    return GradeCommand.shownHint(
      exercise, chapter, failures: GradeCommand.orderedFailures(exercise, order: order), order: order, root: workbook.root)
  }

  @Test("an exercise not started shows its plan, even when its failing test is named further down")
  func notStartedShowsThePlan() throws {
    let (workbook, chapter) = try Self.workbook()
    // Not started by the marker: every failure says "not implemented yet".
    let marked = Self.exercise(2, failing: "startsAtZero", message: "Caught error: not implemented yet: Pair.total", untouched: nil)
    #expect(marked.notStarted)
    #expect(Self.shown(marked, workbook, chapter) == "Plan two: keep two counters and add them up.")
    // Not started by the fingerprints: a placeholder's wrong value, files as shipped.
    let untouched = Self.exercise(1, failing: "countsOne", message: "Expectation failed: 0 == 1", untouched: true)
    #expect(untouched.notStarted)
    #expect(Self.shown(untouched, workbook, chapter) == "Plan one: start at zero and add one.")
  }

  @Test("a started exercise shows the paragraph that names its failing test")
  func startedShowsTheEdgeCase() throws {
    let (workbook, chapter) = try Self.workbook()
    let started = Self.exercise(2, failing: "startsAtZero", message: "Expectation failed: 1 == 0", untouched: false)
    #expect(!started.notStarted)
    #expect(
      Self.shown(started, workbook, chapter)
        == "An empty pair is zero (`startsAtZero`); the counters themselves are exercise 1's (`countsOne`).")
  }

  @Test("the paragraph shown is always one of the exercise's own, whatever test fails")
  func neverAnotherExercisesParagraph() throws {
    let (workbook, chapter) = try Self.workbook()
    for number in [1, 2] {
      let own = hintParagraphs(try HintCommand.hint(for: number, chapter, root: workbook.root))
      for name in ["countsOne", "startsAtZero", "unknownTest"] {
        for untouched in [true, false] {
          let exercise = Self.exercise(number, failing: name, message: "Expectation failed", untouched: untouched)
          let shown = try #require(Self.shown(exercise, workbook, chapter))
          #expect(own.contains(shown), "exercise \(number), failing \(name): \(shown)")
          #expect(!shown.contains("#"), "no heading")
        }
      }
    }
  }

  @Test("paragraphs are split at blank lines, however many, and none is empty")
  func paragraphs() {
    #expect(hintParagraphs("a\nb\n\n\n  \nc\n") == ["a\nb", "c"])
    #expect(firstParagraph("\n\nplan\n\nmore") == "plan")
    #expect(hintParagraph("\n\nplan\n\n`countsOne`", failing: "x", failingNames: ["x"], testNames: ["countsOne"]) == "plan")
  }

  @Test("chapter 1's exercise 6, untouched, shows the plan from its hint, not an edge case")
  func realChapterOne() throws {
    let real = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../..").standardized.path
    let chapter = try Catalog.load(root: real).chapter(1)
    let hint = try HintCommand.hint(for: 6, chapter, root: real)
    let order = declarationOrder(chapter, root: real)
    // The starter's placeholders pass some tests by accident; those that fail include the ones an
    // edge-case paragraph names (`aSecondCorruptFileReplacesTheOlderCopy`).
    let named = hintParagraphs(hint).dropFirst().flatMap { paragraph in
      paragraph.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map { testName($0.element) }
    }
    let functions = order.keys.filter { $0.hasPrefix("Exercise6_") }.map { String($0.split(separator: ".").last!) }
      .filter { named.contains(testName($0)) }
    var exercise = ExerciseResult(number: 6, title: "A typed, persistent session store")
    exercise.untouched = true
    exercise.passed = 3
    exercise.failures = functions.map {
      TestCase(suite: "DataStoreTests.Exercise6_SessionStoreTests", name: $0, failure: "Expectation failed")
    }
    try #require(!exercise.failures.isEmpty)
    #expect(
      hintParagraph(
        hint, failing: testName(GradeCommand.orderedFailures(exercise, order: order)[0].name),
        failingNames: Set(functions.map(testName)), testNames: Set(order.keys.map { testName(String($0.split(separator: ".").last!)) }))
        != firstParagraph(hint), "without the plan rule, an edge case would show")
    let shown = GradeCommand.shownHint(
      exercise, chapter, failures: GradeCommand.orderedFailures(exercise, order: order), order: order, root: real)
    #expect(shown == firstParagraph(hint))
    #expect(shown?.contains("moveItem") == false)
  }
}
