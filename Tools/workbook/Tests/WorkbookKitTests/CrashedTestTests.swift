import Foundation
import Testing

@testable import WorkbookKit

/// A crash is blamed on the test whose lines are in the crashed thread's stack, not on whatever
/// tests had started, and the exercise keeps its real count of tests. Recorded on Linux (Swift
/// 6.3.1) from chapter 4 with the reference `MemoryCache` changed to call the cost function
/// inside its lock: `costRunsOutsideTheLock` reads the cache from the cost function, and the
/// process stops with "Recursive call to lock Mutex". Fixtures: the whole run's output, the run
/// of exercise 2 alone, and the test file as it was then.
@Suite("crashes: the test that crashed")
struct CrashedTestTests {
  static let testFile = "Tests/ImageCacheTests/Exercise2_MemoryCacheTests.swift"

  /// Chapter 4 with exercises 1 and 2, the recorded test file of exercise 2, and a `swift`
  /// stand-in: the whole run and exercise 2's run print the recordings; exercise 1's passes.
  static func workbook() throws -> ScratchWorkbook {
    let workbook = try ScratchWorkbook(chapter7: false)
    try workbook.write(
      "Chapters/04-image-cache/exercises.json",
      """
      { "chapter": 4, "title": "Two-tier image cache", "module": "ImageCache", "level": "advanced",
        "exercises": [
          { "number": 1, "title": "Image values from headers", "files": ["ImageDecoding.swift"] },
          { "number": 2, "title": "An LRU memory cache", "files": ["MemoryCache.swift"] } ] }
      """)
    try workbook.write(testFile, try MacOSTests.fixture("Exercise2_MemoryCacheTests.swift.txt"))
    try workbook.write("Sources/ImageCache/MemoryCache.swift", "// Exercise 2 — An LRU memory cache (advanced)\n")
    try workbook.write("stand-in/whole.txt", try MacOSTests.fixture("linux-crash-whole-run.txt"))
    try workbook.write("stand-in/exercise-2.txt", try MacOSTests.fixture("linux-crash-exercise-2.txt"))
    try workbook.write(
      "stand-in/swift",
      """
      #!/bin/sh
      here="$(dirname "$0")"
      report=".build/grade/ch4-starter/results-swift-testing.xml"
      case "$1 $*" in
        build*) echo "Build complete!"; exit 0 ;;
        *Exercise2_*) cat "$here/exercise-2.txt"; exit 1 ;;
        *Exercise1_*)
          printf '%s\\n' '<testsuites><testsuite name="TestResults">' \\
            '<testcase classname="ImageCacheTests.Exercise1_ImageDecodingTests" name="decodesPNG()" />' \\
            '</testsuite></testsuites>' > "$report"
          exit 0 ;;
        test*) cat "$here/whole.txt"; exit 1 ;;
      esac
      exit 2
      """)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: "\(workbook.root)/stand-in/swift")
    try FileManager.default.createDirectory(
      atPath: "\(workbook.root)/.build/grade/ch4-starter", withIntermediateDirectories: true)
    return workbook
  }

  @Test("the @Test functions of a test file, with their names as xUnit writes them and their lines")
  func testFunctions() throws {
    let functions = TestSource.functions(
      in: try MacOSTests.fixture("Exercise2_MemoryCacheTests.swift.txt"), suite: "Exercise2_MemoryCacheTests")
    #expect(functions.count == 10, "ten tests, as the xUnit report counts them: \(functions.map(\.name))")
    #expect(functions.first?.name == "storesReadsAndRemoves()", "`@Test func …` on one line")
    #expect(functions.first?.consoleName == "storesReadsAndRemoves()")
    let model = try #require(functions.first { $0.name == "modelBased(seed:)" })
    #expect(model.consoleName == "\"model-based: 2,000 random operations × 5 seeds agree with a simple LRU model\"")
    let cost = try #require(functions.first { $0.name == "costRunsOutsideTheLock()" })
    #expect(cost.lines == 193...208)
    #expect(!functions.contains { $0.name.hasPrefix("makeCache") }, "a helper is no test")
  }

  @Test("the stack, not the tests still running, names the test that crashed")
  func blame() throws {
    let workbook = try Self.workbook()
    let chapter = try Catalog.load(root: workbook.root).chapter(4)
    let output = try MacOSTests.fixture("linux-crash-whole-run.txt")
    // The old guess, the tests that had started and not finished, misses the one that crashed.
    #expect(!Grader.runningNote(output).contains("the cost function runs outside the lock"))
    let culprit = try #require(Grader.crashedTest(output, chapter, root: workbook.root))
    #expect(culprit.exercise == 2)
    #expect(culprit.function.name == "costRunsOutsideTheLock()")
    #expect(culprit.location == "\(Self.testFile):200", "the innermost frame in a test file")
    #expect(culprit.note == ", in `costRunsOutsideTheLock` (\(Self.testFile):200)")
    // Issues recorded before the crash name test files too, but no frame of the crash.
    #expect(Grader.crashedTest("✘ Test x() recorded an issue at Exercise2_MemoryCacheTests.swift:200:4: no", chapter, root: workbook.root) == nil)
  }

  @Test("through a grading run: the crash names the test, and exercise 2 keeps its ten tests")
  func throughTheGrader() throws {
    let workbook = try Self.workbook()
    let chapter = try Catalog.load(root: workbook.root).chapter(4)
    let result = try #require(
      try Grader.grade([chapter], Variant(), root: workbook.root, swift: "\(workbook.root)/stand-in/swift").first)
    let crash = try #require(result.crash)
    #expect(crash.hasPrefix("the test process crashed, in `costRunsOutsideTheLock` (\(Self.testFile):200):"))
    #expect(!crash.contains("seed → "))

    #expect(result.exercises[0].solved, "exercise 1, graded alone, passes")
    let exercise = result.exercises[1]
    #expect(exercise.total == 10, "the suite's ten tests, not one stand-in for the whole exercise")
    #expect(exercise.passed == 1, "the test that passed before the crash still counts")
    #expect(!exercise.notStarted)
    let crashed = exercise.failures.filter { $0.crashed == true }
    #expect(crashed.map(\.name) == ["costRunsOutsideTheLock()"])
    let message = try #require(crashed.first?.failure)
    #expect(message.contains("in this exercise's tests, in `costRunsOutsideTheLock` (\(Self.testFile):200)"))
    #expect(message.contains("Recursive call to lock Mutex"))
    #expect(message.contains("took a lock it already held"))
    #expect(
      exercise.failures.contains {
        $0.name == "modelBased(seed:)" && $0.failure == "did not finish: the test process crashed in `costRunsOutsideTheLock` first"
      })

    // The crashed test is the first failure shown, so the hint is the paragraph that names it.
    let ordered = GradeCommand.orderedFailures(exercise, order: declarationOrder(chapter, root: workbook.root))
    #expect(ordered.first?.name == "costRunsOutsideTheLock()")
    let hint = """
      Keep the state in one `Mutex`.

      The cost function is the app's code: call it before `withLock` (`costRunsOutsideTheLock`).
      """
    let paragraph = hintParagraph(
      hint, failing: ordered.first.map { testName($0.name) }, failingNames: Set(ordered.map { testName($0.name) }),
      testNames: ["costRunsOutsideTheLock", "storesReadsAndRemoves"])
    #expect(paragraph.hasPrefix("The cost function is the app's code"))
  }

  @Test("console outcomes of the tests that finished before a crash")
  func finished() {
    let output = """
      ✘ Test "a" recorded an issue at Exercise2_XTests.swift:10:4: Expectation failed: 1 == 2
      ✘ Test "a" failed after 0.1 seconds with 1 issue.
      ✔ Test b() passed after 0.1 seconds.
      ✔ Test case passing 1 argument seed → 1 to "c" passed after 0.1 seconds.
      """
    let outcomes = Grader.finishedTests(output)
    #expect(outcomes["\"a\""] == .some("Expectation failed: 1 == 2"))
    #expect(outcomes["b()"] == .some(nil))
    #expect(outcomes["\"c\""] == nil)
  }
}
