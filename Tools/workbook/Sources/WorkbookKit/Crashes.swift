import Foundation

/// One `@Test` function of a chapter's test file, read from its source.
struct TestFunction: Equatable {
  /// The suite type, `Exercise2_MemoryCacheTests`, named like its file.
  let suite: String
  /// The name as the xUnit report writes it: `modelBased(seed:)`.
  let name: String
  /// The name in `@Test("…")`, which the console prints instead of `name` when there is one.
  let displayName: String?
  /// From the `func` line to its closing brace.
  let lines: ClosedRange<Int>

  /// How the console names the test: `Test "display name" passed …` or `Test name() passed …`.
  var consoleName: String { displayName.map { "\"\($0)\"" } ?? name }
}

enum TestSource {
  /// The `@Test` functions of a test file's text, in order. A function ends at the first line
  /// after it that is its closing brace, at the indentation of its `func`.
  static func functions(in text: String, suite: String) -> [TestFunction] {
    let lines = text.components(separatedBy: "\n")
    var found: [TestFunction] = []
    var attribute: String?
    var index = 0
    while index < lines.count {
      let line = lines[index]
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      // `@Test func name()` on one line, or the attribute on lines of its own above the `func`.
      if trimmed.hasPrefix("@Test") { attribute = trimmed }
      if let pending = attribute, let range = line.range(of: "func ") {
        let indentation = line.prefix { $0 == " " }
        let name = line[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        let signature = line[range.upperBound...].prefix { $0 != ")" }
        let labels = signature.drop { $0 != "(" }.dropFirst().split(separator: ",").map {
          String($0.trimmingCharacters(in: .whitespaces).prefix { $0 != ":" && $0 != " " }) + ":"
        }
        var end = index
        while end + 1 < lines.count, lines[end + 1] != indentation + "}" { end += 1 }
        let display = matches(#"^@Test\("((?:[^"\\]|\\.)*)""#, in: pending).first?[1]
        found.append(
          TestFunction(
            suite: suite, name: "\(name)(\(labels.joined()))", displayName: display, lines: (index + 1)...(end + 2)))
        attribute = nil
        index = end + 1
        continue
      }
      index += 1
    }
    return found
  }

  /// The test files of one exercise: `Tests/<Module>Tests/Exercise<N>_*.swift`.
  static func files(_ chapter: Chapter, exercise: Int, root: String = ".") -> [String] {
    let folder = path(chapter.testsPath, in: root)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasPrefix("Exercise\(exercise)_") && $0.hasSuffix(".swift") }.sorted()
  }

  /// Every `@Test` function of one exercise's suites.
  static func functions(_ chapter: Chapter, exercise: Int, root: String = ".") -> [TestFunction] {
    files(chapter, exercise: exercise, root: root).flatMap { file -> [TestFunction] in
      guard let text = TextFile.read(path("\(chapter.testsPath)/\(file)", in: root))
      else { return [] }
      return functions(in: text, suite: String(file.dropLast(".swift".count)))
    }
  }
}

/// The test a crash happened in, found from the crashed thread's stack.
struct CrashedTest: Equatable {
  let exercise: Int
  let function: TestFunction
  /// The test file and line of the frame, from the workbook's root.
  let location: String

  /// ", in `costRunsOutsideTheLock` (Tests/…/Exercise2_MemoryCacheTests.swift:200)"
  var note: String { ", in `\(testName(function.name))` (\(location))" }
}

extension Grader {
  /// The test whose code was running when the process crashed: the innermost frame of the
  /// backtrace that lies in one of the chapter's exercise test files, mapped to the `@Test`
  /// function whose lines hold it. Unlike the tests that had started and not finished (with tests
  /// in parallel, many at once), the stack names the one that crashed. Only frames after the
  /// crash's first line are read: the issues tests recorded before it name test files too.
  static func crashedTest(_ output: String, _ chapter: Chapter, root: String = ".") -> CrashedTest? {
    let lines = output.components(separatedBy: "\n")
    let headlines = ["Fatal error", "*** Program crashed", "WARNING: ThreadSanitizer", macOSRecursiveLock]
    guard let start = lines.firstIndex(where: { line in headlines.contains { line.contains($0) } }) else { return nil }
    var cache: [String: [TestFunction]] = [:]
    for line in lines[start...] {
      for match in matches(#"(?:^|[ /])(Exercise(\d+)_[A-Za-z0-9_]*Tests)\.swift:(\d+)"#, in: line) {
        guard let exercise = Int(match[2]), let number = Int(match[3]) else { continue }
        let suite = match[1]
        // A full path names the module's test folder: a frame of another chapter's tests is not this one's.
        if line.contains("/Tests/"), !line.contains("/\(chapter.testsPath)/\(suite).swift") { continue }
        let file = "\(chapter.testsPath)/\(suite).swift"
        if cache[suite] == nil {
          let text = TextFile.read(path(file, in: root)) ?? ""
          cache[suite] = TestSource.functions(in: text, suite: suite)
        }
        if let function = cache[suite]?.first(where: { $0.lines.contains(number) }) {
          return CrashedTest(exercise: exercise, function: function, location: "\(file):\(number)")
        }
      }
    }
    return nil
  }

  /// How each test that finished before a crash ended, by its console name (`"display name"` or
  /// `name()`): nil passed, else what it recorded.
  static func finishedTests(_ output: String) -> [String: String?] {
    var finished: [String: String?] = [:]
    var issues: [String: [String]] = [:]
    for line in output.components(separatedBy: "\n") {
      guard let range = line.range(of: "Test "), !line.contains("Test case passing"), !line.contains("Test run ") else {
        continue
      }
      let rest = line[range.upperBound...]
      if let end = rest.range(of: " passed after") {
        finished[String(rest[..<end.lowerBound])] = .some(nil)
      } else if let end = rest.range(of: " recorded an issue at ") {
        let issue = rest[end.upperBound...].drop { $0 != " " }.dropFirst()
        issues[String(rest[..<end.lowerBound]), default: []].append(String(issue))
      } else if let end = rest.range(of: " failed after") {
        let name = String(rest[..<end.lowerBound])
        finished[name] = .some((issues[name] ?? ["failed"]).joined(separator: "\n"))
      }
    }
    return finished
  }

  /// One exercise's results after its own run crashed in `crashed`: the crashing test fails with
  /// `message`, the tests that finished first keep their outcome, and those that never finished
  /// fail as cut short, so the exercise keeps its real count of tests.
  static func casesAfterCrash(
    _ functions: [TestFunction], module: String, crashed: CrashedTest, message: String, output: String
  ) -> [TestCase] {
    let finished = finishedTests(output)
    return functions.map { function in
      let suite = "\(module)Tests.\(function.suite)"
      if function == crashed.function {
        return TestCase(suite: suite, name: function.name, failure: message, crashed: true)
      }
      if let outcome = finished[function.consoleName] {
        return TestCase(suite: suite, name: function.name, failure: outcome)
      }
      return TestCase(
        suite: suite, name: function.name,
        failure: "did not finish: the test process crashed in `\(testName(crashed.function.name))` first")
    }
  }
}
