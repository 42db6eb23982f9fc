import Foundation
import Testing

@testable import WorkbookKit

/// How the grader runs a mutant: one `swift test` that builds and tests, and the build on its own
/// only when that command's tests never started, so a mutant that does not compile still says so.
@Suite("Grading a mutant")
struct MutantGradingTests {
  /// Grades chapter 7's mutant with `StandInSwift`, which prints `test` and `build`.
  static func grade(test: (String, Int32), build: (String, Int32)) throws -> (result: ChapterResult, calls: [String]) {
    let workbook = try ScratchWorkbook()
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    var variant = Variant(answers: [7])
    variant.mutant = 7
    let swift = try StandInSwift.write(in: workbook, build: build, test: test)
    try FileManager.default.createDirectory(
      atPath: "\(workbook.root)/\(Grader.scratchPath([chapter], variant))", withIntermediateDirectories: true)
    let result = try #require(try Grader.grade([chapter], variant, root: workbook.root, swift: swift, buildSystem: []).first)
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
}
