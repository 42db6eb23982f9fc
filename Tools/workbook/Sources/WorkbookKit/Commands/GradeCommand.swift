import Foundation

/// `make chapter-N`: grade one chapter and tell the learner where they stand and what is next.
struct GradeCommand: Command {
  static let name = "grade"
  static let arguments = "N [--answers] [--reference 3,4] [--exercise E] [--sanitize]"
  static let summary = "build and grade chapter N (E: whose failure to show)"

  let chapter: Int
  let answers: Bool
  let reference: Set<Int>
  let focus: Int?
  let sanitize: Bool

  init(_ arguments: [String]) throws {
    let parsed = try Arguments(
      arguments, flags: ["--answers", "--sanitize"],
      options: ["--exercise": "an exercise number", "--reference": "chapter numbers, such as 3,4"], positionals: 1...1)
    chapter = try parsed.chapter()
    answers = parsed.has("--answers")
    reference = try parsed.numberList("--reference")
    focus = try parsed.number("--exercise", "an exercise number")
    sanitize = parsed.has("--sanitize")
  }

  func run() throws -> Bool {
    let catalog = try Catalog.load()
    let chapter = try catalog.chapter(self.chapter)
    if let focus { try chapter.requireExercise(focus) }
    var variant = Variant()
    variant.answers = answers ? Set([chapter.number] + chapter.composes) : reference
    variant.sanitize = sanitize
    return try Self.grade(chapter, variant, catalog: catalog, focus: focus)
  }

  /// Grades `chapter` with `variant` and prints the table, the first failure and the hint.
  static func grade(_ chapter: Chapter, _ variant: Variant, catalog: Catalog, focus: Int? = nil) throws -> Bool {
    for number in variant.answers.sorted() {
      guard let other = catalog.chapters.first(where: { $0.number == number }) else {
        throw Failure("there is no chapter \(number) to take a reference answer from")
      }
      guard FileManager.default.fileExists(atPath: other.answerPath) else {
        throw Failure("the reference answer \(other.answerPath) is not in this copy of the workbook")
      }
    }
    let composed = catalog.composed(by: chapter)
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
    let previous = ownCode ? Summary.load(chapter) : nil
    let reset = ownCode && Summary.wasReset(chapter)
    guard var result = try Grader.grade([chapter], variant).first else { return false }
    if ownCode { markUntouched(&result, chapter) }
    // A compile error says nothing about which exercises pass: keep the last real result. Runs
    // of the learner's own chapter count, with or without reference answers for the chapters it
    // composes (REFERENCE=...); runs of the answers or of mutants do not.
    if ownCode && result.compiled { Summary.save(result, chapter) }
    printTable(result, chapter)
    if reset, result.compiled {
      print(
        Style.dim(
          "\n  Chapter \(chapter.number) was reset to its starter (`make reset-\(chapter.number)`) after your last run: "
            + "these are the starter's results. Your earlier code is in .workbook/backup/."))
    } else if let before = previous?.variant, let previous, result.compiled {
      if before.gradesSameCode(as: variant) {
        printRegressions(from: previous, to: result)
      } else {
        print(Style.dim("\n  The last run graded with \(before.inWords); this one with \(variant.inWords), so results may differ."))
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

  /// Marks the exercises whose files are unchanged from the workbook as shipped: some starters
  /// must return placeholder values (a function that cannot throw), and pass a test or two by
  /// accident, yet nobody has started them.
  ///
  /// The chapter's `starter.fingerprints` decides first: it is committed beside the starter and
  /// held to it by `workbook check`, so it works without git (a ZIP download, a fork's branch, a
  /// worktree with no upstream) and never mistakes the learner's own commits for the workbook's.
  /// Git stays as the second opinion, only for an exercise the manifest does not cover (a chapter
  /// being written, whose manifest is not there yet): the upstream branch, else the clone's
  /// `origin`; never HEAD. Without either, unknown. Only the exercise's own files are compared,
  /// so clutter beside them (a `.DS_Store`) is no edit.
  static func markUntouched(_ result: inout ChapterResult, _ chapter: Chapter, root: String = ".") {
    let fingerprinted = StarterFingerprints.untouched(chapter, root: root)
    for index in result.exercises.indices {
      if let mark = fingerprinted[result.exercises[index].number] { result.exercises[index].untouched = mark }
    }
    guard result.exercises.contains(where: { fingerprinted[$0.number] == nil }) else { return }
    let directory = root == "." ? nil : root
    let shipped = ["@{upstream}", "origin/HEAD", "origin/main"].first { candidate in
      (try? runCommand(["git", "rev-parse", "--verify", "-q", "\(candidate)^{commit}"], timeout: 10, in: directory))?
        .succeeded == true
    }
    guard let shipped else { return }
    for index in result.exercises.indices where fingerprinted[result.exercises[index].number] == nil {
      guard let exercise = chapter.exercise(result.exercises[index].number) else { continue }
      let paths = exercise.files.map { "\(chapter.starterPath)/\($0)" }
      guard
        let diff = try? runCommand(["git", "diff", "--quiet", shipped, "--"] + paths, timeout: 10, in: directory)
      else { continue }
      switch diff.status {
      case 0: result.exercises[index].untouched = true
      case 1: result.exercises[index].untouched = false
      default: continue
      }
    }
  }

  /// A chapter that composes others also fails where a composed chapter's code is unfinished:
  /// name the learner's composed chapters that are not known to be solved, and how to substitute
  /// their reference answers.
  static func printComposedTip(_ chapter: Chapter, composed: [Chapter], _ variant: Variant) {
    let own = composed.filter { !variant.answers.contains($0.number) }.map { ($0.number, Summary.load($0)) }
    let tip = composedTip(
      chapter: chapter.number, unsolved: own.filter { $0.1.map { !$0.allSolved } ?? false }.map(\.0),
      ungraded: own.filter { $0.1 == nil }.map(\.0))
    if let tip { print(Style.dim(tip)) }
  }

  /// The tip under a failing chapter that composes others: those last graded unsolved, and those
  /// never graded in this copy, which may well be solved (only grading them tells). Nil when
  /// every composed chapter was graded solved.
  static func composedTip(chapter: Int, unsolved: [Int], ungraded: [Int]) -> String? {
    guard !unsolved.isEmpty || !ungraded.isEmpty else { return nil }
    func named(_ numbers: [Int]) -> String {
      numbers.count == 1 ? "chapter \(numbers[0])" : "chapters \(numbers.map(String.init).joined(separator: ", "))"
    }
    var said: [String] = []
    if !unsolved.isEmpty {
      said.append("Your \(named(unsolved)) \(unsolved.count == 1 ? "is" : "are") not solved yet (as last graded).")
    }
    if !ungraded.isEmpty {
      said.append("Your \(named(ungraded)) \(ungraded.count == 1 ? "has" : "have") not been graded here yet.")
    }
    let all = (unsolved + ungraded).sorted().map(String.init).joined(separator: ",")
    return "  " + said.joined(separator: " ") + " A failure that comes from there (\"not implemented yet\" in its code) "
      + "goes away with `make chapter-\(chapter) REFERENCE=\(all)`."
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

  /// What a learner who has not started an exercise reads first: where to write, and what the
  /// tests found unwritten (whatever error case a typed-throws starter carried the marker in).
  ///
  /// Every name is shown: each one the exercise's files still throw `NotImplemented` for, and
  /// each one a failure names (a test that stops at `login` never reaches `logout`, which is no
  /// less unwritten), in the order the files declare them (the order to write them in), whatever
  /// order the tests finished in.
  static func notStartedLine(_ exercise: ExerciseResult, files: String, _ chapter: Chapter, root: String = ".") -> String {
    var names = exercise.unwritten
    for name in starterPlaceholders(exercise.number, chapter, root: root) where !names.contains(name) { names.append(name) }
    let unwritten = writingOrder(names, exercise: exercise.number, chapter, root: root)
    var line = Style.bold("  Not started") + ": each `// TODO:` in \(chapter.starterPath)/\(files) says what to write"
    if !unwritten.isEmpty {
      line += " (\(NotImplementedMarker.text): \(unwritten.map { "`\($0)`" }.joined(separator: ", ")))"
    }
    return line + "."
  }

  /// What the exercise's starter files throw `NotImplemented("…")` for, in order.
  static func starterPlaceholders(_ exercise: Int, _ chapter: Chapter, root: String = ".") -> [String] {
    var names: [String] = []
    for file in chapter.exercise(exercise)?.files ?? [] {
      guard let text = TextFile.read(path("\(chapter.starterPath)/\(file)", in: root)) else { continue }
      for match in matches(#"NotImplemented\("([^"\\]+)"\)"#, in: text) where !names.contains(match[1]) {
        names.append(match[1])
      }
    }
    return names
  }

  /// `names` (`Type.member`) in the order the exercise's starter files name them (`NotImplemented("…")`),
  /// file by file as `exercises.json` lists them; a name they do not hold comes after, in
  /// alphabetical order.
  static func writingOrder(_ names: [String], exercise: Int, _ chapter: Chapter, root: String = ".") -> [String] {
    let texts = (chapter.exercise(exercise)?.files ?? []).compactMap { TextFile.read(path("\(chapter.starterPath)/\($0)", in: root)) }
    func position(_ name: String) -> (Int, Int) {
      for (index, text) in texts.enumerated() {
        if let range = text.range(of: "\"\(name)\"") {
          return (index, text.distance(from: text.startIndex, to: range.lowerBound))
        }
      }
      return (Int.max, 0)
    }
    return names.sorted { a, b in
      let (x, y) = (position(a), position(b))
      return x != y ? x < y : a < b
    }
  }

  /// An exercise's failures in the order the learner reads them: the test that crashed the
  /// process first (the others were cut short by it), then its behaviour tests as they are
  /// declared, then its cost tests (a `…CostTests` suite: how fast, how often). A cost test never
  /// leads while a behaviour test fails: code that does the wrong thing is slow for no reason
  /// worth reading about, and a not-started exercise leads with its own first behaviour test.
  static func orderedFailures(_ exercise: ExerciseResult, order: [String: Int]) -> [TestCase] {
    func rank(_ test: TestCase) -> (Int, Int) {
      let suite = test.suite.split(separator: ".").last.map(String.init) ?? ""
      let kind = test.crashed == true ? 0 : (suite.hasSuffix("CostTests") ? 2 : 1)
      return (kind, order["\(suite).\(test.name)"] ?? .max)
    }
    return exercise.failures.sorted { rank($0) < rank($1) }
  }

  /// The paragraph of `exercise`'s own hint shown under its failures (`orderedFailures`): its
  /// plan while it reads not started, else the paragraph that fits the failure (`hintParagraph`).
  /// Nil when `hints.md` has no section for it.
  static func shownHint(
    _ exercise: ExerciseResult, _ chapter: Chapter, failures: [TestCase], order: [String: Int], root: String = "."
  ) -> String? {
    hintLadder(exercise, chapter, failures: failures, order: order, root: root)?.paragraph
  }

  /// The tiers of the hint for `exercise`'s first failure (`orderedFailures`), from a question to
  /// the last step (`HintLadder`), around the paragraph `hintParagraph` picks. Nil when `hints.md`
  /// has no section for it.
  static func hintLadder(
    _ exercise: ExerciseResult, _ chapter: Chapter, failures: [TestCase], order: [String: Int], root: String = "."
  ) -> HintLadder? {
    guard let hint = try? HintCommand.hint(for: exercise.number, chapter, root: root) else { return nil }
    let tests = Set(order.keys.map { testName($0.split(separator: ".").last.map(String.init) ?? $0) })
    let costTests = Set(
      order.keys.filter { ($0.split(separator: ".").first ?? "").hasSuffix("CostTests") }
        .map { testName($0.split(separator: ".").last.map(String.init) ?? $0) })
    let failing = failures.first.map { testName($0.name) }
    let paragraph = hintParagraph(
      hint, notStarted: exercise.notStarted, failing: failing, failingNames: Set(failures.map { testName($0.name) }),
      testNames: tests, costTests: costTests)
    let key = "\(exercise.number)/" + (exercise.notStarted ? "plan" : failing ?? "plan")
    return HintLadder(key: key, section: hint, paragraph: paragraph)
  }

  /// The tier of `ladder` to print under a failure, recorded as seen: the next one each time the
  /// same test fails again, never the last step (`make hint-N` shows that when asked).
  static func gradingTier(_ ladder: HintLadder, _ chapter: Chapter, root: String = ".") -> Int {
    var seen = HintTiersSeen.load(chapter, root: root)
    let tier = ladder.tierForGrading(seen: seen.tiers(of: ladder.key))
    seen.saw(tier, of: ladder.key)
    seen.save(chapter, root: root)
    return tier
  }

  static func printNextStep(_ result: ChapterResult, _ chapter: Chapter, showHint: Bool, focus: Int? = nil) {
    guard result.compiled else {
      print("\nFix the compile errors above, then run `make chapter-\(chapter.number)` again.")
      return
    }
    let unsolved = result.exercises.filter { !$0.solved }
    guard let next = unsolved.first(where: { $0.number == focus }) ?? unsolved.first else { return }
    let files = chapter.exercise(next.number)?.filesInWords ?? ""
    if let focus, let focused = result.exercises.first(where: { $0.number == focus }), focused.solved {
      // The exercise asked for passes: say so, and only name what is next.
      print(Style.green("\nExercise \(focus) passes") + " (\(focused.passed)/\(focused.total) tests).")
      print("Next: exercise \(next.number), \(next.title)  (\(chapter.starterPath)/\(files)): `make chapter-\(chapter.number) EXERCISE=\(next.number)`")
      return
    }
    print("\nNext: exercise \(next.number), \(next.title)  (\(chapter.starterPath)/\(files))")
    let needs = chapter.exercise(next.number)?.needs ?? []
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
    let failures = orderedFailures(next, order: order)
    if next.notStarted {
      print(notStartedLine(next, files: files, chapter))
    }
    // A first failure that only says "not implemented yet" repeats the line above.
    if let failure = failures.first, !(next.notStarted && NotImplementedMarker.isIn(failure.failure ?? "")) {
      print(Style.bold("  First failure") + " in \(failure.name):")
      for line in Self.shownLines(of: failure.failure ?? "", crashed: failure.crashed == true) {
        print(explain(line))
      }
    }
    if showHint, let ladder = hintLadder(next, chapter, failures: failures, order: order) {
      let tier = gradingTier(ladder, chapter)
      let more = tier < ladder.tiers.count ? "; the next with `make hint-\(chapter.number) EXERCISE=\(next.number)`" : ""
      print(Style.bold("  Hint") + Style.dim(" (\(tier) of \(ladder.tiers.count)\(more))") + ":")
      print(indent(ladder.tiers[tier - 1], "    "))
    }
    if unsolved.count > 1 {
      let others = unsolved.filter { $0.number != next.number }.map { String($0.number) }.joined(separator: ", ")
      print(Style.dim("  Working on another exercise? `make chapter-\(chapter.number) EXERCISE=N` shows its failure (other unsolved: \(others))."))
    }
  }
}

extension GradeCommand {
  /// What `ModelCheck` (Support/WorkbookTesting) writes in the first line of a failure: the rest
  /// is the shrunk sequence a learner replays, each step a line.
  static let modelCheckMarker = "disagrees with the model"

  /// The lines of a failure shown under "First failure": six; a crash's message is its summary
  /// (at most six lines) and what such a crash means, all of it; a model-based test's is what
  /// disagreed and every step of its shrunk sequence, up to 40 lines.
  static func shownLines(of message: String, crashed: Bool) -> [String] {
    let lines = message.components(separatedBy: "\n")
    if crashed { return Array(lines.prefix(12)) }
    if lines.first?.contains(modelCheckMarker) == true { return Array(lines.prefix(40)) }
    return Array(lines.prefix(6))
  }
}
