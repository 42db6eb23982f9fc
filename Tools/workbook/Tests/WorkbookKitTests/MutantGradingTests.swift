import Foundation
import Testing

@testable import WorkbookKit

/// How the grader runs a mutant: one `swift test` that builds and tests, and the build on its own
/// only when that command's tests never started, so a mutant that does not compile still says so.
@Suite("Grading a mutant")
struct MutantGradingTests {
  /// Grades chapter 7's mutant with a `swift` stand-in that logs each call's arguments and prints
  /// `test` for `swift test` (exiting with `status`) and `build` for `swift build`.
  static func grade(test: (String, Int32), build: (String, Int32)) throws -> (result: ChapterResult, calls: [String]) {
    let workbook = try ScratchWorkbook()
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    var variant = Variant(answers: [7])
    variant.mutant = 7
    try workbook.write("stand-in/test.txt", test.0)
    try workbook.write("stand-in/build.txt", build.0)
    try workbook.write(
      "stand-in/swift",
      """
      #!/bin/sh
      here="$(dirname "$0")"
      echo "$*" >> "$here/calls.txt"
      case "$1" in
        build) cat "$here/build.txt"; exit \(build.1) ;;
        test) cat "$here/test.txt"; exit \(test.1) ;;
      esac
      exit 2
      """)
    let swift = "\(workbook.root)/stand-in/swift"
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift)
    try FileManager.default.createDirectory(
      atPath: "\(workbook.root)/\(Grader.scratchPath([chapter], variant))", withIntermediateDirectories: true)
    let result = try #require(try Grader.grade([chapter], variant, root: workbook.root, swift: swift, buildSystem: []).first)
    let calls = try String(contentsOfFile: "\(workbook.root)/stand-in/calls.txt", encoding: .utf8)
    return (result, calls.split(separator: "\n").map(String.init))
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
