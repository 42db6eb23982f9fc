import Foundation
import Testing

@testable import WorkbookKit

/// Reading `swift test --xunit-output` reports, from recorded fixtures.
@Suite("xUnit reports")
struct XUnitTests {
  static func fixture(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path
  }

  @Test("every test case, its suite, exercise and failures")
  func readsTestCases() throws {
    let cases = try #require(readXUnit(Self.fixture("two-suites.xml")))
    #expect(cases.count == 4)
    #expect(cases.allSatisfy { $0.module == "Sample" })
    #expect(cases.map(\.exercise) == [2, 1, 1, 1])
    let passed = cases.filter { $0.failure == nil }.map(\.name)
    #expect(passed == ["passes()", "doubles()"])
    let notImplemented = try #require(cases.first { $0.name == "answerIs42()" })
    #expect(notImplemented.suite == "SampleTests.Exercise1_SampleTests")
    #expect(notImplemented.failure == "Caught error: not implemented yet: answer() (error)")
  }

  @Test("two issues of one test are one failure, a line each")
  func joinsIssues() throws {
    let cases = try #require(readXUnit(Self.fixture("two-suites.xml")))
    let twice = try #require(cases.first { $0.name == "doublesNegative(value:)" })
    #expect(
      twice.failure
        == "Expectation failed: (double(value) → -6) == -7 (error): -3 doubled is -6\n"
        + "Expectation failed: (double(value) → -6) < -100 (error): a second issue")
  }

  @Test("a failure that quotes binary data (a raw 0x01, or &#1;) is read, not taken for a crash")
  func controlBytes() throws {
    let cases = try #require(readXUnit(Self.fixture("control-bytes.xml")), "XML 1.0 forbids these bytes; the reader must not give up")
    #expect(cases.map(\.name) == ["multipartNamesAreEscaped()", "multipartBodiesAreExactToTheByte()"])
    #expect(cases.first?.failure?.contains("Content-Type: image/png") == true)
    #expect(cases.last?.failure == nil)
  }

  @Test("a crash leaves a report with no test case, or with the cases finished before it; a missing one is nil")
  func crashedReports() {
    #expect(readXUnit(Self.fixture("crashed-before-results.xml")) == [])
    // Only what was finished: this is why the grader also reads the console for a crash.
    #expect(readXUnit(Self.fixture("truncated.xml"))?.map(\.name) == ["doubles()"])
    #expect(readXUnit(Self.fixture("missing.xml")) == nil)
  }

  @Test("a suite's exercise comes from its type name; other suites belong to none")
  func exerciseFromSuite() {
    #expect(TestCase(suite: "DataStoreTests.Exercise12_BigTests", name: "a()", failure: nil).exercise == 12)
    #expect(TestCase(suite: "DataStoreTests.Exercise12_BigTests", name: "a()", failure: nil).module == "DataStore")
    #expect(TestCase(suite: "NetworkingTests.PracticeServerTests", name: "a()", failure: nil).exercise == nil)
    #expect(TestCase(suite: "FeedTests.Excercise1_FeedTests", name: "a()", failure: nil).exercise == nil)
  }

  @Test("grading sorts the recorded cases into exercises")
  func sortsIntoExercises() throws {
    let cases = try #require(readXUnit(Self.fixture("two-suites.xml")))
    var first = ExerciseResult(number: 1, title: "Sample")
    for test in cases where test.exercise == 1 {
      if test.failure == nil { first.passed += 1 } else { first.failures.append(test) }
    }
    #expect(first.passed == 1 && first.failures.count == 2 && first.total == 3)
    #expect(!first.solved && !first.notStarted, "one test passes: the exercise is started")
  }
}
