import Foundation

/// How `make mutants` grades one mutant: its recorded killers first, the whole suite only when they
/// miss, as per-test mutant selection does in mutation tools such as Stryker.
///
/// The first run builds the mutant and runs the tests its chapter's `mutants/killers.tsv` recorded
/// as killing it, with any test its citations pair it with. A failure (or a crash) there kills it:
/// the rest of the suite cannot undo that. When every selected test passes, when none of them
/// exists any more (renamed or removed since the record: a filter that matches nothing is no kill),
/// or when there is no record, the whole suite runs, on the build already made.
///
/// The record stays the record of what was observed: a mutant killed by its killers records the
/// selected tests that failed this time (a recorded killer that no longer kills drops out); one that
/// needed the whole suite records every test that failed there. `--whole-suite` skips the first run,
/// for a record of every killer after tests were added.
enum KillersFirst {
  /// One mutant's grading: the run whose result counts, and whether it was the whole suite.
  struct Outcome {
    let result: ChapterResult
    let ranWholeSuite: Bool
  }

  /// What the first run selects for mutant `number` of `chapter`: its recorded killers (from the
  /// row of that number) and the tests cited with it. Nil when there are none.
  static func selection(
    for number: Int, of chapter: Chapter, recorded: [Int: MutantKillers]?, cited: Set<String>
  ) -> TestSelection? {
    TestSelection(module: chapter.module, names: (recorded?[number]?.killers ?? []) + cited)
  }

  /// Whether a run killed the mutant: it compiled, and a test failed or the test process crashed.
  static func killed(_ result: ChapterResult) -> Bool {
    result.compiled && (result.crash != nil || result.exercises.contains { !$0.failures.isEmpty })
  }

  /// Grades a mutant with `grade(selection, built)`, which runs only `selection` (all tests when
  /// nil) and skips the build when `built`.
  static func grade(
    first selection: TestSelection?, _ grade: (_ selection: TestSelection?, _ built: Bool) throws -> ChapterResult
  ) rethrows -> Outcome {
    guard let selection else { return Outcome(result: try grade(nil, false), ranWholeSuite: true) }
    let first = try grade(selection, false)
    // A mutant that does not compile says so; no test run would change that.
    if !first.compiled || killed(first) { return Outcome(result: first, ranWholeSuite: false) }
    return Outcome(result: try grade(nil, true), ranWholeSuite: true)
  }
}
