import Foundation
import Testing

@testable import WorkbookKit

/// `starter.fingerprints`: an exercise whose files still hash as shipped reads not started with
/// no git at all, and `workbook check` names a starter edited without the file being rewritten.
@Suite("starter fingerprints")
struct FingerprintTests {
  @Test("64-bit FNV-1a gives the published test values; CRLF line ends hash as LF")
  func hash() {
    // Values from the FNV reference test suite (draft-eastlake-fnv).
    #expect(StarterFingerprints.fnv1a64([UInt8]()) == 0xcbf2_9ce4_8422_2325)
    #expect(StarterFingerprints.fnv1a64(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
    #expect(StarterFingerprints.fnv1a64(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
    #expect(StarterFingerprints.hash(Data("a".utf8)) == "af63dc4c8601ec8c")
    #expect(StarterFingerprints.hash(Data("x\r\ny\r\n".utf8)) == StarterFingerprints.hash(Data("x\ny\n".utf8)))
    #expect(StarterFingerprints.hash(Data("x\ny".utf8)) != StarterFingerprints.hash(Data("x\ny\n".utf8)))
  }

  func marked(_ workbook: ScratchWorkbook) throws -> [Bool?] {
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    var result = ChapterResult(
      chapter: 7, variant: Variant(), exercises: chapter.exercises.map { ExerciseResult(number: $0.number, title: $0.title) })
    GradeCommand.markUntouched(&result, chapter, root: workbook.root)
    return result.exercises.map(\.untouched)
  }

  @Test("the starter as shipped matches its manifest: not started, in a folder that is no git checkout")
  func match() throws {
    let workbook = try ScratchWorkbook()
    #expect(!workbook.exists(".git"))
    #expect(workbook.problems(adding: [.fingerprints]) == [])
    #expect(try marked(workbook) == [true, true])
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    #expect(StarterFingerprints.render(chapter, root: workbook.root) == (try workbook.read(StarterFingerprints.path(chapter))))

    // An untouched starter whose placeholder passes a test still reads not started.
    var exercise = ExerciseResult(number: 2, title: "Two counters")
    exercise.passed = 1
    exercise.failures = [TestCase(suite: "CountersTests.Exercise2_PairTests", name: "sums()", failure: "Expectation failed")]
    exercise.untouched = try marked(workbook)[1]
    #expect(exercise.notStarted)

    // A checkout that turned line ends into CRLF has not started anything.
    let counter = try workbook.read("Sources/Counters/Counter.swift")
    try workbook.write("Sources/Counters/Counter.swift", counter.replacingOccurrences(of: "\n", with: "\r\n"))
    #expect(try marked(workbook) == [true, true])
  }

  @Test("an edited exercise file is started; the check names the drift and the command that fixes it")
  func drift() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit("Sources/Counters/Counter.swift", replacing: "throw NotImplemented()", with: "value += 1")
    #expect(try marked(workbook) == [false, true], "the learner's edit starts exercise 1 only")

    let problems = workbook.problems(adding: [.fingerprints])
    #expect(problems.count == 1)
    let message = try #require(problems.first).description
    #expect(message.hasPrefix("[fingerprints] Chapters/07-counters/starter.fingerprints does not match the starter"))
    #expect(message.contains("Sources/Counters/Counter.swift changed since it was written"))
    #expect(message.contains("`make fingerprints`"))
    #expect(!message.contains("Pair.swift"))

    // Rewriting the manifest (what `make fingerprints` does) makes the edit the new starter.
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    try workbook.write(StarterFingerprints.path(chapter), StarterFingerprints.render(chapter, root: workbook.root))
    #expect(workbook.problems(adding: [.fingerprints]) == [])
    #expect(try marked(workbook) == [true, true])
  }

  @Test("a missing manifest, or one that lists a file no exercise has, is reported")
  func missingOrStale() throws {
    let workbook = try ScratchWorkbook()
    let manifest = "Chapters/07-counters/starter.fingerprints"
    let text = try workbook.read(manifest)
    try workbook.write(manifest, text + "Old.swift 0000000000000000\n")
    #expect(workbook.report(adding: [.fingerprints]).contains("it lists Old.swift, no exercise file of the chapter"))

    try workbook.remove(manifest)
    #expect(
      workbook.report(adding: [.fingerprints])
        == "[fingerprints] Chapters/07-counters/starter.fingerprints is missing; `make fingerprints` writes it from the starter")
    #expect(try marked(workbook) == [nil, nil], "no manifest and no git: unknown")
  }

  @Test("the real workbook's manifests match its starters")
  func realWorkbook() throws {
    let real = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../..").standardized.path
    var checker = Checker(root: real)
    checker.rules = [.fingerprints]
    #expect(checker.problems() == [])
  }
}
