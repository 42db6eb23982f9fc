import Foundation
import Testing

@testable import WorkbookKit

/// `make mutants` runs a mutant's recorded killers first and the whole suite only when they miss.
@Suite("Killers first")
struct KillersFirstTests {
  static let selection = TestSelection(module: "DataStore", names: ["createsOnce", "concurrentIncrementsAreNotLost"])!

  static func matches(_ pattern: String, _ id: String) -> Bool {
    id.range(of: pattern, options: .regularExpression) != nil
  }

  @Test("the filter selects each named test function of the module, labels or not, and no other")
  func theFilterSelectsTheNamedFunctions() {
    let filter = Self.selection.filter()
    #expect(Self.matches(filter, "DataStoreTests.Exercise2_UpdateTests/concurrentIncrementsAreNotLost()"))
    #expect(Self.matches(filter, "DataStoreTests.Exercise5_SingleFlightStoreTests/createsOnce(count:)"))
    #expect(Self.matches(filter, "DataStoreTests.Exercise5_Outer/Inner/createsOnce()"), "a nested suite")
    #expect(!Self.matches(filter, "DataStoreTests.Exercise5_SingleFlightStoreTests/createsOnceEvenWhenCancelled()"))
    #expect(!Self.matches(filter, "ImageCacheTests.Exercise1_MemoryCacheTests/createsOnce()"), "another chapter's test")
    #expect(!Self.matches(filter, "DataStoreTests.Exercise5_SingleFlightStoreTests"), "a suite alone")
  }

  @Test("an exercise's filter selects only that exercise's suites")
  func anExercisesFilterKeepsToIt() {
    let filter = Self.selection.filter(exercise: 2)
    #expect(Self.matches(filter, "DataStoreTests.Exercise2_UpdateTests/concurrentIncrementsAreNotLost()"))
    #expect(!Self.matches(filter, "DataStoreTests.Exercise5_SingleFlightStoreTests/createsOnce()"))
    #expect(!Self.matches(filter, "DataStoreTests.Exercise22_UpdateTests/concurrentIncrementsAreNotLost()"))
  }

  @Test("a selection keeps only names a test function can have, and none of them is no selection")
  func aSelectionOfNothingIsNone() {
    #expect(TestSelection(module: "DataStore", names: []) == nil)
    #expect(TestSelection(module: "DataStore", names: ["(whole exercise)", "a|b", ""]) == nil)
    #expect(TestSelection(module: "DataStore", names: ["b", "a", "b", "a.*"])?.names == ["a", "b"])
  }

  @Test("the first run is the mutant's recorded killers and the tests cited with it")
  func theFirstRunIsTheRecordAndTheCitations() throws {
    let workbook = try ScratchWorkbook()
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    let recorded = [
      1: MutantKillers(chapter: 7, number: 1, name: "01-counts-twice", killers: ["countsOne", "startsAtZero"]),
      2: MutantKillers(chapter: 7, number: 2, name: "02-other", killers: ["other"]),
    ]
    let first = KillersFirst.selection(for: 1, of: chapter, recorded: recorded, cited: ["citedHere"])
    #expect(first?.names == ["citedHere", "countsOne", "startsAtZero"])
    #expect(first?.module == "Counters")
    #expect(KillersFirst.selection(for: 3, of: chapter, recorded: recorded, cited: []) == nil, "no row, no citation")
    #expect(KillersFirst.selection(for: 3, of: chapter, recorded: nil, cited: ["citedHere"])?.names == ["citedHere"])
  }

  @Test("the tests the interview cites with a mutant are found")
  func citedTestsAreFound() throws {
    let workbook = try ScratchWorkbook()
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    #expect(MutantCitations.citedTests(of: 1, in: chapter, root: workbook.root).contains("countsOne"))
    #expect(MutantCitations.citedTests(of: 99, in: chapter, root: workbook.root).isEmpty)
  }

  /// A result of chapter 7's two exercises: compiled, with `failing` tests failed in exercise 1.
  static func result(compiled: Bool = true, failing: [String] = [], passed: Int = 1, crash: String? = nil) -> ChapterResult {
    var result = ChapterResult(
      chapter: 7, variant: Variant(),
      exercises: [ExerciseResult(number: 1, title: "A counter"), ExerciseResult(number: 2, title: "Two counters")])
    result.compiled = compiled
    result.crash = crash
    result.exercises[0].passed = passed
    result.exercises[0].failures = failing.map { TestCase(suite: "CountersTests.Exercise1_CounterTests", name: "\($0)()", failure: "no") }
    return result
  }

  /// Grades with `KillersFirst.grade`, answering each run with the next of `results`; the runs asked for.
  static func grade(first: TestSelection?, _ results: [ChapterResult]) -> (KillersFirst.Outcome, [(TestSelection?, Bool)]) {
    var calls: [(TestSelection?, Bool)] = []
    let outcome = KillersFirst.grade(first: first) { selection, built in
      calls.append((selection, built))
      return results[calls.count - 1]
    }
    return (outcome, calls)
  }

  @Test("a killer that fails kills the mutant: the whole suite does not run")
  func aFailingKillerKills() {
    let (outcome, calls) = Self.grade(first: Self.selection, [Self.result(failing: ["createsOnce"])])
    #expect(calls.count == 1)
    #expect(calls.first?.0 == Self.selection && calls.first?.1 == false, "the first run builds and runs the killers")
    #expect(!outcome.ranWholeSuite)
    #expect(MutantCitations.killers(of: outcome.result) == ["createsOnce"], "the record is the killers that failed")
  }

  @Test("a crash under the killers kills the mutant too")
  func aCrashUnderTheKillersKills() {
    let (outcome, calls) = Self.grade(first: Self.selection, [Self.result(passed: 0, crash: "the test process crashed")])
    #expect(calls.count == 1)
    #expect(KillersFirst.killed(outcome.result))
  }

  @Test("when every killer passes, the whole suite runs on the build already made, and its result counts")
  func passingKillersRunTheWholeSuite() {
    let (outcome, calls) = Self.grade(
      first: Self.selection, [Self.result(passed: 2), Self.result(failing: ["aNewerTest"])])
    #expect(calls.count == 2)
    #expect(calls.last?.0 == nil && calls.last?.1 == true, "the whole suite, with the build skipped")
    #expect(outcome.ranWholeSuite)
    #expect(MutantCitations.killers(of: outcome.result) == ["aNewerTest"])
  }

  @Test("killers renamed or removed select no test: that is no kill, and the whole suite runs")
  func aFilterMatchingNothingIsNoKill() {
    let none = Self.result(passed: 0)
    #expect(!KillersFirst.killed(none), "no test ran, none failed")
    let (outcome, calls) = Self.grade(first: Self.selection, [none, Self.result(passed: 3)])
    #expect(calls.count == 2)
    #expect(outcome.ranWholeSuite)
    #expect(!KillersFirst.killed(outcome.result), "the survivor is reported as one")
  }

  @Test("a mutant with no record runs the whole suite once, building it")
  func noRecordRunsTheWholeSuite() {
    let (outcome, calls) = Self.grade(first: nil, [Self.result(failing: ["countsOne"])])
    #expect(calls.count == 1)
    #expect(calls.first?.0 == nil && calls.first?.1 == false)
    #expect(outcome.ranWholeSuite)
  }

  @Test("a mutant that does not compile is not run again")
  func aMutantThatDoesNotCompileIsNotRunAgain() {
    let (outcome, calls) = Self.grade(first: Self.selection, [Self.result(compiled: false, passed: 0)])
    #expect(calls.count == 1)
    #expect(!outcome.result.compiled)
  }
}
