import Testing

@testable import WorkbookKit

/// The tip under a failing chapter that builds on others: it names what grading last found, and
/// never calls a chapter unsolved that was simply never graded in this copy.
@Suite("The tip about composed chapters")
struct ComposedTipTests {
  @Test("a chapter last graded unsolved is named as not solved")
  func unsolved() {
    #expect(
      GradeCommand.composedTip(chapter: 7, unsolved: [3], ungraded: [])
        == "  Your chapter 3 is not solved yet (as last graded). A failure that comes from there (\"not implemented yet\" in its code) goes away with `make chapter-7 REFERENCE=3`."
    )
  }

  @Test("a chapter never graded here is named as not graded, not as unsolved")
  func ungraded() {
    let tip = GradeCommand.composedTip(chapter: 7, unsolved: [], ungraded: [1, 3]) ?? ""
    #expect(tip.contains("Your chapters 1, 3 have not been graded here yet."), "got: \(tip)")
    #expect(!tip.contains("not solved"), "got: \(tip)")
    #expect(tip.hasSuffix("`make chapter-7 REFERENCE=1,3`."), "got: \(tip)")
  }

  @Test("both kinds at once share one REFERENCE=, in chapter order")
  func both() {
    let tip = GradeCommand.composedTip(chapter: 7, unsolved: [3], ungraded: [1]) ?? ""
    #expect(tip.contains("Your chapter 3 is not solved yet (as last graded). Your chapter 1 has not been graded here yet."), "got: \(tip)")
    #expect(tip.hasSuffix("REFERENCE=1,3`."), "got: \(tip)")
  }

  @Test("no tip when every composed chapter was graded solved")
  func none() {
    #expect(GradeCommand.composedTip(chapter: 7, unsolved: [], ungraded: []) == nil)
  }
}
