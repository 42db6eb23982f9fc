import Foundation

extension Checker {
  /// Where the benchmarks print their rows from.
  static let benchmarkFolder = "Support/Benchmarks"

  /// Every `` `make bench` row “X” `` (or `` `make bench-N` row “X” ``) in a chapter's Markdown
  /// files or the workbook's README must name a string literal `"X"` of
  /// `Support/Benchmarks/*.swift`: the row `make bench` prints. A label may wrap onto the next
  /// line, read as one space. Straight quotes (`row "X"`) are read the same way. A tree without
  /// the benchmarks (a partial copy) is not checked.
  func benchRowProblems(_ catalog: Catalog) -> [Problem] {
    guard exists(Checker.benchmarkFolder) else { return [] }
    let literals = benchmarkLiterals()
    var texts = ["README.md"]
    for chapter in catalog.chapters {
      texts += files(in: chapter.folder).filter { $0.hasSuffix(".md") && !$0.contains("/") }.map { "\(chapter.folder)/\($0)" }
    }
    var found: [Problem] = []
    for file in texts {
      guard let text = read(file) else { continue }
      for citation in benchCitations(text) where !literals.contains(citation.label) {
        found.append(
          Problem(
            rule: .benchRows,
            message: "\(file):\(citation.line): \(citation.command) row “\(citation.label)” is no row the benchmarks "
              + "print (no string literal \"\(citation.label)\" in \(Checker.benchmarkFolder)/*.swift); cite a row "
              + "label exactly as the benchmark prints it, or give the figure a primary source"))
      }
    }
    return found
  }

  /// Every string literal of the benchmarks' sources, unescaped only for `\"` and `\\`.
  func benchmarkLiterals() -> Set<String> {
    var literals = Set<String>()
    for file in files(in: Checker.benchmarkFolder) where file.hasSuffix(".swift") {
      let text = read("\(Checker.benchmarkFolder)/\(file)") ?? ""
      for match in matches(#""((?:[^"\\\n]|\\.)*)""#, in: text) {
        literals.insert(match[1].replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\"))
      }
    }
    return literals
  }
}

/// A cited benchmark row: `` `make bench` row “Row label” ``.
struct BenchCitation: Equatable {
  let line: Int
  /// `` `make bench` `` or `` `make bench-4` ``, as written.
  let command: String
  let label: String
}

/// The benchmark rows a text cites, with the line each citation starts on.
func benchCitations(_ text: String) -> [BenchCitation] {
  let pattern = #"(`make bench(?:-\d+)?`)\s+rows?\s+(?:“([^”]*)”|"([^"]*)")"#
  guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
  let range = NSRange(text.startIndex..., in: text)
  return regex.matches(in: text, range: range).compactMap { match in
    guard let whole = Range(match.range, in: text), let command = Range(match.range(at: 1), in: text) else { return nil }
    let quoted = Range(match.range(at: 2), in: text) ?? Range(match.range(at: 3), in: text)
    guard let quoted else { return nil }
    let label = text[quoted].replacingOccurrences(of: #"\s*\n\s*"#, with: " ", options: .regularExpression)
    let line = text[..<whole.lowerBound].filter { $0 == "\n" }.count + 1
    return BenchCitation(line: line, command: String(text[command]), label: label)
  }
}
