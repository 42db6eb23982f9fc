import Foundation
import Testing

@testable import WorkbookKit

/// How the grader runs a mutant: one `swift test` that builds and tests, and the build on its own
/// only when that command's tests never started, so a mutant that does not compile still says so.
@Suite("Grading a mutant")
struct MutantGradingTests {
  /// Grades chapter 7's mutant with `StandInSwift`, which prints `test` and `build`.
  static func grade(
    test: (String, Int32), build: (String, Int32), selection: TestSelection? = nil, built: Bool = false
  ) throws -> (result: ChapterResult, calls: [String]) {
    let workbook = try ScratchWorkbook()
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    var variant = Variant(answers: [7])
    variant.mutant = 7
    let swift = try StandInSwift.write(in: workbook, build: build, test: test)
    try FileManager.default.createDirectory(
      atPath: "\(workbook.root)/\(Grader.scratchPath([chapter], variant))", withIntermediateDirectories: true)
    let result = try #require(
      try Grader.grade(
        [chapter], variant, root: workbook.root, swift: swift, buildSystem: [], selection: selection, built: built
      ).first)
    return (result, try StandInSwift.calls(in: workbook))
  }

  @Test("a mutant whose tests ran is built and tested by one command")
  func oneCommandWhenTheTestsRan() throws {
    let (result, calls) = try Self.grade(
      test: ("Build complete!\n◇ Test run started.\n✘ Test run with 1 test failed after 0.1 seconds with 1 issue.", 1),
      build: ("Build complete!", 0))
    #expect(result.compiled)
    #expect(calls.first?.hasPrefix("test --scratch-path") == true, "the first call should build and test: \(calls)")
    #expect(!calls.contains { $0.hasPrefix("build") }, "no separate build should run: \(calls)")
  }

  @Test("a mutant that does not compile is built on its own and reported as not compiling")
  func aSeparateBuildWhenTheTestsNeverStarted() throws {
    let error = "/w/.mutant/Sync/Outbox.swift:3:1: error: expected declaration"
    let (result, calls) = try Self.grade(test: (error, 1), build: (error, 1))
    #expect(!result.compiled)
    #expect(calls.map { $0.split(separator: " ").first ?? "" } == ["test", "build"], "calls: \(calls)")
  }

  static let killers = TestSelection(module: "Counters", names: ["countsOne"])!

  @Test("a mutant's killers are built and run by one command with their filter")
  func theKillersRunWithTheirFilter() throws {
    let (result, calls) = try Self.grade(
      test: ("Build complete!\n◇ Test run started.\n✘ Test run with 1 test failed after 0.1 seconds with 1 issue.", 1),
      build: ("Build complete!", 0), selection: Self.killers)
    #expect(result.compiled)
    #expect(calls.first?.hasPrefix("test --scratch-path") == true, "calls: \(calls)")
    #expect(calls.first?.contains("--filter \(Self.killers.filter())") == true, "calls: \(calls)")
    #expect(!calls.contains { $0.hasPrefix("build") }, "no separate build should run: \(calls)")
  }

  @Test("killers that match no test leave a result with no test run and no crash: no kill")
  func killersMatchingNothingAreNoKill() throws {
    let (result, _) = try Self.grade(
      test: ("Build complete!\n◇ Test run started.\n✔ Test run with 0 tests passed after 0.001 seconds.", 0),
      build: ("Build complete!", 0), selection: Self.killers)
    #expect(result.compiled)
    #expect(result.crash == nil)
    #expect(result.exercises.allSatisfy { $0.total == 0 })
    #expect(!KillersFirst.killed(result))
  }

  @Test("the whole suite after the killers only runs the tests, on the build already made")
  func theWholeSuiteSkipsTheBuild() throws {
    let (_, calls) = try Self.grade(
      test: ("◇ Test run started.\n✘ Test run with 1 test failed after 0.1 seconds with 1 issue.", 1),
      build: ("Build complete!", 0), built: true)
    #expect(calls.allSatisfy { $0.hasPrefix("test --skip-build") }, "calls: \(calls)")
    #expect(calls.first?.contains("--filter") == false, "calls: \(calls)")
  }

  @Test("only Swift Testing's count of 0 tests says a filtered run ran none, not XCTest's note")
  func aRunOfNoTestIsSwiftTestingsZero() {
    #expect(Grader.ranNoTest("warning: No matching test cases were run\n✔ Test run with 0 tests in 0 suites passed after 0.001 seconds."))
    #expect(!Grader.ranNoTest("warning: No matching test cases were run\n✘ Test run with 2 tests in 1 suite failed after 0.1 seconds with 2 issues."))
  }
}
