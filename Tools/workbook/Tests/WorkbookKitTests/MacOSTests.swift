import Foundation
import Testing

@testable import WorkbookKit

/// What the grader reads on a Mac, tested here on any system: each test feeds the grader output
/// recorded in the form Xcode's toolchain and SwiftPM print on macOS (Fixtures/macos-*.txt), either
/// to the parser that reads it or, through a stand-in `swift` command, to a whole grading run.
@Suite("macOS output")
struct MacOSTests {
  static func fixture(_ name: String) throws -> String {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
    return try String(contentsOf: url, encoding: .utf8)
  }

  /// Grades chapter 7 with `StandInSwift`, which prints `build` and `test`. The scratch folder
  /// exists, so the grader does not announce a first build.
  static func grade(
    _ workbook: ScratchWorkbook, _ variant: Variant = Variant(), build: (String, Int32) = ("Build complete!", 0),
    test: (String, Int32)
  ) throws -> ChapterResult {
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    let swift = try StandInSwift.write(in: workbook, build: build, test: test)
    try FileManager.default.createDirectory(
      atPath: "\(workbook.root)/\(Grader.scratchPath([chapter], variant))", withIntermediateDirectories: true)
    return try #require(try Grader.grade([chapter], variant, root: workbook.root, swift: swift).first)
  }

  // MARK: - Setup

  /// The Command Line Tools' failures: the version 16 tools' and the version 26 tools' (`no such
  /// module 'Testing'`), and the version 27 tools', whose SwiftPM builds with Swift Build and finds
  /// the module but not its macros (`plugin for module 'TestingMacros' not found`).
  @Test(
    "only the Command Line Tools selected: the fix is xcode-select, not a compile error",
    arguments: ["macos-command-line-tools.txt", "macos-command-line-tools-26.txt", "macos-command-line-tools-27.txt"])
  func commandLineToolsOnly(fixture: String) throws {
    let output = try Self.fixture(fixture)
    #expect(SetupProblem.diagnose(output, onMac: true) == .commandLineToolsOnly)
    #expect(SetupProblem.commandLineToolsOnly.description.contains(SetupProblem.selectXcode))
    #expect(SetupProblem.commandLineToolsOnly.description.contains("Xcode 26 or later"))
    #expect(SetupProblem.commandLineToolsOnly.description.contains("Xcode 27 ships Swift 6.4"))
    #expect(SetupProblem.selectXcode == "sudo xcode-select -s /Applications/Xcode.app/Contents/Developer")
    // The same message off a Mac is a toolchain without Swift Testing.
    #expect(SetupProblem.diagnose(output, onMac: false) == .noSwiftTesting)

    let workbook = try ScratchWorkbook()
    #expect(throws: SetupProblem.self) { try Self.grade(workbook, build: (output, 1), test: ("", 0)) }
  }

  @Test("importing Testing in the learner's own file is their compile error, not the setup")
  func learnersOwnImport() {
    let output = """
      /Users/ada/Code/ios-systems-workbook/Sources/DataStore/DataStore.swift:3:8: error: no such module 'Testing'
      error: emit-module command failed with exit code 1 (use -v to see invocation)
      """
    #expect(SetupProblem.diagnose(output, onMac: true) == nil)
    #expect(SetupProblem.diagnose("Sources/DataStore/DataStore.swift:4:1: error: expected declaration") == nil)
  }

  @Test("macOS 14: the test bundle cannot load Synchronization, and macOS 15 is required")
  func macOSTooOld() throws {
    let output = try Self.fixture("macos-14-synchronization.txt")
    #expect(SetupProblem.diagnose(output, onMac: true) == .macOSTooOld)
    #expect(SetupProblem.macOSTooOld.description.contains("macOS 15 or later is required"))

    let workbook = try ScratchWorkbook()
    do {
      _ = try Self.grade(workbook, test: (output, 1))
      Issue.record("grading on macOS 14 should stop with the setup problem, not a crash report")
    } catch let problem as SetupProblem {
      #expect(problem == .macOSTooOld)
    }
  }

  @Test("a toolchain older than the manifest: one line that names the Swift needed and how to check")
  func toolchainTooOld() throws {
    let output = try Self.fixture("macos-swift-6.1-tools-version.txt")
    let problem = try #require(SetupProblem.diagnose(output, onMac: true))
    #expect(problem == .toolchainTooOld(required: "6.2.0", installed: "6.1.0"))
    #expect(SetupProblem.diagnose(output, onMac: false) == problem)
    let message = problem.description
    #expect(!message.contains("\n"), "one line")
    #expect(message.hasPrefix("The workbook needs Swift 6.2 or later (Xcode 26 or later; Xcode 27 ships Swift 6.4), and this toolchain is Swift 6.1:"))
    #expect(message.contains("`swift --version`") && message.contains("`xcode-select -p`"))

    let workbook = try ScratchWorkbook()
    do {
      _ = try Self.grade(workbook, build: (output, 1), test: ("", 0))
      Issue.record("grading with an old toolchain should stop with the setup problem, not a compile error")
    } catch let problem as SetupProblem {
      #expect(problem == .toolchainTooOld(required: "6.2.0", installed: "6.1.0"))
    }
  }

  // MARK: - Crashes

  @Test("signal 4 or 5 is a trap; 11 is a bad pointer; the signal line is shown when nothing else is")
  func signals() throws {
    let trap = try Self.fixture("macos-signal-trap.txt")
    #expect(Grader.crashed(trap))
    #expect(Grader.exitSignal(trap) == 5)
    #expect(Grader.crashAdvice(trap).contains("Swift stopped the program on purpose"))
    #expect(Grader.crashAdvice(trap).contains("not a likely data race"))
    #expect(Grader.crashAdvice(trap, onMac: true).contains("Crash Reports"))
    #expect(!Grader.crashAdvice(trap, onMac: false).contains("Crash Reports"))
    #expect(Grader.runningNote(trap) == ", while running \"concurrent transfers keep the total\"")
    #expect(Grader.crashAdvice("error: Exited with unexpected signal code 4").contains("on purpose"))
    #expect(Grader.exitSignal("Process 'x.xctest' exited with unexpected signal code 11") == 11)

    let segv = try Self.fixture("macos-signal-segv.txt")
    #expect(Grader.crashed(segv))
    #expect(Grader.crashAdvice(segv).contains("often a data race"))
    #expect(crashSummary(segv).contains("error: Exited with unexpected signal code 11"))
  }

  @Test("a lock taken twice, as macOS and Linux report it")
  func recursiveLock() throws {
    for name in ["macos-recursive-lock.txt", "linux-recursive-lock.txt"] {
      let output = try Self.fixture(name)
      #expect(Grader.crashed(output), "\(name)")
      #expect(Grader.crashAdvice(output).contains("took a lock it already held"), "\(name)")
    }
    #expect(crashSummary(try Self.fixture("macos-recursive-lock.txt")).contains("Trying to recursively lock"))
  }

  @Test("a trap on macOS, through a grading run: each exercise alone, with what a trap means")
  func trapThroughTheGrader() throws {
    let workbook = try ScratchWorkbook()
    let result = try Self.grade(workbook, test: (try Self.fixture("macos-signal-trap.txt"), 1))
    #expect(result.compiled)
    #expect(result.crash?.hasPrefix("the test process crashed:") == true)
    for exercise in result.exercises {
      let failure = try #require(exercise.failures.first?.failure)
      #expect(failure.contains("while running \"concurrent transfers keep the total\""))
      #expect(failure.contains("Swift stopped the program on purpose"))
    }
  }

  // MARK: - Thread sanitizer

  @Test("a macOS sanitizer report names files alone: they are found among the chapter's files")
  func macOSRace() throws {
    let output = try Self.fixture("macos-tsan-race.txt")
    #expect(Grader.raced(output))
    let files = ["Sources/DataStore/DataStore.swift", "Sources/DataStore/LockedStore.swift"]
    let summary = crashSummary(output, codeFiles: files)
    #expect(summary.contains("WARNING: ThreadSanitizer: Swift access race"))
    #expect(summary.contains("at Sources/DataStore/LockedStore.swift:42"))
    #expect(summary.contains("at Sources/DataStore/LockedStore.swift:31"))
    #expect(!summary.contains("Exercise3_LockedStoreTests.swift"), "the tests' own frames are not the learner's lines")
  }

  @Test("the two lines that raced, through a grading run, in the code that was graded")
  func raceThroughTheGrader() throws {
    let report = """
      WARNING: ThreadSanitizer: Swift access race (pid=52718)
        Modifying access of Swift variable at 0x00010a2f4c90 by thread T3:
          #0 Counter.increment() Counter.swift:12 (iOSSystemsWorkbookPackageTests:arm64+0x3d9c4)
        Previous read of size 8 at 0x00010a2f4c90 by thread T5:
          #0 Pair.total() Pair.swift:7 (iOSSystemsWorkbookPackageTests:arm64+0x3d7a0)
      SUMMARY: ThreadSanitizer: Swift access race Counter.swift:12 in Counter.increment()
      """
    let workbook = try ScratchWorkbook()
    var variant = Variant()
    variant.sanitize = true
    let starter = try Self.grade(workbook, variant, test: (report, 1))
    #expect(starter.crash?.contains("at Sources/Counters/Counter.swift:12") == true)
    #expect(starter.crash?.contains("at Sources/Counters/Pair.swift:7") == true)
    variant.answers = [7]
    let answers = try Self.grade(workbook, variant, test: (report, 1))
    #expect(answers.crash?.contains("at answers/Counters/Counter.swift:12") == true)
  }

  @Test("the suppressions are Linux's only, and their path is quoted for a folder with spaces")
  func sanitizerOptions() throws {
    let workbook = try ScratchWorkbook()
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    var variant = Variant()
    variant.sanitize = true
    let linux = variant.environment(for: [chapter], root: "/Users/ada/My Workbook", linux: true)
    #expect(linux["TSAN_OPTIONS"] == "suppressions='/Users/ada/My Workbook/Tools/tsan-suppressions.txt' halt_on_error=1")
    let mac = variant.environment(for: [chapter], root: "/Users/ada/My Workbook", linux: false)
    #expect(mac["TSAN_OPTIONS"] == "halt_on_error=1")
    #expect(Variant.sanitizerOptions(suppressions: "/tmp/ada's/s.txt", haltOnError: false) == "suppressions=\"/tmp/ada's/s.txt\" halt_on_error=0")
    #expect(Variant().environment(for: [chapter], linux: true)["TSAN_OPTIONS"] == nil)
  }

  @Test("test runs turn Swift's backtracer on, unless the learner set it")
  func backtracer() throws {
    let workbook = try ScratchWorkbook()
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    let tests = Variant().testEnvironment(for: [chapter], linux: false, inherited: [:])
    #expect(tests["SWIFT_BACKTRACE"]?.hasPrefix("enable=yes,interactive=no") == true)
    #expect(Variant().environment(for: [chapter], linux: false)["SWIFT_BACKTRACE"] == nil, "the build is left alone")
    let own = Variant().testEnvironment(for: [chapter], linux: false, inherited: ["SWIFT_BACKTRACE": "enable=no"])
    #expect(own["SWIFT_BACKTRACE"] == nil, "the learner's own setting is inherited as it is")
  }
}
