import Foundation

/// The rows of the recorded `make bench` runs, `Chapters/NN-*/bench/*.txt`: what a figure in a text
/// is compared with.
struct BenchRecords {
  /// Every ratio each row label printed, over all the recorded runs.
  var ratios: [String: [Double]] = [:]
  /// The record files read, relative to the workbook.
  var files: [String] = []

  /// Whether a figure written with `decimals` decimals is one of `label`'s recorded ratios, rounded
  /// the way the text rounds it (`2×` matches 1.5 up to 2.5, `2.3×` matches 2.25 up to 2.35).
  func records(_ figure: Double, decimals: Int, for label: String) -> Bool {
    let tolerance = 0.5 * pow(10, -Double(decimals)) + 1e-9
    return (ratios[label] ?? []).contains { abs($0 - figure) <= tolerance }
  }
}

/// The rows of one recorded run. A row is an indented line holding a label, two or more spaces,
/// and then figures only (`35.4  2.10×`, `1.17×  0.99×`, `+0.05`), as `make bench` prints its
/// tables; its ratios are the figures that end in `×`. Headers, notes and verdicts have words
/// after the label and are no rows.
func benchRecordRows(_ text: String) -> [(label: String, ratios: [Double])] {
  let figure = #"[-+]?\d+(?:\.\d+)?×?"#
  return matches(#"^[ \t]+(\S.*?)[ \t]{2,}(\#(figure)(?:[ \t]+\#(figure))*)[ \t]*$"#, in: text).map { row in
    let ratios = matches(#"([-+]?\d+(?:\.\d+)?)×"#, in: row[2]).compactMap { Double($0[1]) }
    return (row[1], ratios)
  }
}

/// A ratio a text quotes after a cited row: `2.1×`, or a range `1.9–2.9×` (both ends are figures).
struct BenchFigure: Equatable {
  /// As written, `1.9–2.9×`.
  let text: String
  /// Each number with the decimals it is written with.
  let values: [Number]

  /// A number as the text writes it: its value, and how many decimals the text rounds it to.
  struct Number: Equatable {
    let value: Double
    let decimals: Int
  }
}

/// The ratios in `text` (the words after one citation).
func benchFigures(_ text: String) -> [BenchFigure] {
  matches(#"(\d+(?:\.\d+)?)(?:\s*[–-]\s*(\d+(?:\.\d+)?))?×"#, in: text).map { match in
    let numbers = [match[1], match[2]].filter { !$0.isEmpty }
    return BenchFigure(
      text: match[0],
      values: numbers.map { number in
        BenchFigure.Number(value: Double(number) ?? 0, decimals: number.split(separator: ".").dropFirst().first?.count ?? 0)
      })
  }
}

extension Checker {
  /// Where a chapter keeps its recorded runs, under its folder.
  static let benchRecordFolder = "bench"

  /// Every chapter's recorded runs.
  func benchRecords(_ catalog: Catalog) -> BenchRecords {
    var records = BenchRecords()
    for chapter in catalog.chapters {
      let folder = "\(chapter.folder)/\(Checker.benchRecordFolder)"
      for file in files(in: folder) where file.hasSuffix(".txt") && !file.contains("/") {
        records.files.append("\(folder)/\(file)")
        for row in benchRecordRows(read("\(folder)/\(file)") ?? "") {
          records.ratios[row.label, default: []] += row.ratios
        }
      }
    }
    return records
  }
}
