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

  @Test("a typed-throws starter's error case carries the marker: the exercise is not started, and reads so")
  func typedThrowsNotStarted() throws {
    func plain(_ text: String) -> String {
      text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }
    // `throws(NetworkError)` cannot throw NotImplemented: the starter throws
    // `.encoding(NotImplemented("NetworkManager.send").description)`, which the tests print inside
    // whatever they checked.
    let caught = TestCase(
      suite: "M.Exercise7_T", name: "a()", failure: #"Caught error: .encoding("not implemented yet: NetworkManager.send") (error)"#)
    let compared = TestCase(
      suite: "M.Exercise7_T", name: "b()",
      failure: #"Expectation failed: (error → .encoding("not implemented yet: StubbingClient.decode(_:for:)")) == .unauthorized"#)
    let nested = TestCase(
      suite: "M.Exercise7_T", name: "c()",
      failure: #"Caught error: ValidationError(fields: [FieldError(field: "", message: "not implemented yet: APIResponse.unwrap")])"#)
    var exercise = ExerciseResult(number: 7, title: "T")
    exercise.failures = [caught, compared, nested, caught]
    #expect(exercise.notStarted, "every failure carries the marker, whatever case wraps it")
    #expect(exercise.unwritten == ["NetworkManager.send", "StubbingClient.decode(_:for:)", "APIResponse.unwrap"])
    #expect(plain(explain(compared.failure!)) == "    not implemented yet: StubbingClient.decode(_:for:)", "the wrapping case is not shown")
    let workbook = try ScratchWorkbook()
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    let line = plain(GradeCommand.notStartedLine(exercise, files: "NetworkManager.swift", chapter))
    #expect(line.contains("Not started: each `// TODO:` in Sources/Counters/NetworkManager.swift says what to write"))
    // None of the three is in the scratch starter: every one is shown, in alphabetical order.
    #expect(line.hasSuffix("(not implemented yet: `APIResponse.unwrap`, `NetworkManager.send`, `StubbingClient.decode(_:for:)`)."))
    #expect(!line.contains(".encoding"))
  }

  @Test("the grader's marker is Support/Workbook's")
  func markerMatchesWorkbook() throws {
    let workbook = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../../Support/Workbook/NotImplemented.swift").standardized
    let source = try String(contentsOf: workbook, encoding: .utf8)
    #expect(source.contains("public static let marker = \"\(NotImplementedMarker.text)\""))
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
