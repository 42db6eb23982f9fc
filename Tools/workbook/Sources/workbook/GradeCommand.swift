import Foundation

/// `make chapter-N`: grade one chapter and tell the learner where they stand and what is next.
enum GradeCommand {
  static func run(_ chapter: Chapter, _ variant: Variant, composed: [Chapter], focus: Int? = nil) throws -> Bool {
    for number in variant.answers.sorted() {
      let all = try Catalog.load()
      guard let other = all.first(where: { $0.number == number }) else {
        throw Failure("there is no chapter \(number) to take a reference answer from")
      }
      guard FileManager.default.fileExists(atPath: other.answerPath) else {
        throw Failure("the reference answer \(other.answerPath) is not in this copy of the workbook")
      }
    }
    let ownCode = !variant.answers.contains(chapter.number) && variant.mutant == nil
    let source = ownCode ? chapter.starterPath : "\(chapter.answerPath) (reference answer)"
    let sanitizer = variant.sanitize ? ", under the thread sanitizer" : ""
    print(Style.bold("Chapter \(chapter.number) — \(chapter.title)") + Style.dim("  [\(source)\(sanitizer)]"))
    if !composed.isEmpty {
      let parts = composed.map { other in
        "\(other.number) \(other.module): " + (variant.answers.contains(other.number) ? "reference answer" : "your code")
      }
      print(Style.dim("  composes " + parts.joined(separator: ", ")))
    }
    let previous = ownCode ? loadSummary(chapter, "starter") : nil
    guard var result = try Grader.grade([chapter], variant).first else { return false }
    if ownCode { markUntouched(&result, chapter) }
    // A compile error says nothing about which exercises pass: keep the last real result. Runs
    // of the learner's own chapter count, with or without reference answers for the chapters it
    // composes (REFERENCE=...); runs of the answers or of mutants do not.
    if ownCode && result.compiled { saveSummary(result, chapter, key: "starter") }
    printTable(result, chapter)
    if let previous, result.compiled {
      if previous.variant == result.variant {
        printRegressions(from: previous, to: result)
      } else {
        print(Style.dim("\n  The last run graded with \(describe(previous.variant)); this one with \(describe(result.variant)), so results may differ."))
      }
    }
    if result.allSolved {
      print(Style.green("\nAll \(chapter.exercises.count) exercises pass.") + " Next: `make walkthrough-\(chapter.number)` for the interview questions.")
      return true
    }
    printNextStep(result, chapter, showHint: ownCode, focus: focus)
    if ownCode { printComposedTip(chapter, composed: composed, variant) }
    // With EXERCISE=E the exit status is exercise E's: a passing exercise is not a failed run.
    if let focus, let focused = result.exercises.first(where: { $0.number == focus }) {
      return result.compiled && focused.solved
    }
    return false
  }

  /// A variant label in words: "starter" is the learner's own code throughout.
  static func describe(_ variant: String) -> String {
    guard variant.hasPrefix("reference-") else { return "your own code" }
    let numbers = variant.dropFirst("reference-".count).split(separator: "-").joined(separator: ", ")
    return "the reference answers of chapters \(numbers)"
  }

  /// Names the exercises that passed on the last run and fail now. The change that broke one
  /// may sit in another exercise's file: a later exercise's code runs in earlier tests too.
  static func printRegressions(from previous: ChapterResult, to result: ChapterResult) {
    let broken = result.exercises.filter { exercise in
      !exercise.solved && previous.exercises.contains { $0.number == exercise.number && $0.solved }
    }.map { String($0.number) }
    guard !broken.isEmpty else { return }
    let which = broken.count == 1 ? "Exercise \(broken[0]) passed" : "Exercises \(broken.joined(separator: ", ")) passed"
    print(
      Style.yellow(
        "\n  \(which) on your last run and \(broken.count == 1 ? "fails" : "fail") now. Look at what you changed since, "
          + "in any of this chapter's files: an exercise's tests may run the code of other exercises too."))
  }

  /// Marks the exercises whose files are unchanged from the workbook as cloned (or last pulled):
  /// some starters return placeholder values instead of throwing, and pass a test or two by
  /// accident, yet nobody has started them. Needs git and an upstream; otherwise unknown.
  static func markUntouched(_ result: inout ChapterResult, _ chapter: Chapter) {
    for index in result.exercises.indices {
      let number = result.exercises[index].number
      guard let file = chapter.exercises.first(where: { $0.number == number })?.file else { continue }
      let path = "\(chapter.starterPath)/\(file.components(separatedBy: ",")[0])"
      guard let diff = try? workbook.run(["git", "diff", "--quiet", "@{upstream}", "--", path], timeout: 10) else { continue }
      switch diff.status {
      case 0: result.exercises[index].untouched = true
      case 1: result.exercises[index].untouched = false
      default: continue
      }
    }
  }

  /// A capstone also fails where a composed chapter's code is unfinished: name the learner's
  /// composed chapters that are not solved yet, and how to substitute their reference answers.
  static func printComposedTip(_ chapter: Chapter, composed: [Chapter], _ variant: Variant) {
    let unfinished = composed.filter { other in
      !variant.answers.contains(other.number) && !(loadSummary(other, "starter")?.allSolved ?? false)
    }
    guard !unfinished.isEmpty else { return }
    let numbers = unfinished.map { String($0.number) }
    let which = numbers.count == 1 ? "chapter \(numbers[0]) is" : "chapters \(numbers.joined(separator: ", ")) are"
    print(
      Style.dim(
        "  Your \(which) not solved yet (as last graded). A failure that comes from there (\"not implemented yet\" "
          + "in its code) goes away with `make chapter-\(chapter.number) REFERENCE=\(numbers.joined(separator: ","))`."))
  }

  static func printTable(_ result: ChapterResult, _ chapter: Chapter) {
    if let crash = result.crash {
      print(Style.red("\n\(Style.fail) \(crash)"))
      print(Style.dim("  Each exercise was then graded on its own:"))
    }
    print("")
    for exercise in result.exercises {
      let mark: String
      let note: String
      if !result.compiled {
        mark = Style.dim(Style.todo)
        note = "not graded (does not compile)"
      } else if exercise.total == 0 {
        mark = Style.red(Style.fail)
        note = "no tests ran"
      } else if exercise.solved {
        mark = Style.green(Style.pass)
        note = "\(exercise.passed)/\(exercise.total) tests"
      } else if exercise.notStarted {
        mark = Style.yellow(Style.todo)
        // Some tests of an untouched exercise may pass by accident (a starter's wrong answer can
        // be right for one case) and fail again once an earlier exercise works: no count here.
        note = "not started · \(exercise.total) test\(exercise.total == 1 ? "" : "s")"
      } else {
        mark = Style.red(Style.fail)
        note = "\(exercise.passed)/\(exercise.total) tests"
      }
      print("  \(mark) \(exercise.number)  \(padded(exercise.title, 44)) \(note)")
    }
    print("\n  " + progressBar(done: result.solvedCount, total: result.exercises.count) + " \(result.solvedCount)/\(result.exercises.count) exercises")
  }

  static func printNextStep(_ result: ChapterResult, _ chapter: Chapter, showHint: Bool, focus: Int? = nil) {
    guard result.compiled else {
      print("\nFix the compile errors above, then run `make chapter-\(chapter.number)` again.")
      return
    }
    let unsolved = result.exercises.filter { !$0.solved }
    guard let next = unsolved.first(where: { $0.number == focus }) ?? unsolved.first else { return }
    let file = chapter.exercises.first { $0.number == next.number }?.file ?? ""
    if let focus, let focused = result.exercises.first(where: { $0.number == focus }), focused.solved {
      // The exercise asked for passes: say so, and only name what is next.
      print(Style.green("\nExercise \(focus) passes") + " (\(focused.passed)/\(focused.total) tests).")
      print("Next: exercise \(next.number), \(next.title)  (\(chapter.starterPath)/\(file)): `make chapter-\(chapter.number) EXERCISE=\(next.number)`")
      return
    }
    print("\nNext: exercise \(next.number), \(next.title)  (\(chapter.starterPath)/\(file))")
    let needs = chapter.exercises.first { $0.number == next.number }?.needs ?? []
    let missing = needs.filter { number in unsolved.contains { $0.number == number } }.sorted()
    if !missing.isEmpty {
      let list = missing.map(String.init).joined(separator: ", ")
      let which = missing.count == 1 ? "exercise \(list), which does" : "exercises \(list), which do"
      print(
        Style.yellow(
          "  Its tests run the code of \(which) not pass yet: a failure below may come from there "
            + "(`make chapter-\(chapter.number) EXERCISE=\(missing[0])`)."))
    }
    let order = declarationOrder(chapter)
    func position(_ test: TestCase) -> Int { order["\(test.suite.split(separator: ".").last ?? "").\(test.name)"] ?? .max }
    let failures = next.failures.sorted { position($0) < position($1) }
    if let failure = failures.first {
      print(Style.bold("  First failure") + " in \(failure.name):")
      for line in (failure.failure ?? "").components(separatedBy: "\n").prefix(6) {
        print(explain(line))
      }
    }
    if showHint, let hint = try? HintCommand.hint(for: next.number, chapter) {
      print(Style.bold("  Hint") + Style.dim(" (more with `make hint-\(chapter.number) EXERCISE=\(next.number)`)") + ":")
      let tests = Set(order.keys.map { testName($0.split(separator: ".").last.map(String.init) ?? $0) })
      let paragraph = hintParagraph(
        hint, failing: failures.first.map { testName($0.name) }, failingNames: Set(failures.map { testName($0.name) }),
        testNames: tests)
      print(indent(paragraph, "    "))
    }
    if unsolved.count > 1 {
      let others = unsolved.filter { $0.number != next.number }.map { String($0.number) }.joined(separator: ", ")
      print(Style.dim("  Working on another exercise? `make chapter-\(chapter.number) EXERCISE=N` shows its failure (other unsolved: \(others))."))
    }
  }
}

/// Where each test function is declared in the chapter's tests, keyed `Suite.function(labels:)`,
/// so the first failure shown is the first failing test in reading order (the simplest one), not
/// the one that finished first. Each suite lives in the file of the same name.
func declarationOrder(_ chapter: Chapter) -> [String: Int] {
  let folder = "Tests/\(chapter.module)Tests"
  var order: [String: Int] = [:]
  let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
  for file in files {
    guard let text = try? String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8) else { continue }
    for line in text.components(separatedBy: "\n") {
      guard let range = line.range(of: "func ") else { continue }
      let name = line[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      let signature = line[range.upperBound...].prefix { $0 != ")" }
      let labels = signature.drop { $0 != "(" }.dropFirst().split(separator: ",").map {
        String($0.trimmingCharacters(in: .whitespaces).prefix { $0 != ":" && $0 != " " }) + ":"
      }
      let suite = file.hasSuffix(".swift") ? String(file.dropLast(6)) : file
      let key = "\(suite).\(name)(\(labels.joined()))"
      if order[key] == nil { order[key] = order.count }
    }
  }
  return order
}

/// Shows a failure the way a learner reads it: what was expected and why first, then the
/// expression that failed.
func explain(_ line: String) -> String {
  var text = line
  for prefix in ["Issue recorded (error): ", "Caught error: "] where text.hasPrefix(prefix) {
    text.removeFirst(prefix.count)
  }
  if let range = text.range(of: " (error): ") {
    let expression = text[..<range.lowerBound]
    let comment = text[range.upperBound...]
    return "    " + comment + "\n" + Style.dim("      " + expression)
  }
  return "    " + text.replacingOccurrences(of: " (error)", with: "")
}

/// `make test`: the untouched starter compiles, does not crash, and leaves every exercise with at
/// least one failing test, so no exercise is solved before the learner has written anything.
enum StarterCheck {
  static func run(_ chapters: [Chapter]) throws -> Bool {
    let results = try Grader.grade(chapters, Variant())
    var ok = true
    for (chapter, result) in zip(chapters, results) {
      var problems: [String] = []
      if !result.compiled { problems.append("does not compile") }
      if let crash = result.crash { problems.append(crash) }
      for exercise in result.exercises where result.compiled {
        if exercise.total == 0 { problems.append("exercise \(exercise.number) has no tests") }
        if exercise.solved { problems.append("exercise \(exercise.number) already passes on the starter") }
      }
      let mark = problems.isEmpty ? Style.green(Style.pass) : Style.red(Style.fail)
      let summary = result.exercises.map { "\($0.number): \($0.failures.count)/\($0.total) failing" }
      print("\(mark) starter of chapter \(chapter.number) (\(chapter.module)) — " + summary.joined(separator: ", "))
      for problem in problems { print("    " + problem) }
      ok = ok && problems.isEmpty
    }
    return ok
  }
}

/// `make hint-N`: the hint for the first exercise that does not pass yet.
enum HintCommand {
  static func hint(for number: Int, _ chapter: Chapter) throws -> String {
    let sections = try markdownSections(chapter.hintsPath)
    guard let section = sections.first(where: { Int($0.heading.prefix { $0.isNumber }) == number }) else {
      throw Failure("\(chapter.hintsPath) has no hint for exercise \(number)")
    }
    return section.body
  }

  /// Grades the learner's code of `chapter` (with the reference answers `variant` names for the
  /// chapters it composes, as `REFERENCE=` does for `make chapter-N`) to find the exercise to help with.
  static func run(_ chapter: Chapter, _ variant: Variant = Variant(), focus: Int? = nil) throws {
    guard let result = try Grader.grade([chapter], variant).first else { return }
    if result.compiled { saveSummary(result, chapter, key: "starter") }
    guard result.compiled else {
      print("The hint comes once the chapter compiles; `make chapter-\(chapter.number)` shows the errors.")
      return
    }
    if let focus, result.exercises.contains(where: { $0.number == focus && $0.solved }) {
      print("Exercise \(focus) already passes. Here is its hint anyway:\n")
      print(try hint(for: focus, chapter))
      return
    }
    let unsolved = result.exercises.filter { !$0.solved }
    guard let next = unsolved.first(where: { $0.number == focus }) ?? unsolved.first else {
      print("Every exercise of chapter \(chapter.number) passes: no hint needed.")
      return
    }
    print(Style.bold("Hint for exercise \(next.number), \(next.title):") + "\n")
    print(try hint(for: next.number, chapter))
  }
}

/// `make progress`: every chapter, from the last time it was graded.
enum ProgressCommand {
  static func run(_ chapters: [Chapter]) {
    print(Style.bold("Your progress") + Style.dim(" (from the last `make chapter-N` of each chapter)") + "\n")
    for chapter in chapters {
      let title = padded("\(chapter.number)  \(chapter.title)", 40)
      guard let result = loadSummary(chapter, "starter") else {
        print("  \(title) \(progressBar(done: 0, total: 1)) not graded yet: make chapter-\(chapter.number)")
        continue
      }
      let done = result.compiled ? result.solvedCount : 0
      let stale = isStale(chapter, since: result.date) ? Style.dim("  (edited since; re-grade)") : ""
      print("  \(title) \(progressBar(done: done, total: result.exercises.count)) \(done)/\(result.exercises.count)\(stale)")
    }
  }

  static func isStale(_ chapter: Chapter, since date: Date) -> Bool {
    latestModification(chapter.starterPath) > date
  }
}

func latestModification(_ folder: String) -> Date {
  let manager = FileManager.default
  var latest = Date.distantPast
  for file in (try? manager.subpathsOfDirectory(atPath: folder)) ?? [] {
    let attributes = try? manager.attributesOfItem(atPath: "\(folder)/\(file)")
    if let date = attributes?[.modificationDate] as? Date, date > latest { latest = date }
  }
  return latest
}

/// A test's function name without its argument labels: `everyChangeArrives()` → `everyChangeArrives`.
func testName(_ name: String) -> String {
  String(name.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
}

/// The paragraph of an exercise's hint to show under a failure: the one that names the failing
/// test; else the first that does not speak only of tests that pass already (a part that works
/// needs no nudge); else the first.
func hintParagraph(_ hint: String, failing: String?, failingNames: Set<String>, testNames: Set<String>) -> String {
  let paragraphs = hint.components(separatedBy: "\n\n")
  func tests(namedIn paragraph: String) -> Set<String> {
    let quoted = paragraph.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    return Set(quoted.map(testName)).intersection(testNames)
  }
  if let failing, let paragraph = paragraphs.first(where: { tests(namedIn: $0).contains(failing) }) {
    return paragraph
  }
  let relevant = paragraphs.first { paragraph in
    let named = tests(namedIn: paragraph)
    return named.isEmpty || !named.isDisjoint(with: failingNames)
  }
  return relevant ?? firstParagraph(hint)
}

func firstParagraph(_ text: String) -> String {
  text.components(separatedBy: "\n\n").first ?? text
}

func indent(_ text: String, _ prefix: String) -> String {
  text.components(separatedBy: "\n").map { prefix + $0 }.joined(separator: "\n")
}
