import Foundation

/// The tests that killed one mutant in `make mutants`, as `.build/mutants/killers.tsv` keeps them.
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
/// chapter's interview that cites a mutant pairs it with a test that really kills it.
enum MutantCitations {
  static let killersFile = ".build/mutants/killers.tsv"

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
  /// each line that cites it must pair it with at least one of them.
  static func problems(
    citing number: Int, name: String, killers: [String], interview: String, interviewPath: String
  ) -> [String] {
    var found: [String] = []
    for question in Citations.questions(in: interview) {
      for case .success(.checkedBy(let items, _)) in question.endings {
        let paired = items.filter { $0.mutants.contains(number) }
        guard !paired.isEmpty, !paired.contains(where: { killers.contains($0.test) }) else { continue }
        let cited = paired.map { "`\($0.test)`" }.joined(separator: ", ")
        let actual =
          killers.isEmpty
          ? "no test killed it (it survived, did not compile, or crashed with no test to blame)"
          : "it was killed by " + killers.map { "`\($0)`" }.joined(separator: ", ")
        found.append(
          "\(interviewPath):\(paired[0].line): mutant \(number) (\(name)) is cited with \(cited), but \(actual); "
            + "cite it with a test that kills it (see \(killersFile))")
      }
    }
    return found
  }

  /// After a `make mutants` run: writes `killers.tsv`, prints every citation of a mutant run here
  /// that no killer of it backs, and says whether there was none.
  static func verify(_ runs: [MutantKillers], in chapters: [Chapter], root: String = ".") -> Bool {
    record(runs, root: root)
    var found: [String] = []
    for run in runs {
      guard let chapter = chapters.first(where: { $0.number == run.chapter }),
        let interview = TextFile.read(path(chapter.interviewPath, in: root))
      else { continue }
      found += problems(
        citing: run.number, name: run.name, killers: run.killers, interview: interview,
        interviewPath: chapter.interviewPath)
    }
    guard !found.isEmpty else { return true }
    print(Style.red("\n\(found.count) citation\(found.count == 1 ? "" : "s") of a mutant not backed by the test cited with it:"))
    for problem in found { print("  \(Style.red(Style.fail)) \(problem)") }
    return false
  }

  /// Writes the killers of the mutants just run into `killers.tsv`, keeping the rows of mutants not
  /// run this time (`--only`, or another chapter), sorted by chapter and number.
  static func record(_ runs: [MutantKillers], root: String = ".") {
    let file = path(killersFile, in: root)
    // The header row does not parse as a mutant's row and is written again below.
    let old = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").components(separatedBy: "\n")
      .compactMap(MutantKillers.init(row:))
    let replaced = Set(runs.map { "\($0.chapter)/\($0.number)/\($0.name)" })
    let rows = (old.filter { !replaced.contains("\($0.chapter)/\($0.number)/\($0.name)") } + runs)
      .sorted { ($0.chapter, $0.number, $0.name) < ($1.chapter, $1.number, $1.name) }
    try? FileManager.default.createDirectory(
      atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try? ((["chapter\tmutant\tname\tkillers"] + rows.map(\.row)).joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
  }
}
