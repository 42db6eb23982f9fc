import Foundation

/// One item of a `Checked by:` line: a test, and the mutants it is cited as killing.
struct CitedTest: Equatable {
  /// The test function's name, as in `func name(`.
  let test: String
  /// The numbers of `(mutant 7)` or `(mutants 07, 12)`, as integers; empty when none follow.
  let mutants: [Int]
  /// The line of `interview.md` the test's name is on (a `Checked by:` paragraph may wrap).
  let line: Int
}

/// How a model answer ends: the tests (and mutants) that prove its claim, or what it speaks of that
/// the workbook does not build, with the source to read instead.
enum AnswerEnding: Equatable {
  case checkedBy([CitedTest], line: Int)
  case notBuiltHere(what: String, source: String, line: Int)

  var line: Int {
    switch self {
    case .checkedBy(_, let line), .notBuiltHere(_, _, let line): line
    }
  }
}

/// A paragraph that starts like an ending and does not follow its grammar.
struct CitationError: Error, Equatable {
  let line: Int
  let message: String
}

/// A paragraph of Markdown: its lines, and the line the first one is on (counted from 1).
struct Paragraph: Equatable {
  let line: Int
  let lines: [String]

  var text: String { lines.joined(separator: "\n") }
}

/// One `## ` question of `interview.md`, read for its ending.
struct InterviewCitations {
  let heading: String
  let line: Int
  /// Whether the question has a `### Model answer` heading.
  let hasModelAnswer: Bool
  /// The paragraphs of the model answer, in order, outside code fences.
  let modelAnswer: [Paragraph]
  /// `Checked by:` or `Not built here:` paragraphs outside the model answer (in the follow-ups,
  /// say): where the walkthrough would show them as part of another section.
  let strayEndings: [Paragraph]

  /// The model answer's paragraphs that are endings, parsed (or the error that stops each).
  var endings: [Result<AnswerEnding, CitationError>] {
    modelAnswer.filter(Citations.isEnding).map { Citations.parse($0) }
  }
}

/// The grammar of a model answer's last paragraph:
///
///     Checked by: `testName` (mutant 07), `otherTest` (mutants 07, 12)
///     Not built here: <what the workbook does not build>; source: <primary source>
///
/// A `Checked by:` paragraph may wrap onto the lines after it until a blank line. Its items are
/// separated by commas; each is a test function's name in backticks, then ` (mutant N)` for one
/// mutant or ` (mutants N, M…)` for several (the `interview` rule wants one on every test) (numbers compared as integers, so `07` and
/// `7` are one mutant). One final `.` is allowed. Anything else is an error that says what to
/// write instead.
enum Citations {
  static let checkedByPrefix = "Checked by:"
  static let notBuiltPrefix = "Not built here:"

  static func isEnding(_ paragraph: Paragraph) -> Bool {
    let first = paragraph.lines.first ?? ""
    return first.hasPrefix(checkedByPrefix) || first.hasPrefix(notBuiltPrefix)
  }

  /// Every question of an interview's text, with its model answer cut into paragraphs. A line that
  /// starts with `Checked by:` or `Not built here:` starts a paragraph of its own even with no
  /// blank line above it.
  static func questions(in text: String) -> [InterviewCitations] {
    var questions: [InterviewCitations] = []
    var heading: String?
    var headingLine = 0
    var part: String?
    var hasModelAnswer = false
    var answer: [Paragraph] = []
    var stray: [Paragraph] = []
    var current: (line: Int, lines: [String])?
    var inFence = false

    func endParagraph() {
      guard let paragraph = current else { return }
      current = nil
      let read = Paragraph(line: paragraph.line, lines: paragraph.lines)
      if part == "Model answer" {
        answer.append(read)
      } else if isEnding(read) {
        stray.append(read)
      }
    }
    func endQuestion() {
      endParagraph()
      if let heading {
        questions.append(
          InterviewCitations(
            heading: heading, line: headingLine, hasModelAnswer: hasModelAnswer, modelAnswer: answer, strayEndings: stray))
      }
      answer = []
      stray = []
      part = nil
      hasModelAnswer = false
    }

    for (index, line) in text.components(separatedBy: "\n").enumerated() {
      let number = index + 1
      if line.hasPrefix("```") {
        endParagraph()
        inFence.toggle()
        continue
      }
      if inFence { continue }
      if line.hasPrefix("## ") {
        endQuestion()
        heading = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
        headingLine = number
        continue
      }
      if line.hasPrefix("### ") {
        endParagraph()
        part = String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces)
        if part == "Model answer" { hasModelAnswer = true }
        continue
      }
      if line.hasPrefix("# ") {
        endParagraph()
        continue
      }
      if line.trimmingCharacters(in: .whitespaces).isEmpty {
        endParagraph()
        continue
      }
      if line.hasPrefix(checkedByPrefix) || line.hasPrefix(notBuiltPrefix) { endParagraph() }
      if current == nil {
        current = (number, [line])
      } else {
        current?.lines.append(line)
      }
    }
    endQuestion()
    return questions
  }

  /// Parses an ending paragraph (one that `isEnding`).
  static func parse(_ paragraph: Paragraph) -> Result<AnswerEnding, CitationError> {
    let first = paragraph.lines.first ?? ""
    if first.hasPrefix(notBuiltPrefix) { return parseNotBuilt(paragraph) }
    return parseCheckedBy(paragraph)
  }

  static func parseNotBuilt(_ paragraph: Paragraph) -> Result<AnswerEnding, CitationError> {
    let text = paragraph.lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    let rest = text.dropFirst(notBuiltPrefix.count)
    let shape = "write `Not built here: <what the workbook does not build>; source: <primary source, such as RFC 9111 §5.2>`"
    guard let range = rest.range(of: "; source:") else {
      return .failure(CitationError(line: paragraph.line, message: "a `Not built here:` line with no `; source:`; \(shape)"))
    }
    let what = rest[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
    let source = rest[range.upperBound...].trimmingCharacters(in: .whitespaces)
    if what.isEmpty {
      return .failure(
        CitationError(line: paragraph.line, message: "a `Not built here:` line that does not say what is not built; \(shape)"))
    }
    if source.isEmpty || source == "." {
      return .failure(CitationError(line: paragraph.line, message: "a `Not built here:` line whose source is empty; \(shape)"))
    }
    return .success(.notBuiltHere(what: what, source: source, line: paragraph.line))
  }

  /// Parses `Checked by: …` into its items.
  static func parseCheckedBy(_ paragraph: Paragraph) -> Result<AnswerEnding, CitationError> {
    var scanner = CitationScanner(paragraph)
    scanner.skip(checkedByPrefix.count)
    var items: [CitedTest] = []
    let shape = "write `Checked by: `testName` (mutant 07), `otherTest` (mutants 07, 12)`, items separated by commas"
    func failure(_ message: String) -> Result<AnswerEnding, CitationError> {
      .failure(CitationError(line: scanner.line, message: "\(message); \(shape)"))
    }
    while true {
      scanner.skipSpaces()
      guard scanner.peek == "`" else {
        if scanner.atEnd {
          return items.isEmpty ? failure("a `Checked by:` line that names no test") : failure("a `Checked by:` line that ends in a comma")
        }
        return failure("“\(scanner.rest(20))” where a test's name in backticks belongs")
      }
      let line = scanner.line
      scanner.skip(1)
      let name = scanner.take { $0 != "`" && $0 != "\n" }
      guard scanner.peek == "`" else { return failure("an unclosed backtick before “\(name)”") }
      scanner.skip(1)
      guard isIdentifier(name) else {
        return failure("`\(name)` is not a test function's name (write the name alone, as in `func name(`)")
      }
      scanner.skipSpaces()
      var mutants: [Int] = []
      if scanner.peek == "(" {
        let open = scanner.line
        scanner.skip(1)
        let inside = scanner.take { $0 != ")" && $0 != "`" }
        guard scanner.peek == ")" else {
          return .failure(CitationError(line: open, message: "an unclosed “(” after `\(name)`; \(shape)"))
        }
        scanner.skip(1)
        switch parseMutantList(inside) {
        case .success(let numbers): mutants = numbers
        case .failure(let message): return .failure(CitationError(line: open, message: "after `\(name)`: \(message)"))
        }
        scanner.skipSpaces()
      }
      items.append(CitedTest(test: name, mutants: mutants, line: line))
      if scanner.peek == "," {
        scanner.skip(1)
        continue
      }
      if scanner.peek == "." { scanner.skip(1) }
      scanner.skipSpaces()
      if scanner.atEnd { break }
      return failure("“\(scanner.rest(20))” after `\(name)`, where a comma or the end of the line belongs")
    }
    return .success(.checkedBy(items, line: paragraph.line))
  }

  /// The numbers of `mutant 7` or `mutants 07, 12` (the text inside the parentheses).
  static func parseMutantList(_ text: String) -> Result<[Int], MutantListError> {
    let words = text.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
    let example = "write `(mutant 07)` for one, `(mutants 07, 12)` for several"
    let keyword = words.prefix { $0.isLetter }
    guard keyword == "mutant" || keyword == "mutants" else {
      return .failure(MutantListError("“(\(words))” is no mutant list; \(example)"))
    }
    let list = words.dropFirst(keyword.count).split(separator: ",", omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: .whitespaces) }
    var numbers: [Int] = []
    for item in list {
      guard !item.isEmpty, item.allSatisfy(\.isASCII), item.allSatisfy(\.isNumber), let number = Int(item) else {
        return .failure(MutantListError("“(\(words))”: “\(item)” is not a mutant's number; \(example)"))
      }
      numbers.append(number)
    }
    if keyword == "mutant", numbers.count > 1 {
      return .failure(MutantListError("“(\(words))” names \(numbers.count) mutants; write `(mutants …)`"))
    }
    if keyword == "mutants", numbers.count == 1 {
      return .failure(MutantListError("“(\(words))” names one mutant; write `(mutant \(list[0]))`"))
    }
    return .success(numbers)
  }

  struct MutantListError: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
  }

  static func isIdentifier(_ text: String) -> Bool {
    guard let first = text.first, first.isLetter || first == "_" else { return false }
    return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
  }
}

extension Citations.MutantListError: CustomStringConvertible {
  var description: String { message }
}

/// Reads a paragraph character by character, knowing each character's line.
private struct CitationScanner {
  private let characters: [Character]
  private let lines: [Int]
  private var index = 0

  init(_ paragraph: Paragraph) {
    var characters: [Character] = []
    var lines: [Int] = []
    for (offset, line) in paragraph.lines.enumerated() {
      if offset > 0 {
        characters.append("\n")
        lines.append(paragraph.line + offset)
      }
      for character in line {
        characters.append(character)
        lines.append(paragraph.line + offset)
      }
    }
    self.characters = characters
    self.lines = lines
  }

  var atEnd: Bool { index >= characters.count }
  var peek: Character? { atEnd ? nil : characters[index] }
  var line: Int { atEnd ? (lines.last ?? 0) : lines[index] }

  mutating func skip(_ count: Int) { index = min(index + count, characters.count) }

  mutating func skipSpaces() {
    while let character = peek, character.isWhitespace { index += 1 }
  }

  mutating func take(while condition: (Character) -> Bool) -> String {
    var taken = ""
    while let character = peek, condition(character) {
      taken.append(character)
      index += 1
    }
    return taken
  }

  func rest(_ count: Int) -> String {
    String(characters[index...].prefix(count)).replacingOccurrences(of: "\n", with: " ")
  }
}
