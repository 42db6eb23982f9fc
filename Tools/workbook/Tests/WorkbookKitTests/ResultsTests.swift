import Foundation
import Testing

@testable import WorkbookKit

/// What a grading run was, and how its results read.
@Suite("Variants and results")
struct ResultsTests {
  @Test("a run's build folder name, and whether two runs graded the same code")
  func variants() throws {
    let workbook = try ScratchWorkbook()
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    #expect(Variant().label(for: [chapter]) == "starter")
    #expect(Variant(answers: [7]).label(for: [chapter]) == "answers")
    #expect(Variant(answers: [4, 3]).label(for: [chapter]) == "reference-3-4")
    #expect(Variant(answers: [7], mutant: 7).label(for: [chapter]) == "mutant-7")
    #expect(Variant(sanitize: true).gradesSameCode(as: Variant()), "the sanitizer does not change the code")
    #expect(!Variant(answers: [3]).gradesSameCode(as: Variant()))
    #expect(Variant().inWords == "your own code")
    #expect(Variant(answers: [4, 1]).inWords == "the reference answers of chapters 1, 4")
  }

  @Test("not started: every failure is \"not implemented yet\", or the files are untouched")
  func notStarted() {
    let notImplemented = TestCase(suite: "M.Exercise1_T", name: "a()", failure: "Caught error: not implemented yet: f()")
    let wrong = TestCase(suite: "M.Exercise1_T", name: "b()", failure: "Expectation failed")
    var exercise = ExerciseResult(number: 1, title: "T")
    exercise.failures = [notImplemented]
    #expect(exercise.notStarted)
    exercise.failures = [notImplemented, wrong]
    #expect(!exercise.notStarted)
    exercise.untouched = true
    #expect(exercise.notStarted, "an untouched starter is not started, whatever its failures say")
    exercise.failures.append(TestCase(suite: "M.Exercise1_", name: TestCase.wholeExercise, failure: "crashed"))
    #expect(!exercise.notStarted, "a crash says something, whatever the file looks like")
  }

  @Test("a result survives the summary file; an older tool's summary still loads, without a variant")
  func summaries() throws {
    var result = ChapterResult(chapter: 7, variant: Variant(answers: [3]), exercises: [ExerciseResult(number: 1, title: "T")])
    result.compiled = true
    let data = try JSONEncoder().encode(result)
    let decoded = try JSONDecoder().decode(ChapterResult.self, from: data)
    #expect(decoded.variant == Variant(answers: [3]))
    #expect(decoded.compiled)

    let older = """
      { "chapter": 7, "variant": "starter", "compiled": true, "date": 0,
        "exercises": [{ "number": 1, "title": "T", "passed": 2, "failures": [] }] }
      """
    let old = try JSONDecoder().decode(ChapterResult.self, from: Data(older.utf8))
    #expect(old.variant == nil)
    #expect(old.allSolved)
  }
}
