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
      hit” against `make bench` row "NSLock"; `make bench` alone is no citation, and `make
      bench` row “wrapped” is one.
      """
    #expect(
      benchCitations(text) == [
        BenchCitation(
          line: 1, command: "`make bench`", label: "actor (DataStore)",
          figures: [BenchFigure(text: "1.2×", values: [.init(value: 1.2, decimals: 1)])]),
        BenchCitation(line: 3, command: "`make bench-4`", label: "LRU get, hit"),
        BenchCitation(line: 4, command: "`make bench`", label: "NSLock"),
        BenchCitation(line: 4, command: "`make bench`", label: "wrapped"),
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
          + "\"Chapter 7 — rows\" in Support/Benchmarks/*.swift, and no recorded run has it); cite a row label exactly as the benchmark prints it, "
          + "or give the figure a primary source",
        "Chapters/07-counters/hints.md:5: `make bench-7` row “counter, two threads” is no row the benchmarks print "
          + "(no string literal \"counter, two threads\" in Support/Benchmarks/*.swift, and no recorded run has it); "
          + "cite a row label exactly as the benchmark prints it, or give the figure a primary source",
      ])
  }

  @Test("a citation's figures run to its sentence's end or the next citation; a baseline row keeps them")
  func figures() {
    let text = """
      `make bench` row “A”: 1.9–2.9× with one worker, and 0.85 - 2× with two. Later, 5× is nobody's.
      `make bench` row “B” costs 3× row “C” (a baseline) and 1.5×; `make bench` row “C” 4×

      and 7× in the next paragraph.
      """
    #expect(
      benchCitations(text).map { $0.figures.map(\.text) } == [["1.9–2.9×", "0.85 - 2×"], ["3×", "1.5×"], ["4×"]])
    #expect(benchFigures("2.10× and 12–157×").map { $0.values.map(\.decimals) } == [[2], [0, 0]])
  }

  @Test("a recorded run's rows are its indented lines of a label and figures only")
  func recordedRows() {
    let record = """
      # make bench BENCH_FLAGS=datastore
      # date: 2026-11-28T08:10Z

      Chapter 1 — stores, 1 worker, 200000 operations
        case                          ns/op       vs NSLock
        NSLock                        35.4        1.00×
        Mutex (LockedStore)           74.3        2.10×
          LRU over the locked dictionary, get    1.17×  0.99×  1.44×
          growth per decade, get                 -0.05
          get: within 1.5× of the locked dictionary at every size: met
      """
    let rows = benchRecordRows(record)
    #expect(rows.map(\.label) == ["NSLock", "Mutex (LockedStore)", "LRU over the locked dictionary, get", "growth per decade, get"])
    #expect(rows.map(\.ratios) == [[1.0], [2.1], [1.17, 0.99, 1.44], []])
  }

  @Test("a quoted figure must be one its row printed in a recorded run, as the text rounds it")
  func figuresAgainstRecords() throws {
    let workbook = try ScratchWorkbook()
    try workbook.write("Support/Benchmarks/CounterBench.swift", "let row = Row(\"counter, one thread\", 1)\n")
    try workbook.edit(
      "Chapters/07-counters/hints.md", replacing: "Start at zero and add one.",
      with: "Start at zero and add one: `make bench-7` row “counter, one thread” costs 1.5–2× the baseline.")
    let refusal = { (what: String) in
      "Chapters/07-counters/hints.md:5: `make bench-7` row “counter, one thread” is quoted at 1.5–2×, which no "
        + "recorded run of that row printed (\(what)); quote a ratio from a file of Chapters/NN-*/bench/, or run "
        + "`make bench` to record one"
    }
    #expect(
      workbook.problems().filter { $0.rule == .benchRows }.map(\.message) == [
        refusal("there is no recorded run (Chapters/NN-*/bench/*.txt)")
      ])

    try workbook.write(
      "Chapters/07-counters/bench/20261128-0810-linux-x86_64.txt",
      "# make bench\n\n  case                  ns/op   vs baseline\n  counter, one thread   12.0    1.46×\n")
    #expect(workbook.problems().filter { $0.rule == .benchRows }.map(\.message) == [refusal("its recorded runs printed 1.46× to 1.46×")])

    try workbook.write(
      "Chapters/07-counters/bench/20261128-0820-linux-x86_64.txt",
      "# make bench\n\n  counter, one thread   12.0    2.04×\n")
    #expect(
      workbook.problems().filter { $0.rule == .benchRows } == [],
      "1.5 is 1.46 rounded to one decimal, 2 is 2.04 rounded to none")

    try workbook.edit("Chapters/07-counters/hints.md", replacing: "1.5–2×", with: "1.5–2.1×")
    #expect(workbook.problems().filter { $0.rule == .benchRows }.count == 1, "2.1× is no recorded ratio (2.04× is 2.0×)")
  }
}
