import Foundation
import Testing

@testable import WorkbookKit

/// How the grader runs a mutant: one `swift test` that builds and tests, and the build on its own
/// only when that command's tests never started, so a mutant that does not compile still says so.
@Suite("Grading a mutant")
struct MutantGradingTests {
  /// Grades chapter 7's mutant with `StandInSwift`, which prints `test` and `build`.
  static func grade(
    test: (String, Int32), build: (String, Int32), tests: [String] = []
  ) throws -> (result: ChapterResult, calls: [String]) {
    let workbook = try ScratchWorkbook()
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    var variant = Variant(answers: [7])
    variant.mutant = 7
    let swift = try StandInSwift.write(in: workbook, build: build, test: test)
    try FileManager.default.createDirectory(
      atPath: "\(workbook.root)/\(Grader.scratchPath([chapter], variant))", withIntermediateDirectories: true)
    let result = try #require(
      try Grader.grade([chapter], variant, root: workbook.root, swift: swift, buildSystem: [], tests: tests).first)
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

  @Test("a mutant run on its recorded killers asks swift test for those test functions alone")
  func recordedKillersAreTheFilter() throws {
    let (_, calls) = try Self.grade(
      test: ("Build complete!\n◇ Test run started.\n✘ Test run with 1 test failed after 0.1 seconds with 1 issue.", 1),
      build: ("Build complete!", 0), tests: ["startsAtZero", "countsOne"])
    #expect(
      calls.first?.contains(#"--filter /(countsOne|startsAtZero)\("#) == true,
      "the run should be filtered to the two functions: \(calls)")
  }

  @Test("the recorded killers of a mutant are the ones its row names that the chapter's tests still define")
  func recordedKillersAreReadFromTheRecord() throws {
    let workbook = try ScratchWorkbook()
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    try workbook.write(
      MutantCitations.killersFile(chapter),
      "chapter\tmutant\tname\tkillers\n7\t1\t01-off-by-one\tcountsOne renamedSinceTheRun startsAtZero\n")
    #expect(
      MutantsCommand.recordedKillers(chapter, number: 1, name: "01-off-by-one", root: workbook.root)
        == ["countsOne", "startsAtZero"])
    #expect(
      MutantsCommand.recordedKillers(chapter, number: 1, name: "01-renamed-mutant", root: workbook.root).isEmpty,
      "a row for another mutant of that number is no record of this one")
    #expect(MutantsCommand.recordedKillers(chapter, number: 2, name: "02-other", root: workbook.root).isEmpty)
  }
}

/// How the grader tells a mutant's build from a stale one.
@Suite("A mutant's build")
struct MutantBuildTests {
  @Test("a native build compiled the mutant's file only when one of its steps names it")
  func aStepMustNameTheFile() {
    let compiled = "[0/1] Planning build\n[4/13] Compiling DataStore DataStore+Update.swift\nBuild complete! (1.2s)"
    let stale = "[0/1] Planning build\n[1/2] Linking iOSSystemsWorkbookPackageTests.xctest\nBuild complete! (0.4s)"
    #expect(Grader.compiled("DataStore+Update.swift", in: compiled))
    #expect(!Grader.compiled("DataStore+Update.swift", in: stale))
    #expect(!Grader.compiled("Update.swift", in: compiled), "a file whose name only ends the same is another file")
  }

  @Test("an engine that lists no steps (Swift Build) is taken at its word")
  func noStepsNoCheck() {
    #expect(
      Grader.compiled(
        "DataStore+Update.swift", in: "Building for debugging...\n[22/100] DataStore 2 / 9\n[100/100] \nBuild complete! (1.77 secs)"))
  }
}
