import Foundation
import Testing

@testable import WorkbookKit

/// Hints teach in tiers: under a failure the grader prints a question first, the paragraph that
/// answers the failing test when the same test fails again, and never the last step, which only
/// `make hint-N` shows when asked (once more after each tier).
@Suite("Hints in tiers")
struct HintTierTests {
  /// Chapter 7's hints: exercise 1 staged as every real hint is (a nudge, paragraphs naming tests,
  /// a last step that gives the names), with a last step whose words match the cost test best.
  static let hints = """
    # Chapter 7 hints

    ## 1. A counter

    Where does the count live between two calls? And what does a second call see?

    A fresh counter reads zero (`startsAtZero`). What should one call add? Exactly one
    (`countsOne`), never more.

    Last step, if you need the names: `value += 1` in `increment()`, one write of the count per
    increment, never a count of every earlier increment again.

    ## 2. Two counters

    Plan two: keep two counters and add them up.

    An empty pair is zero (`startsAtZero`).
    """

  static func workbook(hints: String = hints) throws -> (ScratchWorkbook, Chapter) {
    let workbook = try ScratchWorkbook()
    try workbook.write("Chapters/07-counters/hints.md", hints)
    return (workbook, try Catalog.load(root: workbook.root).chapter(7))
  }

  /// Exercise `number` failing `name` in `suite` (a started exercise unless `untouched`).
  static func exercise(_ number: Int, failing name: String, suite: String = "Exercise1_CounterTests", untouched: Bool = false)
    -> ExerciseResult
  {
    var exercise = ExerciseResult(number: number, title: number == 1 ? "A counter" : "Two counters")
    exercise.failures = [TestCase(suite: "CountersTests.\(suite)", name: name + "()", failure: "Expectation failed: 2 == 1")]
    exercise.untouched = untouched
    return exercise
  }

  static func ladder(_ exercise: ExerciseResult, _ workbook: ScratchWorkbook, _ chapter: Chapter, order: [String: Int]? = nil)
    throws -> HintLadder
  {
    let order = order ?? declarationOrder(chapter, root: workbook.root)
    return try #require(
      GradeCommand.hintLadder(
        exercise, chapter, failures: GradeCommand.orderedFailures(exercise, order: order), order: order, root: workbook.root))
  }

  @Test("the questions of a paragraph are its sentences that ask, a backticked name and all")
  func questionsAreTheAskingSentences() {
    #expect(
      questions(in: "A fresh counter reads zero (`startsAtZero`). What should one call add? Exactly one\n(`countsOne`).")
        == "What should one call add?")
    #expect(questions(in: "Is the screen an error (`offline.isError?`)? It is not.") == "Is the screen an error (`offline.isError?`)?")
    #expect(questions(in: "No question here. None at all.") == nil)
    #expect(isLastStep("Last step, if you need the names: `a`"))
    #expect(isLastStep("Last, if you are still stuck, the control flow."))
    #expect(!isLastStep("Lastly the plan."))
  }

  @Test("a failure's tiers are a question, the paragraph that names its test, and the last step")
  func theTiersOfAFailure() throws {
    let (workbook, chapter) = try Self.workbook()
    let ladder = try Self.ladder(Self.exercise(1, failing: "countsOne"), workbook, chapter)
    #expect(ladder.key == "1/countsOne")
    #expect(ladder.tiers.count == 3)
    #expect(ladder.tiers[0] == "What should one call add?", "the named paragraph's own question")
    #expect(ladder.tiers[1].contains("(`countsOne`)"))
    #expect(ladder.tiers[2].hasPrefix("Last step"))
    #expect(ladder.endsWithLastStep && ladder.gradingTiers == 2)
    #expect((0...4).map { ladder.tierForGrading(seen: $0) } == [1, 2, 2, 2, 2], "the grader never reaches the last step")
  }

  @Test("a paragraph that asks nothing starts from the exercise's opening question")
  func noQuestionFallsBackToTheNudge() {
    let section = "Where does the count live?\n\nStop at the limit (`countsOne`).\n\nLast step: `value += 1`."
    let ladder = HintLadder(key: "1/countsOne", section: section, paragraph: "Stop at the limit (`countsOne`).")
    #expect(ladder.tiers == ["Where does the count live?", "Stop at the limit (`countsOne`).", "Last step: `value += 1`."])
  }

  @Test("the last step is never the paragraph under a failure, even when its words fit best")
  func theLastStepIsNeverPicked() throws {
    let (workbook, chapter) = try Self.workbook()
    // "increment", "write", "count": the last step speaks of them all, no other paragraph does.
    let ladder = try Self.ladder(Self.exercise(1, failing: "eachIncrementIsOneWriteOfTheCount"), workbook, chapter)
    #expect(!isLastStep(ladder.paragraph))
    #expect(!ladder.tiers.prefix(ladder.gradingTiers).contains(where: isLastStep))
  }

  @Test("a failing cost test gets the paragraph about cost, or a question about counted work")
  func aCostTestGetsTheCostHint() throws {
    let order = [
      "Exercise1_CounterTests.startsAtZero()": 0, "Exercise1_CounterTests.countsOne()": 1,
      "Exercise1_CounterCostTests.anIncrementIsOneWriteOfTheCount()": 2,
    ]
    let failing = Self.exercise(1, failing: "anIncrementIsOneWriteOfTheCount", suite: "Exercise1_CounterCostTests")
    let (plain, chapter) = try Self.workbook()
    let generic = try Self.ladder(failing, plain, chapter, order: order)
    #expect(generic.paragraph == costQuestion, "no paragraph of the hint speaks of cost: the tool's question")
    #expect(generic.tiers.first?.hasSuffix("?") == true)
    #expect(!generic.tiers.prefix(generic.gradingTiers).contains(where: isLastStep))

    let costly = Self.hints.replacingOccurrences(
      of: "\n\nLast step", with: "\n\nHow many writes does one increment cost, however high the count? One.\n\nLast step")
    let (workbook, _) = try Self.workbook(hints: costly)
    let ladder = try Self.ladder(failing, workbook, chapter, order: order)
    #expect(ladder.tiers.first == "How many writes does one increment cost, however high the count?")
    #expect(ladder.paragraph.hasPrefix("How many writes"))
  }

  @Test("the grader shows the question first, the next tier when the same test fails again, never the last step")
  func theGraderClimbsOneTierARun() throws {
    let (workbook, chapter) = try Self.workbook()
    let ladder = try Self.ladder(Self.exercise(1, failing: "countsOne"), workbook, chapter)
    let tiers = (1...3).map { _ in GradeCommand.gradingTier(ladder, chapter, root: workbook.root) }
    #expect(tiers == [1, 2, 2])
    #expect(workbook.exists(".build/grade/hints-ch7.json"), "kept beside the last grading")
    let other = try Self.ladder(Self.exercise(1, failing: "startsAtZero"), workbook, chapter)
    #expect(GradeCommand.gradingTier(other, chapter, root: workbook.root) == 1, "another test starts at its own question")
  }

  /// What `make hint-7` prints after a grading whose first failure is exercise 1's `countsOne`.
  static func ask(_ workbook: ScratchWorkbook, _ chapter: Chapter) -> String {
    var lines: [String] = []
    HintCommand.show(chapter, focus: nil, reference: nil, root: workbook.root) { lines.append($0) }
    return lines.joined(separator: "\n")
  }

  @Test("each make hint-N shows one tier more, the last step last, then the whole section")
  func askingClimbsToTheLastStep() throws {
    let (workbook, chapter) = try Self.workbook()
    var result = ChapterResult(chapter: 7, variant: Variant(), exercises: [Self.exercise(1, failing: "countsOne")])
    result.compiled = true
    Summary.save(result, chapter, root: workbook.root)
    let ladder = try Self.ladder(Self.exercise(1, failing: "countsOne"), workbook, chapter)
    #expect(GradeCommand.gradingTier(ladder, chapter, root: workbook.root) == 1, "the grading showed the question")

    let second = Self.ask(workbook, chapter)
    #expect(second.contains("(2 of 3, for `countsOne`)") && second.contains("Exactly one"))
    #expect(!second.contains("Last step"))
    let third = Self.ask(workbook, chapter)
    #expect(third.contains("the last step") && third.contains("`value += 1`"))
    let fourth = Self.ask(workbook, chapter)
    #expect(fourth.contains("all of it") && fourth.contains("Where does the count live") && fourth.contains("`value += 1`"))
    #expect(GradeCommand.gradingTier(ladder, chapter, root: workbook.root) == 2, "asked for, the last step still stays out of the grader")
  }

  static let real = HintFromGradingTests.real

  @Test("chapter 7's cost tests get a question about cost, never the last step")
  func chapter7CostTests() throws {
    let chapter = try Catalog.load(root: Self.real).chapter(7)
    let order = declarationOrder(chapter, root: Self.real)
    let costTests = order.keys.filter { $0.hasPrefix("Exercise1_OutboxCostTests.") || $0.hasPrefix("Exercise3_NoteStoreCostTests.") }
    #expect(costTests.count >= 4)
    for key in costTests {
      let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
      var exercise = ExerciseResult(number: parts[0].hasPrefix("Exercise1") ? 1 : 3, title: "")
      exercise.passed = 10
      exercise.untouched = false
      exercise.failures = [TestCase(suite: "SyncTests.\(parts[0])", name: parts[1], failure: "Expectation failed")]
      let ladder = try #require(
        GradeCommand.hintLadder(
          exercise, chapter, failures: exercise.failures, order: order, root: Self.real))
      #expect(ladder.tiers.first?.hasSuffix("?") == true, "\(key): \(ladder.tiers.first ?? "")")
      #expect(!isLastStep(ladder.paragraph), "\(key)")
      #expect(ladder.paragraph.contains("`\(testName(parts[1]))`"), "\(key)'s paragraph names it: \(ladder.paragraph)")
    }
  }

  @Test("every exercise's hint in the workbook opens with a question and gives its names only in a last step")
  func everyHintIsStaged() throws {
    for chapter in try Catalog.load(root: Self.real).chapters {
      let sections = try markdownSections(path(chapter.hintsPath, in: Self.real))
      for section in sections {
        let paragraphs = hintParagraphs(section.body)
        #expect(questions(in: paragraphs.first ?? "") != nil, "\(chapter.hintsPath), \(section.heading): no opening question")
        #expect(paragraphs.last.map(isLastStep) == true, "\(chapter.hintsPath), \(section.heading): no last step at the end")
        #expect(paragraphs.dropLast().allSatisfy { !isLastStep($0) }, "\(chapter.hintsPath), \(section.heading): a last step before the end")
      }
    }
  }
}
