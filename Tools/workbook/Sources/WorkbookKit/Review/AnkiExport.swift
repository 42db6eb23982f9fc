import Foundation

/// Every interview question as an Anki note, in the plain-text format Anki imports (File >
/// Import): Anki's manual, "Importing > Text Files > File Headers" (docs.ankiweb.net), and the
/// code that reads those headers, `rslib/src/import_export/text/csv/metadata.rs` in
/// ankitects/anki.
///
/// The file starts with header lines, each `#key:value`, so the import needs no choices: tab
/// separated, fields are HTML, the Basic note type, and which columns hold the note's id, its
/// deck and its tags. Then one line per question, five columns:
///
///     id  front (the question)  back (model answer, follow-ups, red flags)  deck  tags
///
/// - id: `ios-systems-workbook/<question key>`, Anki's GUID column, so importing a newer file
///   matches the notes already imported instead of adding copies.
/// - deck: `iOS Systems Workbook::01 Data store`; `::` makes each chapter a subdeck.
/// - tags: `ios-systems-workbook chapter-01`, space separated.
///
/// Escaping: Anki reads the lines as CSV (the Rust `csv` crate) with `#` starting a comment line
/// anywhere in the file, and with `#html:true` shows a field as HTML. So a field never holds a raw
/// tab, newline or double quote, which would end or quote the field: `&`, `<`, `>`, `"` and tab
/// become `&amp;`, `&lt;`, `&gt;`, `&quot;` and `&#9;`, and a newline becomes `<br>`. No line
/// starts with `#` because every line starts with its id.
enum AnkiExport {
  static let relativePath = ".workbook/flashcards.txt"
  static let deckRoot = "iOS Systems Workbook"
  static let tagRoot = "ios-systems-workbook"
  /// The column of each meta field, counting from 1 as Anki does.
  static let idColumn = 1
  static let deckColumn = 4
  static let tagsColumn = 5

  static let header = [
    "#separator:tab",
    "#html:true",
    "#notetype:Basic",
    "#guid column:\(idColumn)",
    "#deck column:\(deckColumn)",
    "#tags column:\(tagsColumn)",
    "#columns:id\tFront\tBack\tDeck\tTags",
  ]

  /// The whole file.
  ///
  /// - Complexity: O(n) in the total length of the questions.
  static func text(_ questions: [InterviewQuestion]) -> String {
    let lines = questions.map { question in
      [id(question), escape(question.heading), back(question), deck(question), tags(question)]
        .joined(separator: "\t")
    }
    return (header + lines).joined(separator: "\n") + "\n"
  }

  static func id(_ question: InterviewQuestion) -> String {
    "\(tagRoot)/\(question.key)"
  }

  static func deck(_ question: InterviewQuestion) -> String {
    if let drill = question.drill { return escape("\(deckRoot)::Drills::\(drill)") }
    let number = question.chapter < 10 ? "0\(question.chapter)" : "\(question.chapter)"
    return escape("\(deckRoot)::\(number) \(question.chapterTitle)")
  }

  static func tags(_ question: InterviewQuestion) -> String {
    if let drill = question.drill { return "\(tagRoot) drill-\(drill)" }
    let number = question.chapter < 10 ? "0\(question.chapter)" : "\(question.chapter)"
    return "\(tagRoot) chapter-\(number)"
  }

  /// The back of the card: each part under a bold label, a blank line between parts. A question
  /// without the usual parts shows its whole body.
  static func back(_ question: InterviewQuestion) -> String {
    let parts = [
      ("Model answer", question.modelAnswer), ("Follow-ups", question.followUps), ("Red flags", question.redFlags),
    ].filter { !$0.1.isEmpty }
    guard !parts.isEmpty else { return escape(question.body) }
    return parts.map { "<b>\($0.0)</b><br>" + escape($0.1) }.joined(separator: "<br><br>")
  }

  /// Text as one field of the file: HTML-escaped, newlines as `<br>`, nothing that ends a field.
  static func escape(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "\t": result += "&#9;"
      case "\n", "\r\n": result += "<br>"
      case "\r": continue
      default: result.append(character)
      }
    }
    return result
  }
}
