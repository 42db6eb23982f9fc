import Foundation

/// `make mutants`: each mutant of the answers must compile and fail at least one test.
struct MutantsCommand: Command {
  static let name = "mutants"
  static let arguments = "[N…] [--only M,…] [--check] [--all-tests]"
  static let summary =
    "every mutant of the answers is killed (--check: only parse and apply them; --all-tests: each against every test)"

  let chapters: [Int]
  let checkOnly: Bool
  /// Runs each mutant against the chapter's whole suite, not its recorded killers first: the way
  /// to rebuild `killers.tsv` after tests were added.
  let allTests: Bool
  /// Mutant numbers (the `NN` of `NN-name.mutant`) to run instead of all: a maintainer's quick
  /// loop after adding one. Empty: all of them.
  let only: Set<Int>

  init(_ arguments: [String]) throws {
    let parsed = try Arguments(
      arguments, flags: ["--check", "--all-tests"], options: ["--only": "mutant numbers, such as 40,41"],
      positionals: 0...Int.max)
    chapters = try parsed.chapters()
    checkOnly = parsed.has("--check")
    allTests = parsed.has("--all-tests")
    only = try parsed.numberList("--only", of: "mutant numbers")
  }

  func run() throws -> Bool {
    let catalog = try Catalog.load()
    let wanted = chapters.isEmpty ? catalog.chapters : try chapters.map { try catalog.chapter($0) }
    return checkOnly ? Self.check(wanted) : try Self.run(wanted, only: only, allTests: allTests)
  }

  /// Parses every mutant and applies it to a scratch copy of its answer, without building:
  /// a quick check that no mutant has gone stale after an edit of the answer.
  static func check(_ chapters: [Chapter]) -> Bool {
    reportPatchesApply(chapters, noun: "mutants") { mutantProblems($0) }
  }

  /// Makes `folder` a copy of `source` in place: a file whose bytes already match is left alone,
  /// date and all, and only the others are written. The build between two mutants then sees only
  /// the file the last mutant changed and the one this mutant changes, and recompiles those instead
  /// of the whole module (a fresh copy of the folder is all new files, every time).
  static func mirror(_ source: String, to folder: String) throws {
    let manager = FileManager.default
    try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let wanted = try manager.subpathsOfDirectory(atPath: source)
    let keep = Set(wanted)
    for stale in try manager.subpathsOfDirectory(atPath: folder).sorted(by: >) where !keep.contains(stale) {
      try? manager.removeItem(atPath: "\(folder)/\(stale)")
    }
    for item in wanted.sorted() {
      let from = "\(source)/\(item)"
      let to = "\(folder)/\(item)"
      var isFolder: ObjCBool = false
      guard manager.fileExists(atPath: from, isDirectory: &isFolder), !isFolder.boolValue else {
        try manager.createDirectory(atPath: to, withIntermediateDirectories: true)
        continue
      }
      // A file written again gets a new date, newer than any build of it: the build cannot mistake
      // the answer's lines, put back, for the last mutant's.
      let bytes = try Data(contentsOf: URL(fileURLWithPath: from))
      if manager.contents(atPath: to) != bytes {
        try bytes.write(to: URL(fileURLWithPath: to))
      }
    }
  }

  /// The tests that killed mutant `number` (named `name`) when it was last run, as `killers.tsv`
  /// records them, that the chapter's test files still hold; empty when there is no such record.
  static func recordedKillers(_ chapter: Chapter, number: Int, name: String, root: String = ".") -> [String] {
    guard let row = MutantCitations.recorded(chapter, root: root)?[number], row.name == name else { return [] }
    let present = Set(chapter.exercises.flatMap { TestSource.functions(chapter, exercise: $0.number, root: root) }.map { testName($0.name) })
    return row.killers.filter(present.contains)
  }

  /// Runs each mutant against its recorded killers first, as per-test mutant selection does, and
  /// against the whole suite only when none of them fails (or with `allTests`, or without a
  /// record): a killed mutant costs the tests that kill it, not the chapter's whole suite.
  static func run(_ chapters: [Chapter], only: Set<Int> = [], allTests: Bool = false) throws -> Bool {
    var survivors: [String] = []
    var total = 0
    var wholeSuiteRuns = 0
    var runs: [MutantKillers] = []
    let manager = FileManager.default
    for chapter in chapters {
      let files = mutantFiles(chapter).filter { only.isEmpty || only.contains(mutantNumber($0) ?? 0) }
      guard !files.isEmpty else { continue }
      print(Style.bold("Chapter \(chapter.number) — \(files.count) mutants of \(chapter.answerPath)"))
      for file in files {
        total += 1
        let mutant = try Mutant(path: file)
        let number = mutantNumber(file) ?? 0
        let folder = ".mutant/\(chapter.module)"
        try mirror(chapter.answerPath, to: folder)
        try mutant.apply(to: folder, answerPath: chapter.answerPath)
        // The chapters it composes are built from their answers too, so only the mistake differs.
        var variant = Variant(answers: Set([chapter.number] + chapter.composes))
        variant.mutant = chapter.number
        let recorded = allTests ? [] : recordedKillers(chapter, number: number, name: mutant.name)
        let mutatedFile = mutant.replacements.first?.file
        var result: ChapterResult
        do {
          result = try Grader.grade([chapter], variant, tests: recorded, mutatedFile: mutatedFile).first!
          let missed = result.compiled && result.crash == nil && result.exercises.allSatisfy(\.failures.isEmpty)
          if !recorded.isEmpty, missed {
            // The build is the one just checked: the whole suite runs on it.
            result = try Grader.grade([chapter], variant).first!
          }
          if recorded.isEmpty || missed { wholeSuiteRuns += 1 }
        } catch let stale as StaleMutantBuild {
          print("  " + Style.red("\(Style.fail) NO VERDICT  ") + "\(mutant.name): \(stale)")
          survivors.append("\(chapter.number)/\(mutant.name) (no verdict: stale build)")
          continue
        }
        let killers = result.exercises.flatMap(\.failures)
        runs.append(
          MutantKillers(
            chapter: chapter.number, number: number, name: mutant.name, killers: MutantCitations.killers(of: result)))
        let line = "\(mutant.name): \(mutant.title)"
        if !result.compiled {
          print("  " + Style.red("\(Style.fail) does not compile  ") + line)
          survivors.append("\(chapter.number)/\(mutant.name) (does not compile)")
        } else if let crash = result.crash, killers.isEmpty {
          print("  " + Style.green("\(Style.pass) killed (\(crash.prefix { $0 != ":" }))  ") + line)
        } else if let killer = killers.first {
          print("  " + Style.green("\(Style.pass) killed  ") + line + Style.dim("  by \(killer.suite.split(separator: ".").last ?? "").\(killer.name)"))
        } else {
          print("  " + Style.red("\(Style.fail) SURVIVED  ") + line)
          survivors.append("\(chapter.number)/\(mutant.name)")
        }
      }
      try? manager.removeItem(atPath: ".mutant/\(chapter.module)")
    }
    if total == 0, !only.isEmpty {
      let numbers = only.sorted().map(String.init).joined(separator: ",")
      print(Style.red("\(Style.fail) no mutant numbered \(numbers) in the chapters asked for (see Chapters/*/mutants)"))
      return false
    }
    if !allTests {
      print(
        Style.dim(
          "\n\(total - wholeSuiteRuns) of \(total) mutants ran only the tests killers.tsv records for them; "
            + "\(wholeSuiteRuns) ran the whole suite (no record, or no recorded killer failed)."))
    }
    if survivors.isEmpty {
      print(Style.green("\nAll \(total) mutants killed."))
    } else {
      print(Style.red("\n\(survivors.count) of \(total) mutants not killed: ") + survivors.joined(separator: ", "))
    }
    // Every cited mutant run here must be killed by a test its `Checked by:` line pairs it with.
    let citationsHold = MutantCitations.verify(runs, in: chapters)
    return survivors.isEmpty && citationsHold
  }
}
