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
  static func grade(_ chapters: [Chapter], _ variant: Variant) throws -> [ChapterResult] {
    let scratch = scratchPath(chapters, variant)
    let environment = variant.environment(for: chapters)
    var results = chapters.map { chapter in
      ChapterResult(
        chapter: chapter.number, variant: variant,
        exercises: chapter.exercises.map { ExerciseResult(number: $0.number, title: $0.title) })
    }

    if !FileManager.default.fileExists(atPath: scratch) && variant.mutant == nil {
      print(Style.dim("  Building for the first time: this takes about a minute; later runs take seconds."))
    }
    let build = try runCommand(
      ["swift", "build", "--build-tests", "--scratch-path", scratch] + variant.swiftFlags, environment: environment,
      timeout: 1_800, echo: verbose)
    guard build.succeeded else {
      reportCompileErrors(build.output)
      return results
    }
    for index in results.indices { results[index].compiled = true }
    let warnings = learnerWarnings(build.output, chapters)
    if !warnings.isEmpty {
      print(Style.yellow("\(warnings.count) compiler warning\(warnings.count == 1 ? "" : "s") in your code:"))
      for warning in warnings.prefix(5) { print("  " + warning) }
    }

    let report = "\(scratch)/results.xml"
    let swiftTestingReport = "\(scratch)/results-swift-testing.xml"
    try? FileManager.default.removeItem(atPath: swiftTestingReport)
    let test = try runCommand(
      [
        "swift", "test", "--skip-build", "--scratch-path", scratch, "--xunit-output", report,
      ] + variant.swiftFlags, environment: environment, timeout: testTimeout, echo: verbose)

    var cases: [TestCase]
    if let parsed = readXUnit(swiftTestingReport), !parsed.isEmpty, !test.timedOut, !crashed(test.output) {
      cases = parsed
    } else {
      // The process crashed or hung: grade each exercise on its own so one crash does not hide
      // the state of the others.
      let why = test.timedOut ? "the tests did not finish in \(Int(testTimeout)) s" : stopReason(test.output)
      cases = []
      for (index, chapter) in chapters.enumerated() {
        results[index].crash = "\(why):\n" + (test.timedOut ? lastLines(test.output, 6) : crashSummary(test.output))
        for exercise in chapter.exercises {
          let filter = "\(chapter.module)Tests.Exercise\(exercise.number)_"
          let single = try runCommand(
            [
              "swift", "test", "--skip-build", "--scratch-path", scratch, "--filter", filter,
              "--xunit-output", report,
            ] + variant.swiftFlags, environment: environment, timeout: testTimeout)
          if let parsed = readXUnit(swiftTestingReport), !parsed.isEmpty, !single.timedOut, !crashed(single.output) {
            cases += parsed.filter { $0.exercise == exercise.number && $0.module == chapter.module }
          } else {
            let message =
              single.timedOut
              ? "this exercise's tests did not finish (a deadlock, or a continuation never resumed?)"
              : "\(stopReason(single.output)) in this exercise's tests\(runningNote(single.output)):\n"
                + crashSummary(single.output) + (raced(single.output) ? "" : crashAdvice(single.output))
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
        } else {
          results[index].exercises[slot].failures.append(test)
        }
      }
    }
    return results
  }

  /// Swift Testing writes the start of its report before running, so a crash leaves a report with
  /// no results (or half of them); the console tells a crash for sure.
  static func crashed(_ output: String) -> Bool {
    output.contains("*** Program crashed") || output.contains("Fatal error:") || raced(output)
  }

  /// Whether the thread sanitizer reported a race (`SANITIZE=1`).
  static func raced(_ output: String) -> Bool {
    output.contains("WARNING: ThreadSanitizer") || output.contains("ThreadSanitizer: reported")
  }

  /// What stopped a test process that did not finish normally.
  static func stopReason(_ output: String) -> String {
    raced(output) ? "the thread sanitizer found a data race" : "the test process crashed"
  }

  /// What a crash most likely was. A trap (illegal instruction) is Swift stopping on purpose at
  /// the line named: an overflow, an index out of range, a nil force-unwrapped. A bad pointer with
  /// no message of the learner's is most often two threads in one data structure.
  static func crashAdvice(_ output: String) -> String {
    let trapped =
      output.contains("Illegal instruction") || output.contains("Trace/breakpoint trap") || output.contains("Fatal error")
    if trapped {
      return "\n(Swift stopped the program on purpose at the line above: an arithmetic overflow, an index "
        + "out of range, or a force-unwrapped nil. The test's own message could not be shown: it had not "
        + "been checked yet.)"
    }
    return "\n(A crash with no message of yours, such as a bad pointer, is often a data race: two threads "
      + "changed the same dictionary or array at once. Check that every access to shared state goes "
      + "through its lock, actor or queue.)"
  }

  /// Names the tests that had started and not ended when the process stopped: one of them did it.
  static func runningNote(_ output: String) -> String {
    var running: [String] = []
    for line in output.components(separatedBy: "\n") {
      guard let range = line.range(of: "Test ") else { continue }
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
    let lines = output.components(separatedBy: "\n")
    // Each error once: the compiler repeats a diagnostic for every job that sees the file, and
    // the caret lines under a source excerpt ("`- error: ...") belong to the error above them.
    var seen = Set<String>()
    let diagnostics = lines.enumerated().filter { _, line in
      line.contains("error:") && !line.hasPrefix(" ") && !line.contains("|") && seen.insert(shortened(line)).inserted
    }
    let inFiles = diagnostics.filter { $0.element.contains(".swift:") }
    let errors = inFiles.isEmpty ? diagnostics : inFiles
    print(Style.red("\(Style.fail) The code does not compile:"))
    var shown = 0
    for (index, line) in errors where shown < 12 {
      print("  " + shortened(line))
      // The compiler prints the source line and a caret under the error.
      for next in lines.dropFirst(index + 1).prefix(3) where next.contains("|") {
        print("  " + Style.dim(next))
      }
      shown += 1
    }
    if errors.isEmpty { print(lastLines(output, 15)) }
    if errors.count > shown { print("  … and \(errors.count - shown) more") }
  }

  static func shortened(_ line: String) -> String {
    let root = FileManager.default.currentDirectoryPath + "/"
    return line.replacingOccurrences(of: root, with: "")
  }
}

/// The lines of a crash report a learner needs: what failed, and where in their code or the tests.
func crashSummary(_ output: String) -> String {
  let lines = output.components(separatedBy: "\n")
  var picked: [String] = []
  for line in lines where line.contains("Fatal error") || line.contains("*** Program crashed") || line.contains("WARNING: ThreadSanitizer") {
    picked.append(line.trimmingCharacters(in: .whitespaces))
  }
  // A sanitizer report names each access with its stack, "#0 <function> <file>:<line> ...":
  // the learner's own frames say which two lines raced.
  let raced = Grader.raced(output)
  let racing = lines.filter {
    raced && $0.trimmingCharacters(in: .whitespaces).hasPrefix("#") && $0.contains("/Sources/") && $0.contains(".swift:")
  }
  for frame in racing.prefix(4) {
    if let range = frame.range(of: "/Sources/") {
      let location = frame[range.lowerBound...].prefix { $0 != " " }
      picked.append("at " + location.dropFirst())
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

func lastLines(_ text: String, _ count: Int) -> String {
  text.components(separatedBy: "\n").filter { !$0.isEmpty }.suffix(count)
    .map { "    " + Grader.shortened($0) }.joined(separator: "\n")
}
