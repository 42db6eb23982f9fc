import Foundation

extension Checker {
  /// Where the benchmarks print their rows from.
  static let benchmarkFolder = "Support/Benchmarks"

  /// Every `` `make bench` row “X” `` (or `` `make bench-N` row “X” ``) in a chapter's Markdown
  /// files or the workbook's README must name a string literal `"X"` of
  /// `Support/Benchmarks/*.swift`: the row `make bench` prints. A label may wrap onto the next
  /// line, read as one space. Straight quotes (`row "X"`) are read the same way. A tree without
  /// the benchmarks (a partial copy) is not checked.
  ///
  /// Every ratio the sentence quotes after the citation (`1.9–2.9×`, up to the sentence's end or
  /// the next citation) must be a ratio that row printed in a recorded run
  /// (`Chapters/NN-*/bench/*.txt`, written by `make bench`), as the text rounds it: a figure from
  /// a run nobody kept, or one the code no longer produces, is refused.
  func benchRowProblems(_ catalog: Catalog) -> [Problem] {
    guard exists(Checker.benchmarkFolder) else { return [] }
    let literals = benchmarkLiterals()
    let records = benchRecords(catalog)
    var texts = ["README.md"]
    for chapter in catalog.chapters {
      texts += files(in: chapter.folder).filter { $0.hasSuffix(".md") && !$0.contains("/") }.map { "\(chapter.folder)/\($0)" }
    }
    var found: [Problem] = []
    for file in texts {
      guard let text = read(file) else { continue }
      for citation in benchCitations(text) {
        let recorded = records.ratios[citation.label] != nil
        guard literals.contains(citation.label) || recorded else {
          found.append(
            Problem(
              rule: .benchRows,
              message: "\(file):\(citation.line): \(citation.command) row “\(citation.label)” is no row the benchmarks "
                + "print (no string literal \"\(citation.label)\" in \(Checker.benchmarkFolder)/*.swift, and no recorded "
                + "run has it); cite a row label exactly as the benchmark prints it, or give the figure a primary source"))
          continue
        }
        for figure in citation.figures
        where !figure.values.allSatisfy({ records.records($0.value, decimals: $0.decimals, for: citation.label) }) {
          let printed = (records.ratios[citation.label] ?? []).sorted()
          let what =
            printed.isEmpty
            ? (records.files.isEmpty
              ? "there is no recorded run (Chapters/NN-*/\(Checker.benchRecordFolder)/*.txt)"
              : "no recorded run has that row")
            : String(format: "its recorded runs printed %.2f× to %.2f×", printed[0], printed[printed.count - 1])
          found.append(
            Problem(
              rule: .benchRows,
              message: "\(file):\(citation.line): \(citation.command) row “\(citation.label)” is quoted at "
                + "\(figure.text), which no recorded run of that row printed (\(what)); quote a ratio from a file of "
                + "Chapters/NN-*/\(Checker.benchRecordFolder)/, or run `make bench` to record one"))
        }
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

/// A cited benchmark row: `` `make bench` row “Row label” ``, with the ratios quoted after it.
struct BenchCitation: Equatable {
  let line: Int
  /// `` `make bench` `` or `` `make bench-4` ``, as written.
  let command: String
  let label: String
  /// The ratios between the citation and the end of its sentence (or the next citation, or the
  /// paragraph's end): the figures the row is quoted at. Another row named without
  /// `` `make bench` `` (`against row “NSLock”`) is a baseline, and its figures stay with the cited row.
  var figures: [BenchFigure] = []
}

/// The benchmark rows a text cites, with the line each citation starts on.
func benchCitations(_ text: String) -> [BenchCitation] {
  let pattern = #"(`make\s+bench(?:-\d+)?`)\s+rows?\s+(?:“([^”]*)”|"([^"]*)")"#
  guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
  let range = NSRange(text.startIndex..., in: text)
  let found = regex.matches(in: text, range: range)
  return found.enumerated().compactMap { index, match in
    guard let whole = Range(match.range, in: text), let command = Range(match.range(at: 1), in: text) else { return nil }
    let quoted = Range(match.range(at: 2), in: text) ?? Range(match.range(at: 3), in: text)
    guard let quoted else { return nil }
    let label = text[quoted].replacingOccurrences(of: #"\s*\n\s*"#, with: " ", options: .regularExpression)
    let line = text[..<whole.lowerBound].filter { $0 == "\n" }.count + 1
    let next = index + 1 < found.count ? Range(found[index + 1].range, in: text)?.lowerBound : nil
    var scope = text[whole.upperBound..<(next ?? text.endIndex)]
    if let end = scope.range(of: #"\.(?=\s|$)|\n[ \t]*\n"#, options: .regularExpression) {
      scope = scope[..<end.lowerBound]
    }
    let written = text[command].replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
    return BenchCitation(line: line, command: written, label: label, figures: benchFigures(String(scope)))
  }
}
