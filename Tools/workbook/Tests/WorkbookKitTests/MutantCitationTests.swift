import Foundation
import Testing

@testable import WorkbookKit

/// `make mutants` checks each `Checked by:` line that cites a mutant against the tests that really
/// killed it, and records every mutant's killers in its chapter's `mutants/killers.tsv`.
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

  @Test("a test paired with a mutant it did not kill fails, naming the line, the test and the killers")
  func wrongTest() {
    let problems = MutantCitations.problems(
      citing: 1, name: "01-counts-twice", killers: ["modelBased", "countsMany"], interview: Self.interview,
      interviewPath: "Chapters/07-counters/interview.md", record: "Chapters/07-counters/mutants/killers.tsv")
    #expect(
      problems == [
        "Chapters/07-counters/interview.md:8: mutant 1 (01-counts-twice) is cited with `countsOne`, but it was killed by "
          + "`modelBased`, `countsMany`; cite it with a test that kills it (see Chapters/07-counters/mutants/killers.tsv)"
      ])
  }

  @Test("every test paired with the mutant must kill it; a test not paired with it is not asked")
  func everyPairedTest() {
    #expect(
      MutantCitations.problems(
        citing: 1, name: "01-counts-twice", killers: ["countsOne", "countsMany"], interview: Self.interview,
        interviewPath: "i.md") == [])
    // `countsTwo` is on the line but cites no mutant: it is not asked to kill mutant 1.
    let one = MutantCitations.problems(
      citing: 1, name: "01-counts-twice", killers: ["countsMany"], interview: Self.interview, interviewPath: "i.md")
    #expect(one.count == 1)
    #expect(one.first?.hasPrefix("i.md:8: mutant 1 (01-counts-twice) is cited with `countsOne`") == true)
    // Mutant 4 is cited on two lines; each is checked on its own.
    let four = MutantCitations.problems(
      citing: 4, name: "04-x", killers: ["countsMany"], interview: Self.interview, interviewPath: "i.md")
    #expect(four.count == 1)
    #expect(four.first?.hasPrefix("i.md:22: mutant 4 (04-x) is cited with `startsAtZero`, but it was killed by `countsMany`") == true)
    // A mutant nobody cites is not checked.
    #expect(MutantCitations.problems(citing: 9, name: "09-y", killers: [], interview: Self.interview, interviewPath: "i.md") == [])
  }

  @Test("a cited mutant that survived fails each of its citations")
  func survivor() {
    let problems = MutantCitations.problems(
      citing: 4, name: "04-x", killers: [], interview: Self.interview, interviewPath: "i.md")
    #expect(problems.count == 2)
    #expect(problems.allSatisfy { $0.contains("but no test killed it") })
  }

  @Test("killers.tsv keeps the rows of mutants not run this time, replaces those run, and drops those whose file is gone")
  func killersFile() throws {
    let workbook = try ScratchWorkbook()
    let chapter = try #require(try Catalog.load(root: workbook.root).chapters.first)
    try workbook.write("Chapters/07-counters/mutants/02-b.mutant", "")
    MutantCitations.record(
      [
        MutantKillers(chapter: 7, number: 2, name: "02-b", killers: ["x"]),
        MutantKillers(chapter: 7, number: 1, name: "01-counts-twice", killers: ["y", "z"]),
      ], in: [chapter], root: workbook.root)
    MutantCitations.record([MutantKillers(chapter: 7, number: 2, name: "02-b", killers: [])], in: [chapter], root: workbook.root)
    #expect(
      try workbook.read("Chapters/07-counters/mutants/killers.tsv")
        == "chapter\tmutant\tname\tkillers\n7\t1\t01-counts-twice\ty z\n7\t2\t02-b\t\n")
    try workbook.remove("Chapters/07-counters/mutants/02-b.mutant")
    MutantCitations.record(
      [MutantKillers(chapter: 7, number: 1, name: "01-counts-twice", killers: ["countsOne"])], in: [chapter], root: workbook.root)
    #expect(
      try workbook.read("Chapters/07-counters/mutants/killers.tsv")
        == "chapter\tmutant\tname\tkillers\n7\t1\t01-counts-twice\tcountsOne\n")
  }
}
