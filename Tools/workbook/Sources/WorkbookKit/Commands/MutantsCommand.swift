import Foundation

/// `make mutants`: each mutant of the answers must compile and fail at least one test.
struct MutantsCommand: Command {
  static let name = "mutants"
  static let arguments = "[N…] [--only M,…] [--check] [--whole-suite]"
  static let summary =
    "every mutant of the answers is killed, by its recorded killers first (--check: only parse and apply them)"

  let chapters: [Int]
  let checkOnly: Bool
  /// Mutant numbers (the `NN` of `NN-name.mutant`) to run instead of all: a maintainer's quick
  /// loop after adding one. Empty: all of them.
  let only: Set<Int>
  /// Every mutant runs the whole suite, its recorded killers not first (`KillersFirst`): a record of
  /// every test that kills each one, after tests were added.
  let wholeSuite: Bool

  init(_ arguments: [String]) throws {
    let parsed = try Arguments(
      arguments, flags: ["--check", "--whole-suite"], options: ["--only": "mutant numbers, such as 40,41"],
      positionals: 0...Int.max)
    chapters = try parsed.chapters()
    checkOnly = parsed.has("--check")
    only = try parsed.numberList("--only", of: "mutant numbers")
    wholeSuite = parsed.has("--whole-suite")
  }

  func run() throws -> Bool {
    let catalog = try Catalog.load()
    let wanted = chapters.isEmpty ? catalog.chapters : try chapters.map { try catalog.chapter($0) }
    return checkOnly ? Self.check(wanted) : try Self.run(wanted, only: only, wholeSuite: wholeSuite)
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

  static func run(_ chapters: [Chapter], only: Set<Int> = [], wholeSuite: Bool = false) throws -> Bool {
    var survivors: [String] = []
    var total = 0
    var byKillers = 0
    var runs: [MutantKillers] = []
    let manager = FileManager.default
    for chapter in chapters {
      let files = mutantFiles(chapter).filter { only.isEmpty || only.contains(mutantNumber($0) ?? 0) }
      guard !files.isEmpty else { continue }
      print(Style.bold("Chapter \(chapter.number) — \(files.count) mutants of \(chapter.answerPath)"))
      let recorded = MutantCitations.recorded(chapter)
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
        let first =
          wholeSuite
          ? nil
          : KillersFirst.selection(
            for: number, of: chapter, recorded: recorded, cited: MutantCitations.citedTests(of: number, in: chapter))
        let outcome = try KillersFirst.grade(first: first) { selection, built in
          try Grader.grade([chapter], variant, selection: selection, built: built).first!
        }
        let result = outcome.result
        if !outcome.ranWholeSuite, KillersFirst.killed(result) { byKillers += 1 }
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
    if !wholeSuite {
      print(Style.dim("\n\(byKillers) of \(total) killed by their recorded killers alone; the others ran the whole suite."))
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
