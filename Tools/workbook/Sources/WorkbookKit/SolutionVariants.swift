import Foundation

// A solution variant is a different correct solution a chapter allows, written as a change to its
// reference answer in the mutant format, closed with `>>>>>>> variant`:
// `Chapters/NN-name/variants/NN-name.variant`. `make variants` grades each one and fails unless
// every test of the chapter passes, as many of them as for the answer itself. (Not to be confused
// with `Variant`, which code a grading run compiles.)

/// The variants of a chapter: `Chapters/NN-name/variants/*.variant`, in name order.
func variantFiles(_ chapter: Chapter, root: String = ".") -> [String] {
  answerEditFiles(in: chapter.variantsPath, kind: .variant, root: root)
}

/// Parses every variant of `chapter`, checks its `title:` and `why:`, and applies it to a scratch
/// copy of the answer, without building: what is wrong with each one (nothing when all are fine).
func variantFileProblems(_ chapter: Chapter, root: String = ".") -> (count: Int, problems: [String]) {
  let files = variantFiles(chapter, root: root)
  var problems: [String] = []
  for file in files {
    if let problem = answerEditProblem(file, kind: .variant, chapter, root: root) {
      problems.append(problem)
      continue
    }
    guard let variant = try? Mutant(path: path(file, in: root), kind: .variant) else { continue }
    if variant.statedTitle.isEmpty {
      problems.append("\(file): no `title:`; say in a few words which solution this is")
    }
    if variant.why.isEmpty {
      problems.append("\(file): no `why:`; name the choice the chapter leaves open that this solution takes")
    }
    if mutantNumber(file) == nil {
      problems.append("\(file): name it `NN-name.variant`, starting with its number (`make variants VARIANTS=NN` runs it)")
    }
  }
  return (files.count, problems)
}

/// Whether a graded variant passes: it compiled, nothing crashed, no test failed or was skipped,
/// and each exercise ran as many tests as the unmodified answer.
enum VariantVerdict {
  /// How many tests each exercise of the unmodified answer ran, by exercise number.
  static func testCounts(_ result: ChapterResult) -> [Int: Int] {
    Dictionary(uniqueKeysWithValues: result.exercises.map { ($0.number, $0.total) })
  }

  /// What is wrong with `result`, a grading of a variant (or of the answer itself, with no
  /// `expected` counts), one item per line to show; empty when it passes. A failing test is shown
  /// with the first `lines` lines of its message.
  static func problems(_ result: ChapterResult, expected: [Int: Int]? = nil, lines: Int = 4) -> [String] {
    guard result.compiled else { return ["it does not compile (the errors are above)"] }
    var found: [String] = []
    if let crash = result.crash {
      let head = crash.components(separatedBy: "\n").prefix(lines).joined(separator: "\n")
      found.append(head)
    }
    for exercise in result.exercises {
      let place = "exercise \(exercise.number)"
      for failure in exercise.failures {
        let message = (failure.failure ?? "failed").components(separatedBy: "\n").filter { !$0.isEmpty }.prefix(lines)
        found.append("\(place), `\(failure.name)`:\n" + message.map(explain).joined(separator: "\n"))
      }
      for name in exercise.skipped ?? [] {
        found.append("\(place), `\(name)` was skipped: every test must run")
      }
      if let count = expected?[exercise.number], count != exercise.total {
        found.append(
          "\(place) ran \(exercise.total) test\(exercise.total == 1 ? "" : "s"), the answer runs \(count): "
            + "every test must run, and no more")
      } else if expected == nil, exercise.total == 0 {
        found.append("\(place): no tests ran")
      }
    }
    return found
  }
}
