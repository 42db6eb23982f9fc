import Testing

@testable import WorkbookKit

/// How much of a failing test's message the grader shows under "First failure".
@Suite("grading: the lines of a failure shown")
struct FailureLinesTests {
  @Test("an expectation shows six lines; a crash twelve; a model-based test its whole shrunk sequence")
  func linesShown() {
    let long = (1...50).map { "line \($0)" }.joined(separator: "\n")
    #expect(GradeCommand.shownLines(of: long, crashed: false).count == 6)
    #expect(GradeCommand.shownLines(of: long, crashed: true).count == 12)
    let model = """
      Store against a Dictionary: SEED=4 disagrees with the model at step 3 of the 3 below, shrunk from its first 17 (3 seeds before it agreed). Replay: SEED=4 make chapter-1 EXERCISE=1
        - get(2): the model expected nil, the component gave 5
        1. set(5, for: 2)
        2. remove(2)
        3. get(2)
      """ + String(repeating: "\n  step", count: 10)
    let shown = GradeCommand.shownLines(of: model, crashed: false)
    #expect(shown.count == 15, "every step of a shrunk sequence is shown, not the first six lines: \(shown)")
    #expect(GradeCommand.shownLines(of: model + String(repeating: "\n  step", count: 100), crashed: false).count == 40)
  }
}
