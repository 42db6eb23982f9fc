// `make figures`: runs deterministic, seeded simulations through the reference answers and writes
// SVG charts into the chapters that quote them. Running it twice gives byte-identical files, and
// `make test` checks that the committed figures match what this code produces.
//
// Usage: workbook-figures [output-root]   (default: the current directory; files go to
//        <root>/Chapters/<chapter>/figures/<name>.svg)
import Foundation

let root = CommandLine.arguments.dropFirst().first ?? "."

/// Writes one figure and says where.
func write(_ chart: LineChart, chapter: String, name: String) throws {
  let folder = "\(root)/Chapters/\(chapter)/figures"
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  let path = "\(folder)/\(name).svg"
  try chart.svg().write(toFile: path, atomically: true, encoding: .utf8)
  print("wrote \(path)")
}

var written = 0
for figure in allFigures() {
  try write(figure.chart, chapter: figure.chapter, name: figure.name)
  written += 1
}
if written == 0 { print("no figures: their chapters are not in this build") }
