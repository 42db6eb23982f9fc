import Foundation

enum Grader {
  static var testTimeout: TimeInterval {
    TimeInterval(ProcessInfo.processInfo.environment["WORKBOOK_TEST_TIMEOUT"] ?? "") ?? 300
  }
  static var verbose: Bool { ProcessInfo.processInfo.environment["VERBOSE"] == "1" }

  static func scratchPath(_ chapters: [Chapter], _ variant: Variant) -> String {
    let names = chapters.count > 1 ? "all" : "ch\(chapters[0].number)"
    return ".build/grade/\(names)-\(variant.label(for: chapters))" + (variant.sanitize ? "-tsan" : "")
  }

  /// Builds and tests `chapters` in one package graph and sorts every test into its exercise.
  /// `root` is the workbook's folder; `swift` the command that builds and tests (a test passes a
  /// stand-in that prints recorded output), and `buildSystem` the arguments that pick its engine
  /// (`BuildSystem`). `tests`, when not empty, names the only test functions to run (`make
  /// mutants` runs a mistake's recorded killers first). `mutatedFile`, for a mutant, names the
  /// file it changed, which the build must be seen compiling (`StaleMutantBuild`). A broken setup
  /// throws a `SetupProblem`.
  static func grade(
    _ chapters: [Chapter], _ variant: Variant, root: String = ".", swift: String = "swift",
    buildSystem: [String] = BuildSystem.arguments(), tests: [String] = [], mutatedFile: String? = nil
  ) throws -> [ChapterResult] {
    let only = testFilter(tests)
    let scratch = scratchPath(chapters, variant)
    let here = FileManager.default.currentDirectoryPath
    let absoluteRoot = root == "." ? here : (root.hasPrefix("/") ? root : "\(here)/\(root)")
    let directory = root == "." ? nil : root
    let environment = variant.environment(for: chapters, root: absoluteRoot)
    let testEnvironment = variant.testEnvironment(for: chapters, root: absoluteRoot)
    let codeFiles = Self.codeFiles(chapters, variant, root: root)
    var results = chapters.map { chapter in
      ChapterResult(
        chapter: chapter.number, variant: variant,
        exercises: chapter.exercises.map { ExerciseResult(number: $0.number, title: $0.title) })
    }

    if !FileManager.default.fileExists(atPath: path(scratch, in: root)) && variant.mutant == nil {
      print(Style.dim("  Building for the first time: this takes about a minute; later runs take seconds."))
    }
    let report = "\(scratch)/results.xml"
    let swiftTestingReport = path("\(scratch)/results-swift-testing.xml", in: root)
    try? FileManager.default.removeItem(atPath: swiftTestingReport)
    // A mutant is built and tested by one command, which loads the package once instead of twice
    // (`make mutants` runs hundreds). When its tests never started (it did not compile, or the
    // build ran out of time), the build runs on its own, as for any other code, to say why.
    var builtAndTested: CommandResult?
    if variant.mutant != nil {
      let command =
        [swift, "test", "--scratch-path", scratch, "--xunit-output", report] + only + buildSystem + variant.swiftFlags
      // Whether a run got as far as its tests: it wrote a report, or its tests started.
      func testsRan(_ run: CommandResult) -> Bool {
        (readXUnit(swiftTestingReport).map { !$0.isEmpty } ?? false) || run.output.contains("Test run started")
      }
      var run = try runCommand(command, environment: testEnvironment, timeout: testTimeout, echo: verbose, in: directory)
      // A mutant's tests must run on a build of that mutant. A build that did not compile its
      // file ran the last mutant's binary (seen in clean-clone runs, a few mutants in a hundred,
      // each one after another mutant of the same module): the sources are dated now and it
      // runs once more, and a second miss is an error rather than a verdict.
      if let mutatedFile, testsRan(run), !Self.compiled(mutatedFile, in: run.output) {
        for chapter in chapters { touchSources(path(".mutant/\(chapter.module)", in: root)) }
        try? FileManager.default.removeItem(atPath: swiftTestingReport)
        run = try runCommand(command, environment: testEnvironment, timeout: testTimeout, echo: verbose, in: directory)
        if testsRan(run), !Self.compiled(mutatedFile, in: run.output) { throw StaleMutantBuild(file: mutatedFile) }
        print(Style.dim("  (built again: the first build of this mutant had not compiled \(mutatedFile))"))
      }
      if testsRan(run) { builtAndTested = run }
    }

    var buildOutput = builtAndTested?.output ?? ""
    if builtAndTested == nil {
      let buildCommand = [swift, "build"] + buildSystem + ["--build-tests", "--scratch-path", scratch] + variant.swiftFlags
      var build = try runCommand(buildCommand, environment: environment, timeout: 1_800, echo: verbose, in: directory)
      if !build.succeeded && buildEngineCrashed(build.output) {
        build = try runCommand(buildCommand, environment: environment, timeout: 1_800, echo: verbose, in: directory)
      }
      guard build.succeeded else {
        if let problem = SetupProblem.diagnose(build.output) { throw problem }
        reportCompileErrors(build.output)
        return results
      }
      buildOutput = build.output
    }
    for index in results.indices { results[index].compiled = true }
    let warnings = learnerWarnings(buildOutput, chapters)
    if !warnings.isEmpty {
      print(Style.yellow("\(warnings.count) compiler warning\(warnings.count == 1 ? "" : "s") in your code:"))
      for warning in warnings.prefix(5) { print("  " + warning) }
    }

    let test =
      try builtAndTested
      ?? runCommand(
        [
          swift, "test", "--skip-build", "--scratch-path", scratch, "--xunit-output", report,
        ] + only + buildSystem + variant.swiftFlags, environment: testEnvironment, timeout: testTimeout, echo: verbose,
        in: directory)
    if !test.succeeded, let problem = SetupProblem.diagnose(test.output) { throw problem }

    var cases: [TestCase]
    if let parsed = readXUnit(swiftTestingReport), !parsed.isEmpty, !test.timedOut, !crashed(test.output) {
      cases = parsed
    } else {
      // The process crashed or hung: grade each exercise on its own so one crash does not hide
      // the state of the others.
      let why = test.timedOut ? "the tests did not finish in \(Int(testTimeout)) s" : stopReason(test.output)
      cases = []
      for (index, chapter) in chapters.enumerated() {
        let culprit = test.timedOut ? nil : crashedTest(test.output, chapter, root: root)
        results[index].crash =
          "\(why)\(culprit?.note ?? ""):\n"
          + (test.timedOut ? lastLines(test.output, 6) : crashSummary(test.output, codeFiles: codeFiles))
        for exercise in chapter.exercises {
          let filter = "\(chapter.module)Tests.Exercise\(exercise.number)_"
          let single = try runCommand(
            [
              swift, "test", "--skip-build", "--scratch-path", scratch, "--filter", filter,
              "--xunit-output", report,
            ] + buildSystem + variant.swiftFlags, environment: testEnvironment, timeout: testTimeout, in: directory)
          if let parsed = readXUnit(swiftTestingReport), !parsed.isEmpty, !single.timedOut, !crashed(single.output) {
            cases += parsed.filter { $0.exercise == exercise.number && $0.module == chapter.module }
          } else {
            // The stack names the test that crashed; the tests still running when it stopped are
            // only a guess (with tests in parallel, many are).
            let culprit = single.timedOut ? nil : crashedTest(single.output, chapter, root: root)
            let message =
              single.timedOut
              ? "this exercise's tests did not finish (a deadlock, or a continuation never resumed?)"
              : "\(stopReason(single.output)) in this exercise's tests\(culprit?.note ?? runningNote(single.output)):\n"
                + crashSummary(single.output, codeFiles: codeFiles)
                + (raced(single.output) ? "" : crashAdvice(single.output))
            let functions = TestSource.functions(chapter, exercise: exercise.number, root: root)
            if let culprit, culprit.exercise == exercise.number, functions.contains(culprit.function) {
              cases += casesAfterCrash(
                functions, module: chapter.module, crashed: culprit, message: message, output: single.output)
              continue
            }
            cases.append(
              TestCase(
                suite: "\(chapter.module)Tests.Exercise\(exercise.number)_", name: TestCase.wholeExercise,
                failure: message))
          }
        }
      }
    }

    for (index, chapter) in chapters.enumerated() {
      for test in cases where test.module == chapter.module {
        guard let number = test.exercise,
          let slot = results[index].exercises.firstIndex(where: { $0.number == number })
        else { continue }
        if test.failure == nil {
          results[index].exercises[slot].passed += 1
          if test.skipped == true { results[index].exercises[slot].skipped = (results[index].exercises[slot].skipped ?? []) + [test.name] }
        } else {
          results[index].exercises[slot].failures.append(test)
        }
      }
    }
    return results
  }

  /// Whether a build's output shows `file` (a file name) being compiled, as SwiftPM's native
  /// engine lists each step (`[0/1] Planning build`, `[4/13] Compiling DataStore DataStore.swift`).
  /// Swift Build names no step unless asked to be verbose (`[22/100] DataStore 2 / 9`): an output
  /// without a named step is taken as compiled.
  static func compiled(_ file: String, in output: String) -> Bool {
    let name = (file as NSString).lastPathComponent
    let step = #"^\[\d+/\d+\] (Planning build|Compiling |Emitting module |Linking )"#
    let steps = output.components(separatedBy: "\n").filter { $0.range(of: step, options: .regularExpression) != nil }
    return steps.isEmpty
      || steps.contains { $0.contains(" Compiling ") && $0.components(separatedBy: CharacterSet(charactersIn: " ,")).contains(name) }
  }

  /// Dates every file under `folder` now, so that a build sees each of them changed.
  static func touchSources(_ folder: String) {
    let manager = FileManager.default
    for item in (try? manager.subpathsOfDirectory(atPath: folder)) ?? [] {
      try? manager.setAttributes([.modificationDate: Date()], ofItemAtPath: "\(folder)/\(item)")
    }
  }

  /// The `swift test` arguments that run only the test functions named (Swift Testing matches the
  /// pattern against `Module.Suite/function(labels:)`); none when no name is given.
  static func testFilter(_ names: [String]) -> [String] {
    names.isEmpty ? [] : ["--filter", "/(\(names.sorted().joined(separator: "|")))\\("]
  }

  /// Whether SwiftPM's build engine itself crashed, which says nothing of the code it built: Swift
  /// Build as Swift 6.3.1 ships it was seen to crash now and then while planning a build (a bad
  /// pointer in the Regex parser under `discoveredSwiftCompilerInfo`), and the same build then
  /// succeeded. Its backtrace's frames are in `swift-package`; a compiler's or a test's are not.
  /// (`Tools/swiftpm.sh` does the same for make.)
  static func buildEngineCrashed(_ output: String) -> Bool {
    output.contains("*** Program crashed")
      && (output.contains(" in swift-package at ") || output.contains("Thread 0 \"swift-build\""))
  }

  /// Swift Testing writes the start of its report before running, so a crash leaves a report with
  /// no results (or half of them); the console tells a crash for sure. On macOS SwiftPM reports
  /// only the signal ("Exited with unexpected signal code 5") when the backtracer is off.
  static func crashed(_ output: String) -> Bool {
    output.contains("*** Program crashed") || output.contains("Fatal error:") || raced(output)
      || exitSignal(output) != nil || output.contains(macOSRecursiveLock)
  }

  /// Whether the thread sanitizer reported a race (`SANITIZE=1`).
  static func raced(_ output: String) -> Bool {
    output.contains("WARNING: ThreadSanitizer") || output.contains("ThreadSanitizer: reported")
  }

  /// The signal SwiftPM says killed the test process: "error: Exited with unexpected signal code
  /// 11", or "Process '…' exited with unexpected signal code 11".
  static func exitSignal(_ output: String) -> Int32? {
    guard let range = output.range(of: "xited with unexpected signal code ") else { return nil }
    return Int32(output[range.upperBound...].prefix { $0.isNumber })
  }

  /// What macOS prints when a thread locks an `os_unfair_lock` (a `Mutex`) it already holds.
  static let macOSRecursiveLock = "BUG IN CLIENT OF LIBPLATFORM: Trying to recursively lock"

  /// What stopped a test process that did not finish normally.
  static func stopReason(_ output: String) -> String {
    raced(output) ? "the thread sanitizer found a data race" : "the test process crashed"
  }

  /// What a crash most likely was. A trap (illegal instruction, signal 4; a breakpoint trap,
  /// signal 5, on Apple silicon) is Swift stopping on purpose at the line named: an overflow, an
  /// index out of range, a nil force-unwrapped, a lock taken twice. A bad pointer with no message of
  /// the learner's (signal 11 or 10) is most often two threads in one data structure.
  ///
  /// Without the backtracer (`onMac`: it may not run for the test host there) a trap comes with
  /// no line: the advice then points to the tests that were running and to the Mac's crash report.
  static func crashAdvice(_ output: String, onMac: Bool = Platform.isMac) -> String {
    if output.contains("Recursive call to lock") || output.contains(macOSRecursiveLock) {
      return "\n(A thread took a lock it already held: a `withLock` inside another `withLock` of the same "
        + "Mutex, perhaps through a closure or an observer called while the lock is held. Swift stops the "
        + "program there instead of letting it hang.)"
    }
    let signal = exitSignal(output)
    let trapped =
      output.contains("Illegal instruction") || output.contains("Trace/breakpoint trap") || output.contains("Fatal error")
      || signal == SIGILL || signal == SIGTRAP
    let located = output.contains("Fatal error") || output.contains(" at /")
    if trapped && !located {
      return "\n(Swift stopped the program on purpose, in code this exercise's tests run: an arithmetic "
        + "overflow, an index out of range, a force-unwrapped nil or a lock taken twice, not a likely data race."
        + (onMac ? " Console, under Crash Reports, keeps the newest report's stack with your line." : "") + ")"
    }
    if trapped {
      return "\n(Swift stopped the program on purpose at the line above: an arithmetic overflow, an index "
        + "out of range, or a force-unwrapped nil. The test's own message could not be shown: it had not "
        + "been checked yet.)"
    }
    return "\n(A crash with no message of yours, such as a bad pointer, is often a data race: two threads "
      + "changed the same dictionary or array at once. Check that every access to shared state goes "
      + "through its lock, actor or queue.)"
  }

  /// The Swift files of the code a run compiles for `chapters` and the chapters they compose,
  /// relative to the workbook's root: where a stack frame can point to the learner's lines.
  static func codeFiles(_ chapters: [Chapter], _ variant: Variant, root: String = ".") -> [String] {
    let catalog = try? Catalog.load(root: root)
    var graph: [Chapter] = []
    for chapter in chapters + chapters.flatMap({ catalog?.composed(by: $0) ?? [] })
    where !graph.contains(where: { $0.number == chapter.number }) {
      graph.append(chapter)
    }
    return graph.flatMap { chapter -> [String] in
      let folder = variant.codePath(for: chapter)
      let files = (try? FileManager.default.subpathsOfDirectory(atPath: path(folder, in: root))) ?? []
      return files.filter { $0.hasSuffix(".swift") && !Clutter.contains($0) }.sorted().map { "\(folder)/\($0)" }
    }
  }

  /// Names the tests that had started and not ended when the process stopped: one of them did it.
  static func runningNote(_ output: String) -> String {
    var running: [String] = []
    for line in output.components(separatedBy: "\n") {
      // "◇ Test run started." opens every run: the run is no test.
      guard let range = line.range(of: "Test "), !line.hasSuffix("Test run started.") else { continue }
      let rest = line[range.upperBound...]
      if let end = rest.range(of: " started.") {
        running.append(String(rest[..<end.lowerBound]))
      } else if let end = rest.range(of: " passed after") ?? rest.range(of: " failed after") ?? rest.range(of: " skipped") {
        let name = String(rest[..<end.lowerBound])
        running.removeAll { $0 == name }
      }
    }
    guard !running.isEmpty else { return "" }
    return ", while running " + running.suffix(3).joined(separator: ", ")
  }

  /// Warnings in the learner's own files, shown after a successful build: in a concurrency
  /// chapter a Sendable warning is often the bug.
  static func learnerWarnings(_ output: String, _ chapters: [Chapter]) -> [String] {
    var seen = Set<String>()
    return output.components(separatedBy: "\n").filter { line in
      line.contains("warning:") && chapters.contains { line.contains("/\($0.starterPath)/") }
        && !line.hasPrefix(" ") && seen.insert(line).inserted
    }.map(shortened)
  }

  static func reportCompileErrors(_ output: String) {
    for line in compileErrors(output) { print(line) }
  }

  /// What the learner reads when the build fails: each error once, with the excerpt that shows
  /// its line and caret, at most 12 of them.
  static func compileErrors(_ output: String) -> [String] {
    let lines = output.components(separatedBy: "\n")
    // Each error once: the compiler repeats a diagnostic for every job that sees the file, and
    // the lines of a source excerpt ("35 | …", "   | `- error: ...") belong to the error above them.
    var seen = Set<String>()
    let diagnostics = lines.enumerated().filter { _, line in
      line.contains("error:") && !line.hasPrefix(" ") && !DiagnosticExcerpt.isExcerptLine(line)
        && seen.insert(shortened(line)).inserted
    }
    let inFiles = diagnostics.filter { $0.element.contains(".swift:") }
    let errors = inFiles.isEmpty ? diagnostics : inFiles
    var report = [Style.red("\(Style.fail) The code does not compile:")]
    var shown = 0
    for (index, line) in errors where shown < 12 {
      report.append("  " + shortened(line))
      // The compiler prints the source around the error, the caret under it, and the lines its
      // notes point to: the error's own line and caret first.
      for next in DiagnosticExcerpt.excerpt(lines, after: index) {
        report.append("  " + Style.dim(next))
      }
      shown += 1
    }
    if errors.isEmpty { report.append(lastLines(output, 15)) }
    if errors.count > shown { report.append("  … and \(errors.count - shown) more") }
    return report
  }

  static func shortened(_ line: String) -> String {
    let root = FileManager.default.currentDirectoryPath + "/"
    return line.replacingOccurrences(of: root, with: "")
  }
}

/// The lines of a crash report a learner needs: what failed, and where in their code or the tests.
/// `codeFiles` are the graded code's files (`Grader.codeFiles`), to which a sanitizer's frames
/// are matched.
func crashSummary(_ output: String, codeFiles: [String] = []) -> String {
  let lines = output.components(separatedBy: "\n")
  var picked: [String] = []
  let headlines = ["Fatal error", "*** Program crashed", "WARNING: ThreadSanitizer", Grader.macOSRecursiveLock]
  for line in lines where headlines.contains(where: { line.contains($0) }) {
    picked.append(line.trimmingCharacters(in: .whitespaces))
  }
  // With no message and no backtrace (macOS, where the backtracer did not run), the signal is
  // all there is to say.
  if picked.isEmpty, let signal = lines.first(where: { $0.contains("xited with unexpected signal code") }) {
    picked.append(signal.trimmingCharacters(in: .whitespaces))
  }
  // A sanitizer report names each access with its stack: the learner's own frames say which two
  // lines raced.
  if Grader.raced(output) {
    for location in racingLocations(lines, codeFiles: codeFiles).prefix(4) {
      picked.append("at " + location)
    }
  }
  let frames = lines.filter { $0.contains(" at /") && ($0.contains("/Sources/") || $0.contains("/answers/") || $0.contains("/Tests/")) }
  for frame in frames.prefix(3) {
    if let range = frame.range(of: " at /", options: .backwards) {
      picked.append("at " + frame[frame.index(after: range.lowerBound)...].dropFirst(3).trimmingCharacters(in: .whitespaces))
    }
  }
  if picked.isEmpty { return lastLines(output, 8) }
  return picked.prefix(6).map { "    " + Grader.shortened($0) }.joined(separator: "\n")
}

/// The learner's lines in the stacks of a thread sanitizer report, in order, each once, as paths
/// from the workbook's root with the line (and column). A frame reads
/// `#0 <function> <file>[:<line>[:<column>]] (<image>+0x…)`: on Linux the file is a full path, on
/// macOS its name alone (`LockedStore.swift:42`), looked up among `codeFiles`. A full path outside
/// them is still shown when it is under a `Sources/` folder.
func racingLocations(_ lines: [String], codeFiles: [String]) -> [String] {
  var found: [String] = []
  for line in lines {
    let text = line.trimmingCharacters(in: .whitespaces)
    guard text.hasPrefix("#") else { continue }
    let pattern = #"\.swift(:\d+(:\d+)?)?$"#
    guard let token = text.split(separator: " ").last(where: { $0.range(of: pattern, options: .regularExpression) != nil }),
      let end = token.range(of: ".swift", options: .backwards)
    else { continue }
    let file = String(token[..<end.upperBound])
    let position = String(token[end.upperBound...])  // "", ":42" or ":42:7"
    var location: String?
    if file.contains("/") {
      if let known = codeFiles.first(where: { file.hasSuffix("/" + $0) }) {
        location = known + position
      } else if let range = file.range(of: "/Sources/") {
        location = String(file[file.index(after: range.lowerBound)...]) + position
      }
    } else if let known = codeFiles.first(where: { $0 == file || $0.hasSuffix("/" + file) }) {
      location = known + position
    }
    if let location, !found.contains(location) { found.append(location) }
  }
  return found
}

/// The last `count` lines of a command's output, without the runtime's one-line notes (such as a
/// backtracer that cannot run for this process).
func lastLines(_ text: String, _ count: Int) -> String {
  text.components(separatedBy: "\n").filter { !$0.isEmpty && !$0.hasPrefix("swift runtime: ") }.suffix(count)
    .map { "    " + Grader.shortened($0) }.joined(separator: "\n")
}

/// A mutant's build that twice did not compile the file the mutant changed: its tests would have
/// graded another build, so there is no verdict.
struct StaleMutantBuild: Error, CustomStringConvertible {
  let file: String
  var description: String {
    "the build did not compile \(file) for this mutant, twice (its tests would grade an older build); run it again "
      + "with `make mutants CHAPTER=N MUTANTS=M`"
  }
}
