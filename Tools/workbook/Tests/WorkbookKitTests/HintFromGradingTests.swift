import Foundation
import Testing

@testable import WorkbookKit

/// `make hint-N` reads the last grading instead of building, the report leads with the failure a
/// learner should read first, and a reset chapter is not mistaken for a broken one.
@Suite("Hints from the last grading")
struct HintFromGradingTests {
  static let real = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../..").standardized.path

  static func graded(_ workbook: ScratchWorkbook, reference: Set<Int> = [], solved: Set<Int>) throws -> Chapter {
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    var variant = Variant()
    variant.answers = reference
    var result = ChapterResult(
      chapter: 7, variant: variant,
      exercises: chapter.exercises.map { ExerciseResult(number: $0.number, title: $0.title) })
    result.compiled = true
    for index in result.exercises.indices {
      if solved.contains(result.exercises[index].number) {
        result.exercises[index].passed = 2
      } else {
        result.exercises[index].failures = [TestCase(suite: "CountersTests.Exercise2_PairTests", name: "sums()", failure: "Expectation failed")]
      }
    }
    Summary.save(result, chapter, root: workbook.root)
    return chapter
  }

  static func shown(_ chapter: Chapter, _ workbook: ScratchWorkbook, focus: Int? = nil, reference: Set<Int>? = nil) -> String {
    var lines: [String] = []
    HintCommand.show(chapter, focus: focus, reference: reference, root: workbook.root) { lines.append($0) }
    return lines.joined(separator: "\n")
  }

  @Test("with no grading yet, the hint says to grade first, and builds nothing")
  func gradeFirst() throws {
    let workbook = try ScratchWorkbook()
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    let text = Self.shown(chapter, workbook)
    #expect(text.contains("has not been graded yet"))
    #expect(text.contains("grade first: `make chapter-7`"))
    #expect(!workbook.exists(".build/grade/ch7-starter"), "no build folder: nothing was built")
  }

  @Test("the hint is the first exercise that failed in the last grading, with the REFERENCE= it used")
  func fromTheLastGrading() throws {
    let workbook = try ScratchWorkbook()
    let chapter = try Self.graded(workbook, reference: [3, 4], solved: [1])
    let start = Date()
    let text = Self.shown(chapter, workbook)
    #expect(Date().timeIntervalSince(start) < 2, "target: under 2 s")
    #expect(text.contains("REFERENCE=3,4"), "it says which configuration the results are from")
    #expect(text.contains("Hint for exercise 2, Two counters ("))
    #expect(text.contains("Use two counters from exercise 1."))
    #expect(!text.contains("not REFERENCE"), "no REFERENCE= given now: nothing to compare")

    let mismatch = Self.shown(chapter, workbook, reference: [3])
    #expect(mismatch.contains("That grading used REFERENCE=3,4, not REFERENCE=3"))
    #expect(mismatch.contains("Use two counters from exercise 1."), "the hint is still the last grading's")

    let passed = Self.shown(chapter, workbook, focus: 1)
    #expect(passed.contains("Exercise 1 passed. Here is its hint anyway:"))
    #expect(passed.contains("Start at zero and add one."))
  }

  @Test("after a reset the last grading is gone: the hint asks for a grading, and the next grading clears the mark")
  func afterReset() throws {
    let workbook = try ScratchWorkbook()
    let chapter = try Self.graded(workbook, solved: [1, 2])
    Summary.markReset(chapter, root: workbook.root)
    #expect(Summary.load(chapter, root: workbook.root) == nil, "exercise 2's pass was the code now in the backup")
    #expect(Summary.wasReset(chapter, root: workbook.root))
    let text = Self.shown(chapter, workbook)
    #expect(text.contains("was reset to its starter since its last grading"))
    #expect(text.contains("grade first: `make chapter-7`"))
    _ = try Self.graded(workbook, solved: [])
    #expect(!Summary.wasReset(chapter, root: workbook.root), "a grading after the reset is a grading like any other")
  }

  @Test("a cost suite's failure never leads while a behaviour test fails, though its file sorts first")
  func behaviourBeforeCost() throws {
    let chapter = try Catalog.load(root: Self.real).chapter(2)
    let order = declarationOrder(chapter, root: Self.real)
    let cost = try #require(order.keys.filter { $0.hasPrefix("Exercise2_ReentrancyCostTests.") }.min { order[$0]! < order[$1]! })
    let behaviour = try #require(order.keys.filter { $0.hasPrefix("Exercise2_ReentrancyTests.") }.min { order[$0]! < order[$1]! })
    #expect(order[cost]! < order[behaviour]!, "the cost suite's file is read first")
    func failure(_ key: String) -> TestCase {
      let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
      return TestCase(suite: "ObserversTests.\(parts[0])", name: parts[1], failure: "Expectation failed")
    }
    var exercise = ExerciseResult(number: 2, title: "Reentrancy")
    exercise.failures = [failure(cost), failure(behaviour)]
    #expect(GradeCommand.orderedFailures(exercise, order: order).map(\.name) == [failure(behaviour).name, failure(cost).name])
    exercise.failures = [failure(cost)]
    #expect(GradeCommand.orderedFailures(exercise, order: order).first?.name == failure(cost).name, "alone, it is shown")
  }

  @Test("the not-implemented names come whole, every one, in the order the starter declares them")
  func notImplementedNames() throws {
    #expect(
      NotImplementedMarker.members(in: "Caught error: storage(reason: not implemented yet: FeedDiskStore.save).")
        == ["FeedDiskStore.save"])
    #expect(
      NotImplementedMarker.members(in: #"failed(reason: "not implemented yet: OfflineFeed.refresh")"#) == ["OfflineFeed.refresh"])
    #expect(
      NotImplementedMarker.members(in: "(not implemented yet: SingleFlightStore.value(for:orCreate:)).")
        == ["SingleFlightStore.value(for:orCreate:)"])

    let chapter = try Catalog.load(root: Self.real).chapter(1)
    var exercise = ExerciseResult(number: 6, title: "A typed, persistent session store")
    // A test that signs in first stops at `login`: no failure names `logout`, which the starter
    // still throws for.
    let names = ["SessionStore.setPreference", "SessionStore.load", "SessionStore.updateTokens", "SessionStore.login"]
    exercise.failures = names.map { name in
      TestCase(
        suite: "DataStoreTests.Exercise6_SessionStoreTests", name: "t\(name)()",
        failure: "Caught error: writeFailed(reason: \"not implemented yet: \(name)\")")
    }
    let line = GradeCommand.notStartedLine(exercise, files: "SessionStore.swift", chapter, root: Self.real)
    #expect(
      line.hasSuffix(
        "(not implemented yet: `SessionStore.load`, `SessionStore.login`, `SessionStore.updateTokens`, "
          + "`SessionStore.setPreference`, `SessionStore.logout`)."))
    exercise.failures.reverse()
    let reversed = GradeCommand.notStartedLine(exercise, files: "SessionStore.swift", chapter, root: Self.real)
    #expect(reversed == line, "the same line whatever order the tests ended in")
  }

  @Test("breaking chapter 4's disk TTL does not show the paragraph on eviction, which passes")
  func ttlIsNotEviction() throws {
    let chapter = try Catalog.load(root: Self.real).chapter(4)
    let hint = try HintCommand.hint(for: 4, chapter, root: Self.real)
    let order = declarationOrder(chapter, root: Self.real)
    let tests = Set(order.keys.map { testName(String($0.split(separator: ".").last!)) })
    try #require(tests.contains("defaultTTL") && tests.contains("evictsLeastRecentlyUsed"))
    for failing in ["defaultTTL", "configuredTTL"] {
      let shown = hintParagraph(hint, failing: failing, failingNames: [failing], testNames: tests)
      #expect(!shown.contains("which entries go"), "\(failing): \(shown)")
    }
    let eviction = hintParagraph(hint, failing: "evictsLeastRecentlyUsed", failingNames: ["evictsLeastRecentlyUsed"], testNames: tests)
    #expect(eviction.contains("which entries go"), "the eviction paragraph is the one for an eviction test")
  }

  @Test("test names split into the words they are about")
  func words() {
    #expect(nameWords("defaultTTL") == ["default", "ttl"])
    #expect(nameWords("evictsLeastRecentlyUsed") == ["evicts", "least", "recently", "used"])
    #expect(nameWords("newDirectoryIsNotARebuild") == ["directory", "rebuild"])
    #expect(nameWords("parseURLComponents") == ["parse", "url", "components"])
  }
}
