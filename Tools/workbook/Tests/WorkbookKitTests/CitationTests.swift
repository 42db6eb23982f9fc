import Foundation
import Testing

@testable import WorkbookKit

/// The `Checked by:` and `Not built here:` lines that end every model answer: the parser on its
/// own, then the `interview` rule on a scratch workbook.
@Suite("citations in interviews")
struct CitationTests {
  func parse(_ lines: [String], at line: Int = 10) -> Result<AnswerEnding, CitationError> {
    Citations.parse(Paragraph(line: line, lines: lines))
  }

  func items(_ lines: [String], at line: Int = 10) throws -> [CitedTest] {
    guard case .success(.checkedBy(let items, _)) = parse(lines, at: line) else {
      Issue.record("\(lines) does not parse: \(parse(lines, at: line))")
      return []
    }
    return items
  }

  func error(_ lines: [String], at line: Int = 10) -> CitationError? {
    if case .failure(let error) = parse(lines, at: line) { return error }
    return nil
  }

  @Test("one line: tests, each with no mutant, one mutant or several")
  func oneLine() throws {
    #expect(
      try items(["Checked by: `countsOne` (mutant 7), `countsTwo` (mutants 07, 12), `supporting`"]) == [
        CitedTest(test: "countsOne", mutants: [7], line: 10),
        CitedTest(test: "countsTwo", mutants: [7, 12], line: 10),
        CitedTest(test: "supporting", mutants: [], line: 10),
      ])
  }

  @Test("a paragraph that wraps: each test keeps the line its name is on, and a mutant list may wrap")
  func wrapping() throws {
    #expect(
      try items(
        [
          "Checked by: `first` (mutant 01),",
          "`second` (mutants 02,",
          "  3), `third`.",
        ], at: 40) == [
          CitedTest(test: "first", mutants: [1], line: 40),
          CitedTest(test: "second", mutants: [2, 3], line: 41),
          CitedTest(test: "third", mutants: [], line: 42),
        ])
  }

  @Test("`mutant` names one number and `mutants` several, compared as integers")
  func mutantLists() throws {
    #expect(try Citations.parseMutantList("mutant 7").get() == [7])
    #expect(try Citations.parseMutantList("mutant 07").get() == [7])
    #expect(try Citations.parseMutantList("mutants 07, 12").get() == [7, 12])
    #expect(try Citations.parseMutantList("mutants 1,2 , 40").get() == [1, 2, 40])
    #expect(throws: Citations.MutantListError.self) { try Citations.parseMutantList("mutant 07, 12").get() }
    #expect(throws: Citations.MutantListError.self) { try Citations.parseMutantList("mutants 07").get() }
    #expect(throws: Citations.MutantListError.self) { try Citations.parseMutantList("the metrics").get() }
    #expect(throws: Citations.MutantListError.self) { try Citations.parseMutantList("mutants 07, ").get() }
    #expect(throws: Citations.MutantListError.self) { try Citations.parseMutantList("mutant seven").get() }
  }

  @Test("junk is an error that names its line and says what to write")
  func junk() throws {
    let plural = try #require(error(["Checked by: `a` (mutant 07, 12)"]))
    #expect(plural.line == 10)
    #expect(plural.message.contains("names 2 mutants; write `(mutants …)`"))
    #expect(error(["Checked by: `a` (mutants 07)"])?.message.contains("write `(mutant 07)`") == true)
    #expect(error(["Checked by: a, `b` (mutant 1)"])?.message.contains("“a, `b` (mutant 1)” where a test's name in backticks belongs") == true)
    #expect(error(["Checked by:"])?.message.contains("names no test") == true)
    #expect(error(["Checked by: `a` (mutant 1),"])?.message.contains("ends in a comma") == true)
    #expect(error(["Checked by: `a` (mutant 1) and more"])?.message.contains("“and more” after `a`") == true)
    #expect(error(["Checked by: `modelBased(seed:)` (mutant 1)"])?.message.contains("is not a test function's name") == true)
    #expect(error(["Checked by: `a` (mutant 1"])?.message.contains("an unclosed “(” after `a`") == true)
    #expect(error(["Checked by: `a (mutant 1)"])?.message.contains("unclosed backtick") == true)
    let second = try #require(error(["Checked by: `a` (mutant 1),", "`b` (the metrics)"], at: 5))
    #expect(second.line == 6, "the error names the line the bad list is on")
    #expect(second.message.hasPrefix("after `b`: “(the metrics)” is no mutant list"))
    // A suite's name followed by a colon, as the old lines had it.
    #expect(error(["Checked by: `Exercise3_RetryPolicyTests`: `a` (mutant 1)"]) != nil)
  }

  @Test("a Not built here line has what is not built and a source")
  func notBuiltHere() {
    #expect(
      parse(["Not built here: a CDN in front of the images; source: RFC 9111 §5.2"])
        == .success(.notBuiltHere(what: "a CDN in front of the images", source: "RFC 9111 §5.2", line: 10)))
    #expect(
      parse(["Not built here: background uploads;", "source: Apple, URLSessionConfiguration.background"])
        == .success(
          .notBuiltHere(what: "background uploads", source: "Apple, URLSessionConfiguration.background", line: 10)))
    #expect(error(["Not built here: a CDN"])?.message.contains("no `; source:`") == true)
    #expect(error(["Not built here: ; source: RFC 9111"])?.message.contains("does not say what is not built") == true)
    #expect(error(["Not built here: a CDN; source:"])?.message.contains("source is empty") == true)
  }

  @Test("questions are cut into the model answer's paragraphs; endings elsewhere and code fences are told apart")
  func questions() throws {
    let text = """
      # Interview

      ## First?

      ### Model answer
      An answer
      on two lines.
      Checked by: `a` (mutant 1)

      ### Follow-ups
      - More?

      Checked by: `b` (mutant 2)

      ## Second?

      ### Model answer
      ```
      Checked by: `inACodeFence`
      ```

      Not built here: x; source: y
      """
    let questions = Citations.questions(in: text)
    #expect(questions.map(\.heading) == ["First?", "Second?"])
    #expect(questions.map(\.line) == [3, 15])
    #expect(questions[0].modelAnswer.map(\.line) == [6, 8], "a `Checked by:` line starts a paragraph of its own")
    #expect(questions[0].strayEndings.map(\.line) == [13])
    #expect(questions[0].endings == [.success(.checkedBy([CitedTest(test: "a", mutants: [1], line: 8)], line: 8))])
    #expect(questions[1].endings == [.success(.notBuiltHere(what: "x", source: "y", line: 22))])
  }

  // MARK: - The rule, on a scratch workbook

  func citationProblems(_ workbook: ScratchWorkbook) -> [String] {
    workbook.problems().filter { $0.rule == .interview }.map(\.message)
  }

  @Test("the scratch chapter's citations hold")
  func scratchHolds() throws {
    let workbook = try ScratchWorkbook()
    #expect(citationProblems(workbook) == [])
  }

  @Test("renaming a cited test fails the check with the interview's file and line")
  func renamedTest() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit(
      "Tests/CountersTests/Exercise1_CounterTests.swift", replacing: "func countsOne()", with: "func countsOnce()")
    #expect(
      citationProblems(workbook) == [
        "Chapters/07-counters/interview.md:8: `countsOne` is not a test of Tests/CountersTests (no `func countsOne(` "
          + "there); cite a test by its function's name"
      ])
  }

  @Test("removing a cited mutant fails the check with the interview's file and line")
  func removedMutant() throws {
    let workbook = try ScratchWorkbook()
    try workbook.remove("Chapters/07-counters/mutants/01-counts-twice.mutant")
    #expect(
      citationProblems(workbook).contains(
        "Chapters/07-counters/interview.md:8: `countsOne` cites mutant 1, which Chapters/07-counters/mutants does not "
          + "have; cite the number of a file there (`NN-name.mutant`)"))
  }

  @Test("a test cited with a mutant its recorded run was not failed by fails the check, naming the killers")
  func recordedKillers() throws {
    let workbook = try ScratchWorkbook()
    try workbook.write(
      "Chapters/07-counters/mutants/killers.tsv", "chapter\tmutant\tname\tkillers\n7\t1\t01-counts-twice\tstartsAtZero\n")
    #expect(
      citationProblems(workbook) == [
        "Chapters/07-counters/interview.md:8: `countsOne` is cited with mutant 1, but the recorded run of 01-counts-twice "
          + "in Chapters/07-counters/mutants/killers.tsv was failed by `startsAtZero`, not by it; cite a test that kills "
          + "it, or run `make mutants CHAPTER=7 MUTANTS=1` if the test changed"
      ])
    try workbook.write("Chapters/07-counters/mutants/killers.tsv", "chapter\tmutant\tname\tkillers\n7\t1\t01-counts-twice\t\n")
    #expect(citationProblems(workbook).first?.contains("was failed by no test, not by it") == true)
  }

  @Test("a cited mutant with no recorded run fails the check and says how to record one")
  func unrecordedMutant() throws {
    let workbook = try ScratchWorkbook()
    try workbook.remove("Chapters/07-counters/mutants/killers.tsv")
    #expect(
      citationProblems(workbook) == [
        "Chapters/07-counters/interview.md:8: `countsOne` cites mutant 1, which has no recorded run in "
          + "Chapters/07-counters/mutants/killers.tsv; run `make mutants CHAPTER=7 MUTANTS=1`, which records the tests "
          + "that kill it"
      ])
  }

  @Test("a model answer with no ending, with two, with one that is not last, and with no mutant")
  func endings() throws {
    let workbook = try ScratchWorkbook()
    // Both tests this test cites with mutant 01 kill it, so only the endings are at fault.
    try workbook.write(
      "Chapters/07-counters/mutants/killers.tsv", "chapter\tmutant\tname\tkillers\n7\t1\t01-counts-twice\tcountsOne startsAtZero\n")
    try workbook.edit("Chapters/07-counters/interview.md", replacing: "Checked by: `countsOne` (mutant 01)", with: "")
    var problems = citationProblems(workbook)
    #expect(problems.count == 1)
    #expect(problems[0].hasPrefix("Chapters/07-counters/interview.md:3: the model answer of “How do you count?” has no `Checked by:` line"))

    try workbook.edit(
      "Chapters/07-counters/interview.md", replacing: "One at a time.\n",
      with: "One at a time.\n\nChecked by: `countsOne` (mutant 01)\n\nChecked by: `startsAtZero` (mutant 01)\n")
    problems = citationProblems(workbook)
    #expect(problems.count == 1)
    #expect(problems[0].contains(":10: the model answer of “How do you count?” has 2 `Checked by:`/`Not built here:` paragraphs (lines 8, 10)"))

    try workbook.edit(
      "Chapters/07-counters/interview.md", replacing: "Checked by: `startsAtZero` (mutant 01)", with: "And that is all.")
    #expect(
      citationProblems(workbook) == [
        "Chapters/07-counters/interview.md:10: the model answer of “How do you count?” goes on after its `Checked by:`/"
          + "`Not built here:` paragraph; move that paragraph to the end of the model answer"
      ])

    try workbook.edit("Chapters/07-counters/interview.md", replacing: "\n\nAnd that is all.", with: "")
    try workbook.edit("Chapters/07-counters/interview.md", replacing: "`countsOne` (mutant 01)", with: "`countsOne`")
    problems = citationProblems(workbook)
    #expect(problems.count == 1)
    #expect(
      problems[0].hasPrefix(
        "Chapters/07-counters/interview.md:8: `countsOne` is cited by the `Checked by:` line of “How do you count?” with no mutant"))
  }

  @Test("a Not built here line with no source, and an ending in the follow-ups")
  func notBuiltWithoutSource() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit(
      "Chapters/07-counters/interview.md", replacing: "; source: POSIX.1-2017, fcntl(2) record locks", with: "")
    try workbook.edit(
      "Chapters/07-counters/interview.md", replacing: "- And two at a time?",
      with: "- And two at a time?\n\nChecked by: `startsAtZero` (mutant 01)")
    let problems = citationProblems(workbook)
    #expect(problems.count == 2)
    #expect(problems.contains { $0.hasPrefix("Chapters/07-counters/interview.md:13: a `Checked by:` paragraph outside the `### Model answer`") })
    #expect(problems.contains { $0.hasPrefix("Chapters/07-counters/interview.md:23: a `Not built here:` line with no `; source:`") })
  }

  @Test("a chapter needs at least as many questions as exercises")
  func tooFewQuestions() throws {
    let workbook = try ScratchWorkbook()
    try workbook.write("Chapters/07-counters/interview.md", countersInterview)
    #expect(
      citationProblems(workbook) == [
        "Chapters/07-counters/interview.md:3: the chapter has 1 question for 2 exercises; add a `## ` question for "
          + "each exercise's core mechanism"
      ])
  }
}
