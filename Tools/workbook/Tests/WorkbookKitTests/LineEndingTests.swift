import Foundation
import Testing

@testable import WorkbookKit

/// Files as a learner on Windows has them: every chapter's texts saved with CRLF line endings (or
/// a lone CR) give the tool the same cards, hints, walkthrough, mutants and fingerprints as the LF
/// files in the repository, and `workbook check` names each file that is not LF.
@Suite("Line endings")
struct LineEndingTests {
  static let real = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../..").standardized.path

  /// A scratch workbook holding a copy of the real `Chapters/`, every text file's line endings
  /// turned into `ending`.
  static func copy(ending: String) throws -> ScratchWorkbook {
    let workbook = try ScratchWorkbook(chapter7: false)
    let manager = FileManager.default
    for file in try manager.subpathsOfDirectory(atPath: real + "/Chapters").sorted() {
      var isFolder: ObjCBool = false
      guard manager.fileExists(atPath: "\(real)/Chapters/\(file)", isDirectory: &isFolder), !isFolder.boolValue else { continue }
      let text = try String(contentsOfFile: "\(real)/Chapters/\(file)", encoding: .utf8)
      try #require(!text.contains("\r"), "the repository's own Chapters/\(file) is LF")
      try workbook.write("Chapters/\(file)", text.replacingOccurrences(of: "\n", with: ending))
    }
    return workbook
  }

  @Test("CRLF and a lone CR read as LF; LF text is left as it is")
  func normalized() {
    #expect(TextFile.normalized("a\r\nb\rc\n\r\n") == "a\nb\nc\n\n")
    #expect(TextFile.normalized("## Title\r\n\r\nbody") == "## Title\n\nbody")
    #expect(TextFile.normalized("é\r\n✔\r") == "é\n✔\n", "bytes of other characters are untouched")
    #expect(TextFile.normalized("plain\n") == "plain\n")
    #expect(TextFile.carriageReturns(Data("a\r\nb\rc\n".utf8)) == 2)
  }

  @Test(
    "every chapter's texts in CRLF (or CR) give the same cards, hints, walkthrough, mutants, drill and fingerprints as in LF",
    arguments: ["\r\n", "\r"])
  func sameResults(ending: String) throws {
    let lf = try Self.copy(ending: "\n")
    let other = try Self.copy(ending: ending)
    let catalog = try Catalog.load(root: lf.root)
    let otherCatalog = try Catalog.load(root: other.root)
    #expect(catalog.chapters.map(\.number) == otherCatalog.chapters.map(\.number))
    #expect(catalog.chapters.map(\.exercises) == otherCatalog.chapters.map(\.exercises), "exercises.json")

    var reports: [String] = []
    let cards = InterviewQuestion.loadAll(catalog, root: lf.root) { reports.append($0) }
    let otherCards = InterviewQuestion.loadAll(otherCatalog, root: other.root) { reports.append($0) }
    #expect(reports.isEmpty, "no chapter left out: \(reports)")
    #expect(Set(cards.map(\.chapter)) == Set(catalog.chapters.map(\.number)), "every chapter has questions")
    #expect(otherCards == cards)
    #expect(AnkiExport.text(otherCards) == AnkiExport.text(cards), "the flashcards")
    #expect(otherCards.map { WalkthroughCommand.render($0.body) } == cards.map { WalkthroughCommand.render($0.body) })

    for chapter in catalog.chapters {
      for exercise in chapter.exercises {
        let hint = try HintCommand.hint(for: exercise.number, chapter, root: lf.root)
        #expect(try HintCommand.hint(for: exercise.number, chapter, root: other.root) == hint)
        #expect(!hint.contains("\r"))
      }
      let mutants = mutantFiles(chapter, root: lf.root)
      #expect(mutantFiles(chapter, root: other.root) == mutants)
      for file in mutants {
        let mutant = try Mutant(path: "\(lf.root)/\(file)")
        let otherMutant = try Mutant(path: "\(other.root)/\(file)")
        #expect(otherMutant.title == mutant.title && otherMutant.why == mutant.why, "\(file)")
        #expect(otherMutant.replacements.map(\.answer) == mutant.replacements.map(\.answer), "\(file)")
        #expect(otherMutant.replacements.map(\.mutant) == mutant.replacements.map(\.mutant), "\(file)")
      }
      let fingerprints = try #require(StarterFingerprints.recorded(chapter, root: lf.root))
      #expect(StarterFingerprints.recorded(chapter, root: other.root) == fingerprints)
      if let drill = chapter.extras.drill {
        let sections = try markdownSections("\(lf.root)/\(chapter.folder)/\(drill)")
        let otherSections = try markdownSections("\(other.root)/\(chapter.folder)/\(drill)")
        #expect(otherSections.map(\.heading) == sections.map(\.heading))
        #expect(otherSections.map(\.body) == sections.map(\.body))
        #expect(sections.compactMap(DrillCommand.phase).count > 0)
      }
    }
  }

  @Test("a starter saved with CRLF line endings hashes as its LF text, and so does one with lone CRs")
  func fingerprintsIgnoreLineEndings() {
    let lf = StarterFingerprints.hash(Data("a\nb\n".utf8))
    #expect(StarterFingerprints.hash(Data("a\r\nb\r\n".utf8)) == lf)
    #expect(StarterFingerprints.hash(Data("a\rb\r".utf8)) == lf)
    #expect(StarterFingerprints.hash(Data("a\nb".utf8)) != lf)
  }

  @Test("workbook check names each file with CRLF line endings and how to convert it; LF files pass")
  func checkNamesCRLFFiles() throws {
    let lf = try Self.copy(ending: "\n")
    var checker = Checker(root: lf.root)
    checker.rules = [.lineEndings]
    #expect(checker.problems().isEmpty)

    let crlf = try Self.copy(ending: "\r\n")
    try crlf.write("Chapters/02-observable/figure.png", "\u{89}PNG\r\n\u{1A}\n")
    checker = Checker(root: crlf.root)
    checker.rules = [.lineEndings]
    let problems = checker.problems()
    let named = Set(problems.compactMap { $0.message.split(separator: " ").first.map(String.init) })
    let expected = Set(
      try FileManager.default.subpathsOfDirectory(atPath: crlf.root + "/Chapters").filter { file in
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: "\(crlf.root)/Chapters/\(file)", isDirectory: &isFolder)
          && !isFolder.boolValue && !file.hasSuffix(".png")
      }.map { "Chapters/\($0)" })
    #expect(named == expected, "every text file, and no image")
    let interview = try #require(problems.first { $0.message.hasPrefix("Chapters/02-observable/interview.md ") })
    #expect(interview.rule == .lineEndings)
    #expect(interview.message.contains("CRLF (Windows)"))
    #expect(interview.message.contains("perl -pi -e 's/\\r\\n?/\\n/g' Chapters/02-observable/interview.md"))
    #expect(interview.description.hasPrefix("[line-endings] "))
  }

  @Test("an interview that cannot be read is reported with its chapter, and the other chapters' cards are kept")
  func unreadableInterviewIsReported() throws {
    let workbook = try Self.copy(ending: "\n")
    let catalog = try Catalog.load(root: workbook.root)
    let all = InterviewQuestion.loadAll(catalog, root: workbook.root) { Issue.record("nothing to report: \($0)") }
    let url = URL(fileURLWithPath: workbook.root + "/Chapters/02-observable/interview.md")
    try Data([0x23, 0x23, 0x20, 0xFF, 0xFE, 0x0A]).write(to: url)
    var reports: [String] = []
    var questions = InterviewQuestion.loadAll(catalog, root: workbook.root) { reports.append($0) }
    #expect(reports == ["Chapters/02-observable/interview.md cannot be read: it is not UTF-8 text; save it as UTF-8: chapter 2 is left out"])
    #expect(questions == all.filter { $0.chapter != 2 })

    try workbook.write("Chapters/02-observable/interview.md", "# Interview\n\nNo questions yet.\n")
    reports = []
    questions = InterviewQuestion.loadAll(catalog, root: workbook.root) { reports.append($0) }
    #expect(reports == ["Chapters/02-observable/interview.md has no `## ` questions: chapter 2 is left out"])

    try workbook.remove("Chapters/02-observable/interview.md")
    reports = []
    _ = InterviewQuestion.loadAll(catalog, root: workbook.root) { reports.append($0) }
    #expect(reports == ["Chapters/02-observable/interview.md is missing: chapter 2 is left out"])
  }
}

/// The drill's history is a file the tool parses too: one it cannot read is set aside and said so,
/// never overwritten in silence.
@Suite("Drill history")
struct DrillHistoryTests {
  @Test("an unreadable drill history is set aside with a line that says where, and the attempts start afresh")
  func corruptHistory() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    try workbook.write(".workbook/drill-history.json", "[{ \"date\": ")
    var said: [String] = []
    let file = workbook.root + "/.workbook/drill-history.json"
    let (attempts, persist) = DrillHistory.load(file, now: Date(timeIntervalSince1970: 1_800_000_000)) { said.append($0) }
    #expect(attempts.isEmpty && persist)
    #expect(try workbook.read(".workbook/drill-history.json.corrupt-1800000000") == "[{ \"date\": ", "kept as it was")
    #expect(said == ["\(file) cannot be read: it was set aside as \(file).corrupt-1800000000, and your attempts start afresh."])
    #expect(!workbook.exists(".workbook/drill-history.json"))
  }
}
