import Foundation
import Testing

@testable import WorkbookKit

/// `make flashcards`: the file is read back the way Anki reads it and compared with the questions.
@Suite("Anki export")
struct AnkiExportTests {
  /// One note as read back from the file.
  struct Note: Equatable {
    let id: String
    let front: String
    let back: String
    let deck: String
    let tags: [String]
  }

  /// Reads the file as Anki does with these headers: `#` lines are headers or comments, the rest
  /// are tab-separated records; then undoes the HTML of each field.
  static func read(_ text: String) throws -> (header: [String], notes: [Note]) {
    var header: [String] = []
    var notes: [Note] = []
    for line in text.components(separatedBy: "\n") where !line.isEmpty {
      if line.hasPrefix("#") {
        header.append(line)
        continue
      }
      #expect(!line.contains("\""), "a raw double quote would start a quoted CSV field: \(line)")
      let fields = line.components(separatedBy: "\t")
      try #require(fields.count == 5, "five columns (id, front, back, deck, tags), got \(fields.count): \(line)")
      notes.append(
        Note(
          id: fields[0], front: unescape(fields[1]), back: unescape(fields[2]), deck: unescape(fields[3]),
          tags: fields[4].split(separator: " ").map(String.init)))
    }
    return (header, notes)
  }

  static func unescape(_ html: String) -> String {
    html.replacingOccurrences(of: "<br>", with: "\n")
      .replacingOccurrences(of: "<b>", with: "").replacingOccurrences(of: "</b>", with: "")
      .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#9;", with: "\t")
      .replacingOccurrences(of: "&amp;", with: "&")
  }

  /// What the back of a question's card must read once its HTML is undone.
  static func expectedBack(_ question: InterviewQuestion) -> String {
    "Model answer\n\(question.modelAnswer)\n\nFollow-ups\n\(question.followUps)\n\nRed flags\n\(question.redFlags)"
  }

  @Test("the header lines tell Anki the separator, HTML, note type and the id, deck and tags columns")
  func header() throws {
    let (header, _) = try Self.read(AnkiExport.text(sampleQuestions()))
    #expect(
      header == [
        "#separator:tab", "#html:true", "#notetype:Basic", "#guid column:1", "#deck column:4", "#tags column:5",
        "#columns:id\tFront\tBack\tDeck\tTags",
      ])
  }

  @Test("tabs, newlines, <, >, & and quotes survive the trip through the file")
  func escaping() throws {
    let questions = InterviewQuestion.parse(
      """
      ## Is `a < b && "c" > d`\tsafe?

      ### Model answer
      Use <b>bold</b> & "quotes"\twith a tab,
      and a second line.

      ### Follow-ups
      - `x &amp; y` stays as written.

      ### Red flags
      - # not a comment
      """, chapter: 9, chapterTitle: "Edge & <cases>")
    let text = AnkiExport.text(questions)
    let (_, notes) = try Self.read(text)
    try #require(notes.count == 1)
    #expect(notes[0].front == questions[0].heading)
    #expect(notes[0].back == Self.expectedBack(questions[0]))
    #expect(notes[0].deck == "iOS Systems Workbook::09 Edge & <cases>")
    #expect(notes[0].tags == ["ios-systems-workbook", "chapter-09"])
    #expect(text.components(separatedBy: "\n").filter { $0.hasPrefix("#") }.count == AnkiExport.header.count, "no card line starts with #")
  }

  @Test("every question of the workbook's chapters comes back from the file as it is in interview.md, one deck per chapter")
  func wholeWorkbook() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../..").standardized.path
    let catalog = try Catalog.load(root: root)
    let questions = InterviewQuestion.loadAll(catalog, root: root)
    try #require(!questions.isEmpty, "the workbook's chapters have interview questions")
    let workbook = try ScratchWorkbook(chapter7: false)
    let file = workbook.root + "/" + AnkiExport.relativePath
    try FlashcardsCommand.write(questions, to: file)
    let (_, notes) = try Self.read(try String(contentsOfFile: file, encoding: .utf8))
    #expect(notes.count == questions.count, "one card per question")
    for (note, question) in zip(notes, questions) {
      #expect(note.id == "ios-systems-workbook/\(question.key)")
      #expect(note.front == question.heading)
      #expect(note.back == Self.expectedBack(question), "the back of \(question.key)")
      #expect(note.tags.contains("chapter-0\(question.chapter)"))
    }
    #expect(Set(notes.map(\.deck)).count == catalog.chapters.count, "one deck per chapter")
    #expect(Set(notes.map(\.id)).count == notes.count, "ids are unique, so Anki matches each note on import")
  }
}
