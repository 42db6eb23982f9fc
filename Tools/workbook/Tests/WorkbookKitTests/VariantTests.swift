import Foundation
import Testing

@testable import WorkbookKit

/// Variants, the dual of mutants: the format, `workbook check`'s rule, and the verdict of
/// `make variants` on a graded run.
@Suite("Variants")
struct VariantTests {
  static let folder = "Chapters/07-counters/variants"

  // MARK: - The format

  @Test("a variant closes its blocks with `variant`, a mutant with `mutant`, and neither takes the other's")
  func closingMarkers() throws {
    let variantText = "title: t\nwhy: w\nfile: A.swift\n<<<<<<< answer\na\n=======\nb\n>>>>>>> variant\n"
    let variant = try Mutant(name: "01-v", text: variantText, path: "v.variant", kind: .variant)
    #expect(variant.kind == .variant && variant.replacements.first?.mutant == "b")
    #expect {
      _ = try Mutant(name: "01-v", text: variantText, path: "m.mutant")
    } throws: { error in
      "\(error)" == "m.mutant: a block closed with `>>>>>>> variant`; a mutant's blocks end with `>>>>>>> mutant`"
    }
    let mutantText = variantText.replacingOccurrences(of: ">>>>>>> variant", with: ">>>>>>> mutant")
    #expect {
      _ = try Mutant(name: "01-v", text: mutantText, path: "v.variant", kind: .variant)
    } throws: { error in
      "\(error)" == "v.variant: a block closed with `>>>>>>> mutant`; a variant's blocks end with `>>>>>>> variant`"
    }
    #expect {
      _ = try Mutant(name: "01-v", text: "file: A.swift\n<<<<<<< answer\na\n=======\nb\n", path: "v.variant", kind: .variant)
    } throws: { error in
      "\(error)".contains("needs a `=======` and a `>>>>>>> variant`")
    }
  }

  @Test("a title left out reads as the name, and the rule can tell it was left out")
  func statedTitle() throws {
    let variant = try Mutant(
      name: "01-v", text: "file: A.swift\n<<<<<<< answer\na\n=======\nb\n>>>>>>> variant\n", path: "v", kind: .variant)
    #expect(variant.title == "01-v" && variant.statedTitle.isEmpty)
  }

  // MARK: - workbook check

  @Test("five variants that apply pass the rule; `variants --check` agrees")
  func fiveVariantsPass() throws {
    let workbook = try ScratchWorkbook()
    #expect(!workbook.report().contains("[variants]"))
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    let checked = variantFileProblems(chapter, root: workbook.root)
    #expect(checked.count == 5 && checked.problems.isEmpty)
  }

  @Test("a chapter with four variants, or none, breaks the rule")
  func tooFewVariants() throws {
    let workbook = try ScratchWorkbook()
    try workbook.remove("\(Self.folder)/05-reduces-the-pair.variant")
    #expect(
      workbook.problems().map(\.description).contains(
        "[variants] \(Self.folder) has 4 variants; a chapter needs at least 5 (`NN-name.variant`: a different "
          + "correct solution, in the mutant format closed with `>>>>>>> variant`)"))
    try workbook.remove(Self.folder)
    #expect(workbook.report().contains("[variants] \(Self.folder) has no variants; a chapter needs at least 5"))
  }

  @Test("a variant with an empty why, or no title, is named with what to write")
  func emptyWhy() throws {
    let workbook = try ScratchWorkbook()
    let file = "\(Self.folder)/04-second-first.variant"
    try workbook.edit(file, replacing: "why: addition commutes", with: "why:   ")
    try workbook.edit("\(Self.folder)/02-if-instead-of-guard.variant", replacing: "title: an if instead of a guard\n", with: "")
    let report = workbook.report()
    #expect(report.contains("[variants] \(file): no `why:`; name the choice the chapter leaves open that this solution takes"))
    #expect(report.contains("[variants] \(Self.folder)/02-if-instead-of-guard.variant: no `title:`"))
    #expect(!report.contains("has 4 variants"), "a variant with a problem still counts")
  }

  @Test("a stale variant, whose answer block is no longer in the answer, names its file")
  func staleVariant() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit("answers/Counters/Pair.swift", replacing: "first.value + second.value", with: "first.value &+ second.value")
    let report = workbook.report()
    for name in ["04-second-first", "05-reduces-the-pair"] {
      #expect(
        report.contains(
          "[variants] \(Self.folder)/\(name).variant: its `answer` block occurs 0 times in answers/Counters/Pair.swift, "
            + "not once; the answer has changed"))
    }
  }

  @Test("a mutant file closed with `variant` is rejected, and so is a variant closed with `mutant`")
  func wrongMarkers() throws {
    let workbook = try ScratchWorkbook()
    let mutant = "Chapters/07-counters/mutants/01-counts-twice.mutant"
    try workbook.edit(mutant, replacing: ">>>>>>> mutant", with: ">>>>>>> variant")
    let variant = "\(Self.folder)/01-assigns-the-sum.variant"
    try workbook.edit(variant, replacing: ">>>>>>> variant", with: ">>>>>>> mutant")
    let report = workbook.report()
    #expect(report.contains("[mutants] \(mutant): a block closed with `>>>>>>> variant`; a mutant's blocks end with `>>>>>>> mutant`"))
    #expect(report.contains("[variants] \(variant): a block closed with `>>>>>>> mutant`; a variant's blocks end with `>>>>>>> variant`"))
  }

  @Test("a variant named without its number")
  func unnumbered() throws {
    let workbook = try ScratchWorkbook()
    try workbook.move("\(Self.folder)/05-reduces-the-pair.variant", to: "\(Self.folder)/reduces-the-pair.variant")
    #expect(workbook.report().contains("[variants] \(Self.folder)/reduces-the-pair.variant: name it `NN-name.variant`"))
  }

  // MARK: - The verdict

  static func result(_ exercises: [ExerciseResult], compiled: Bool = true, crash: String? = nil) -> ChapterResult {
    var result = ChapterResult(chapter: 7, variant: Variant(), exercises: exercises)
    result.compiled = compiled
    result.crash = crash
    return result
  }

  static func exercise(_ number: Int, passed: Int, failures: [TestCase] = [], skipped: [String]? = nil) -> ExerciseResult {
    var exercise = ExerciseResult(number: number, title: "E\(number)")
    exercise.passed = passed
    exercise.failures = failures
    exercise.skipped = skipped
    return exercise
  }

  @Test("a variant passes when every test passes, as many as the answer runs")
  func passes() {
    let answer = Self.result([Self.exercise(1, passed: 3), Self.exercise(2, passed: 2)])
    #expect(VariantVerdict.problems(answer).isEmpty)
    let counts = VariantVerdict.testCounts(answer)
    #expect(counts == [1: 3, 2: 2])
    #expect(VariantVerdict.problems(answer, expected: counts).isEmpty)
  }

  @Test("a failing test is shown with the first lines of its message")
  func failingTest() {
    let failure = TestCase(
      suite: "CountersTests.Exercise2_PairTests", name: "startsAtZero()",
      failure: "Expectation failed: (total → 1) == 0 (error): a new pair counts nothing\nline 2\nline 3\nline 4\nline 5")
    let result = Self.result([Self.exercise(1, passed: 3), Self.exercise(2, passed: 1, failures: [failure])])
    let problems = VariantVerdict.problems(result, expected: [1: 3, 2: 2], lines: 2)
    #expect(problems.count == 1)
    let text = problems[0].replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    #expect(text.hasPrefix("exercise 2, `startsAtZero()`:\n    a new pair counts nothing"))
    #expect(text.contains("line 2") && !text.contains("line 3"))
  }

  @Test("a skipped test, a test that did not run, a crash and a compile error each fail a variant")
  func otherFailures() {
    let expected = [1: 3, 2: 2]
    let skipped = Self.result([Self.exercise(1, passed: 3, skipped: ["countsOne()"]), Self.exercise(2, passed: 2)])
    #expect(VariantVerdict.problems(skipped, expected: expected) == ["exercise 1, `countsOne()` was skipped: every test must run"])
    let fewer = Self.result([Self.exercise(1, passed: 2), Self.exercise(2, passed: 2)])
    #expect(
      VariantVerdict.problems(fewer, expected: expected) == [
        "exercise 1 ran 2 tests, the answer runs 3: every test must run, and no more"
      ])
    let crashed = Self.result([Self.exercise(1, passed: 3), Self.exercise(2, passed: 2)], crash: "the test process crashed:\n    Fatal error")
    #expect(VariantVerdict.problems(crashed, expected: expected) == ["the test process crashed:\n    Fatal error"])
    let broken = Self.result([Self.exercise(1, passed: 0), Self.exercise(2, passed: 0)], compiled: false)
    #expect(VariantVerdict.problems(broken, expected: expected) == ["it does not compile (the errors are above)"])
    #expect(VariantVerdict.problems(Self.result([Self.exercise(1, passed: 0)])) == ["exercise 1: no tests ran"])
  }

  @Test("the xUnit report's skipped tests are read as skipped, and counted where they belong")
  func skippedInTheReport() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    try workbook.write(
      "r.xml",
      """
      <testsuites><testsuite name="TestResults">
      <testcase classname="CountersTests.Exercise1_CounterTests" name="countsOne()" time="0.1"><skipped /></testcase>
      <testcase classname="CountersTests.Exercise1_CounterTests" name="countsTwo()" time="0.1" />
      </testsuite></testsuites>
      """)
    let cases = try #require(readXUnit("\(workbook.root)/r.xml"))
    #expect(cases.map(\.skipped) == [true, nil])
    #expect(cases.allSatisfy { $0.failure == nil })
  }

  @Test("the command's arguments")
  func arguments() throws {
    let command = try VariantsCommand(["1", "3", "--only", "40,41", "--check"])
    #expect(command.chapters == [1, 3] && command.only == [40, 41] && command.checkOnly)
    #expect(throws: UsageError.self) { try VariantsCommand(["--only", "x"]) }
    #expect(WorkbookTool.command(named: "variants") != nil)
  }
}
