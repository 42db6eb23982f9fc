import Foundation
import Testing

@testable import WorkbookKit

/// `make mutants` checks each `Checked by:` line that cites a mutant against the tests that really
/// killed it, and keeps every mutant's killers in `.build/mutants/killers.tsv`.
@Suite("mutants verify the citations")
struct MutantCitationTests {
  static let interview = """
    # Interview

    ## How do you count?

    ### Model answer
    One at a time.

    Checked by: `countsOne` (mutant 01), `countsTwo`,
    `countsMany` (mutants 1, 4)

    ### Follow-ups
    - More?

    ### Red flags
    - None.

    ## Why?

    ### Model answer
    Because.

    Checked by: `startsAtZero` (mutant 4)
    """

  func result(_ exercises: [ExerciseResult], crash: String? = nil) -> ChapterResult {
    var variant = Variant(answers: [7])
    variant.mutant = 7
    var result = ChapterResult(chapter: 7, variant: variant, exercises: exercises)
    result.compiled = true
    result.crash = crash
    return result
  }

  @Test("every failed test is a killer, named without its labels")
  func allKillers() {
    var first = ExerciseResult(number: 1, title: "A counter")
    first.failures = [
      TestCase(suite: "CountersTests.Exercise1_CounterTests", name: "countsOne()", failure: "expected 1"),
      TestCase(suite: "CountersTests.Exercise1_CounterTests", name: "modelBased(seed:)", failure: "diverged"),
    ]
    var second = ExerciseResult(number: 2, title: "Two counters")
    second.failures = [TestCase(suite: "CountersTests.Exercise2_PairTests", name: "startsAtZero()", failure: "2")]
    #expect(MutantCitations.killers(of: result([first, second])) == ["countsOne", "modelBased", "startsAtZero"])
  }

  @Test("a crash counts the test it is blamed on, not the tests it cut short nor a whole exercise")
  func crashKillers() {
    var first = ExerciseResult(number: 1, title: "A counter")
    first.failures = [
      TestCase(suite: "CountersTests.Exercise1_CounterTests", name: "countsOne()", failure: "Fatal error", crashed: true),
      TestCase(
        suite: "CountersTests.Exercise1_CounterTests", name: "countsTwo()",
        failure: "did not finish: the test process crashed in `countsOne` first"),
      TestCase(suite: "CountersTests.Exercise1_CounterTests", name: "countsMany()", failure: "expected 3"),
    ]
    var second = ExerciseResult(number: 2, title: "Two counters")
    second.failures = [TestCase(suite: "CountersTests.Exercise2_", name: TestCase.wholeExercise, failure: "crashed")]
    #expect(MutantCitations.killers(of: result([first, second])) == ["countsMany", "countsOne"])

    // The whole run crashed in a test that passed when its exercise ran alone.
    let crash = "the test process crashed, in `startsAtZero` (Tests/CountersTests/Exercise2_PairTests.swift:9):\n    Fatal error"
    #expect(MutantCitations.killers(of: result([ExerciseResult(number: 1, title: "A counter")], crash: crash)) == ["startsAtZero"])
  }

  @Test("a line that pairs a mutant only with tests that did not kill it fails, naming the line, the tests and the killers")
  func wrongTest() {
    let problems = MutantCitations.problems(
      citing: 1, name: "01-counts-twice", killers: ["modelBased", "startsAtZero"], interview: Self.interview,
      interviewPath: "Chapters/07-counters/interview.md")
    #expect(
      problems == [
        "Chapters/07-counters/interview.md:8: mutant 1 (01-counts-twice) is cited with `countsOne`, `countsMany`, but "
          + "it was killed by `modelBased`, `startsAtZero`; cite it with a test that kills it (see .build/mutants/killers.tsv)"
      ])
  }

  @Test("one of the paired tests among the killers is enough; a test not paired with the mutant does not count")
  func rightTest() {
    #expect(
      MutantCitations.problems(
        citing: 1, name: "01-counts-twice", killers: ["countsMany"], interview: Self.interview, interviewPath: "i.md")
        == [])
    // `countsTwo` is on the line but cites no mutant: it does not back mutant 1.
    #expect(
      MutantCitations.problems(
        citing: 1, name: "01-counts-twice", killers: ["countsTwo"], interview: Self.interview, interviewPath: "i.md"
      )
      .count == 1)
    // Mutant 4 is cited on two lines; each is checked on its own.
    let four = MutantCitations.problems(
      citing: 4, name: "04-x", killers: ["countsMany"], interview: Self.interview, interviewPath: "i.md")
    #expect(four.count == 1)
    #expect(four.first?.hasPrefix("i.md:22: mutant 4 (04-x) is cited with `startsAtZero`, but it was killed by `countsMany`") == true)
    // A mutant nobody cites is not checked.
    #expect(MutantCitations.problems(citing: 9, name: "09-y", killers: [], interview: Self.interview, interviewPath: "i.md") == [])
  }

  @Test("a cited mutant that survived fails its citation too")
  func survivor() {
    let problems = MutantCitations.problems(
      citing: 4, name: "04-x", killers: [], interview: Self.interview, interviewPath: "i.md")
    #expect(problems.count == 2)
    #expect(problems.allSatisfy { $0.contains("but no test killed it") })
  }

  @Test("killers.tsv keeps the rows of mutants not run this time and replaces those run")
  func killersFile() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    MutantCitations.record(
      [
        MutantKillers(chapter: 7, number: 2, name: "02-b", killers: ["x"]),
        MutantKillers(chapter: 7, number: 1, name: "01-a", killers: ["y", "z"]),
      ], root: workbook.root)
    MutantCitations.record([MutantKillers(chapter: 7, number: 2, name: "02-b", killers: [])], root: workbook.root)
    #expect(
      try workbook.read(".build/mutants/killers.tsv")
        == "chapter\tmutant\tname\tkillers\n7\t1\t01-a\ty z\n7\t2\t02-b\t\n")
  }
}
