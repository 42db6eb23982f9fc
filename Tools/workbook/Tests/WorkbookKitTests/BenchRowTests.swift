import Foundation
import Testing

@testable import WorkbookKit

/// The `bench-rows` rule: every `make bench` row a text cites is a row the benchmarks print.
@Suite("bench rows in the texts")
struct BenchRowTests {
  @Test("citations are read with their line, a wrapped label as one space, either kind of quotes")
  func citations() {
    let text = """
      Measured on Linux: `make bench` row “actor (DataStore)” costs 1.2×.

      And `make bench-4` row “LRU get,
      hit” against `make bench` row "NSLock"; `make bench` alone is no citation.
      """
    #expect(
      benchCitations(text) == [
        BenchCitation(line: 1, command: "`make bench`", label: "actor (DataStore)"),
        BenchCitation(line: 3, command: "`make bench-4`", label: "LRU get, hit"),
        BenchCitation(line: 4, command: "`make bench`", label: "NSLock"),
      ])
  }

  @Test("a cited row the benchmarks print passes; one they do not print fails with its file and line")
  func rows() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit(
      "Chapters/07-counters/hints.md", replacing: "Start at zero and add one.",
      with: "Start at zero and add one: `make bench-7` row “counter, one thread” (measured on Linux).")
    #expect(workbook.problems().filter { $0.rule == .benchRows } == [], "a tree without the benchmarks is not checked")
    try workbook.write(
      "Support/Benchmarks/CounterBench.swift",
      """
      let rows = [Row("counter, one thread", 1), Row("counter \\"quoted\\"", 2)]
      print("Chapter 7 — \\(rows.count) rows")
      """)
    try workbook.write("README.md", "# Workbook\n\nOne figure: `make bench` row “counter \"quoted\"”.\n")
    #expect(workbook.problems().filter { $0.rule == .benchRows } == [])

    try workbook.edit(
      "Chapters/07-counters/hints.md", replacing: "row “counter, one thread”", with: "row “counter, two threads”")
    try workbook.edit("README.md", replacing: "One figure", with: "Two figures, `make bench` row “Chapter 7 — rows”\n\nOne figure")
    #expect(
      workbook.problems().filter { $0.rule == .benchRows }.map(\.message) == [
        "README.md:3: `make bench` row “Chapter 7 — rows” is no row the benchmarks print (no string literal "
          + "\"Chapter 7 — rows\" in Support/Benchmarks/*.swift); cite a row label exactly as the benchmark prints it, "
          + "or give the figure a primary source",
        "Chapters/07-counters/hints.md:5: `make bench-7` row “counter, two threads” is no row the benchmarks print "
          + "(no string literal \"counter, two threads\" in Support/Benchmarks/*.swift); cite a row label exactly as "
          + "the benchmark prints it, or give the figure a primary source",
      ])
  }
}
