import Foundation

/// The tests that killed one mutant in `make mutants`, as its chapter's `mutants/killers.tsv` keeps them.
struct MutantKillers: Equatable {
  let chapter: Int
  let number: Int
  let name: String
  /// Test function names, without argument labels, sorted.
  let killers: [String]

  /// `chapter<TAB>number<TAB>name<TAB>killer killer…`
  var row: String { "\(chapter)\t\(number)\t\(name)\t\(killers.joined(separator: " "))" }

  init(chapter: Int, number: Int, name: String, killers: [String]) {
    self.chapter = chapter
    self.number = number
    self.name = name
    self.killers = killers
  }

  init?(row: String) {
    let fields = row.components(separatedBy: "\t")
    guard fields.count == 4, let chapter = Int(fields[0]), let number = Int(fields[1]) else { return nil }
    self.init(
      chapter: chapter, number: number, name: fields[2],
      killers: fields[3].split(separator: " ").map(String.init))
  }
}

/// What `make mutants` checks beyond "some test failed": that each `Checked by:` line of the
/// chapter's interview, and each promise of its `promises.md`, that cites a mutant pairs it only
/// with tests that really kill it. The
/// killers of every mutant are recorded in the chapter's `mutants/killers.tsv`, which is committed:
/// `workbook check` reads it to refuse a citation no recorded run backs, without running anything.
enum MutantCitations {
  /// The record of a chapter's mutant runs.
  static func killersFile(_ chapter: Chapter) -> String { "\(chapter.mutantsPath)/killers.tsv" }

  /// The recorded killers of `chapter`'s mutants by number; nil when the chapter has no record.
  static func recorded(_ chapter: Chapter, root: String = ".") -> [Int: MutantKillers]? {
    guard let text = TextFile.read(path(killersFile(chapter), in: root)) else { return nil }
    let rows = text.components(separatedBy: "\n").compactMap(MutantKillers.init(row:))
    return Dictionary(rows.map { ($0.number, $0) }, uniquingKeysWith: { _, last in last })
  }

  /// Every test a mutant's run failed: all of them, not only the first. When the test process
  /// crashed, the test the crash is blamed on (`Grader.crashedTest`) counts and the tests it cut
  /// short do not; an exercise graded as a whole (no test to blame) names no test.
  static func killers(of result: ChapterResult) -> [String] {
    var names = Set<String>()
    for exercise in result.exercises {
      let crashed = exercise.failures.contains { $0.crashed == true }
      for failure in exercise.failures where failure.name != TestCase.wholeExercise {
        if crashed, failure.crashed != true, failure.failure?.hasPrefix("did not finish") == true { continue }
        names.insert(testName(failure.name))
      }
    }
    // The whole run's crash names its test (", in `name` (file:line):") even when each exercise
    // run alone passed.
    if let crash = result.crash, let blamed = matches(#"^[^\n]*?, in `([A-Za-z_][A-Za-z0-9_]*)` \("#, in: crash).first {
      names.insert(blamed[1])
    }
    return names.sorted()
  }

  /// What is wrong with the interview's citations of one mutant, given the tests that killed it:
  /// every test a line pairs it with must be one of them.
  static func problems(
    citing number: Int, name: String, killers: [String], interview: String, interviewPath: String,
    record: String = "killers.tsv"
  ) -> [String] {
    var found: [String] = []
    for question in Citations.questions(in: interview) {
      for case .success(.checkedBy(let items, _)) in question.endings {
        for item in items where item.mutants.contains(number) && !killers.contains(item.test) {
          let actual =
            killers.isEmpty
            ? "no test killed it (it survived, did not compile, or crashed with no test to blame)"
            : "it was killed by " + killers.map { "`\($0)`" }.joined(separator: ", ")
          found.append(
            "\(interviewPath):\(item.line): mutant \(number) (\(name)) is cited with `\(item.test)`, but \(actual); "
              + "cite it with a test that kills it (see \(record))")
        }
      }
    }
    return found
  }

  /// What is wrong with a ledger of promises' citations of one mutant (`PromiseLedger`): as for
  /// the interview, every test a promise pairs it with must be one of its killers.
  static func problems(
    citing number: Int, name: String, killers: [String], ledger: String, ledgerPath: String,
    record: String = "killers.tsv"
  ) -> [String] {
    PromiseLedger(ledger).citedTests.filter { $0.mutants.contains(number) && !killers.contains($0.test) }.map { item in
      let actual =
        killers.isEmpty
        ? "no test killed it (it survived, did not compile, or crashed with no test to blame)"
        : "it was killed by " + killers.map { "`\($0)`" }.joined(separator: ", ")
      return "\(ledgerPath):\(item.line): mutant \(number) (\(name)) is cited with `\(item.test)`, but \(actual); "
        + "cite it with a test that kills it (see \(record))"
    }
  }

  /// After a `make mutants` run: records the killers in each chapter's `killers.tsv`, prints every
  /// citation of a mutant run here that its killers do not back, and says whether there was none.
  static func verify(_ runs: [MutantKillers], in chapters: [Chapter], root: String = ".") -> Bool {
    record(runs, in: chapters, root: root)
    var found: [String] = []
    for run in runs {
      guard let chapter = chapters.first(where: { $0.number == run.chapter }),
        let interview = TextFile.read(path(chapter.interviewPath, in: root))
      else { continue }
      found += problems(
        citing: run.number, name: run.name, killers: run.killers, interview: interview,
        interviewPath: chapter.interviewPath, record: killersFile(chapter))
    }
    for run in runs {
      guard let chapter = chapters.first(where: { $0.number == run.chapter }),
        let ledger = TextFile.read(path(chapter.promisesPath, in: root))
      else { continue }
      found += problems(
        citing: run.number, name: run.name, killers: run.killers, ledger: ledger, ledgerPath: chapter.promisesPath,
        record: killersFile(chapter))
    }
    guard !found.isEmpty else { return true }
    print(Style.red("\n\(found.count) citation\(found.count == 1 ? "" : "s") of a mutant not backed by the test cited with it:"))
    for problem in found { print("  \(Style.red(Style.fail)) \(problem)") }
    return false
  }

  /// Writes the killers of the mutants just run into their chapter's `killers.tsv`, keeping the
  /// rows of mutants not run this time (`--only`) and dropping those whose file is gone, sorted
  /// by number.
  static func record(_ runs: [MutantKillers], in chapters: [Chapter], root: String = ".") {
    for chapter in chapters {
      let mine = runs.filter { $0.chapter == chapter.number }
      guard !mine.isEmpty else { continue }
      let present = Set(mutantFiles(chapter, root: root).map { ($0 as NSString).lastPathComponent.replacingOccurrences(of: ".mutant", with: "") })
      let replaced = Set(mine.map(\.number))
      let kept = (recorded(chapter, root: root) ?? [:]).values.filter { !replaced.contains($0.number) && present.contains($0.name) }
      let rows = (kept + mine).sorted { ($0.number, $0.name) < ($1.number, $1.name) }
      let file = path(killersFile(chapter), in: root)
      try? ((["chapter\tmutant\tname\tkillers"] + rows.map(\.row)).joined(separator: "\n") + "\n")
        .write(toFile: file, atomically: true, encoding: .utf8)
    }
  }
}
