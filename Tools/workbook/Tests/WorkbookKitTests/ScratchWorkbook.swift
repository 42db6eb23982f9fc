import Foundation

@testable import WorkbookKit

/// A throwaway workbook in a temporary folder, removed when the value is released: by default
/// one chapter, 7, with two exercises that follow every rule, so a test breaks one rule on purpose
/// and looks for the message.
final class ScratchWorkbook {
  let root: String

  init(chapter7: Bool = true) throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-scratch-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    if chapter7 {
      try write("Package.swift", ScratchWorkbook.manifest(entries: [#"Chapter(number: 7, module: "Counters", composes: [])"#]))
      for (path, text) in ScratchWorkbook.chapter7 { try write(path, text) }
    }
  }

  deinit {
    try? FileManager.default.removeItem(atPath: root)
  }

  func write(_ relative: String, _ text: String) throws {
    let url = URL(fileURLWithPath: "\(root)/\(relative)")
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
  }

  func read(_ relative: String) throws -> String {
    try String(contentsOfFile: "\(root)/\(relative)", encoding: .utf8)
  }

  func exists(_ relative: String) -> Bool {
    FileManager.default.fileExists(atPath: "\(root)/\(relative)")
  }

  func remove(_ relative: String) throws {
    try FileManager.default.removeItem(atPath: "\(root)/\(relative)")
  }

  func move(_ relative: String, to other: String) throws {
    try FileManager.default.moveItem(atPath: "\(root)/\(relative)", toPath: "\(root)/\(other)")
  }

  /// Replaces `old` (which must be there) with `new` in a file.
  func edit(_ relative: String, replacing old: String, with new: String) throws {
    let text = try read(relative)
    guard text.contains(old) else { throw Failure("\(relative) does not contain \(old)") }
    try write(relative, text.replacingOccurrences(of: old, with: new))
  }

  /// What `workbook check` reports, with the rules it checks by default (and `extra` ones). The
  /// rules that read declarations have none unless a test gives `graphs` (`compiledGraphs()`).
  func problems(adding extra: Set<Rule> = [], graphs: SymbolGraphs = .empty) -> [Problem] {
    var checker = Checker(root: root)
    checker.graphs = graphs
    // A test that edits a starter on purpose would also break the fingerprints: asked for alone.
    checker.rules.remove(.fingerprints)
    checker.rules.formUnion(extra)
    return checker.problems()
  }

  /// The messages of `problems()`, one string, for `contains` checks.
  func report(adding extra: Set<Rule> = []) -> String {
    problems(adding: extra).map(\.description).joined(separator: "\n")
  }

  /// A manifest with the workbook's chapter list shape.
  static func manifest(entries: [String]) -> String {
    """
    // swift-tools-version: 6.0
    import PackageDescription

    struct Chapter {
      let number: Int
      let module: String
      let composes: [Int]
    }

    let allChapters = [
    \(entries.map { "  \($0)," }.joined(separator: "\n"))
    ]
    """
  }

  /// Chapter 7, "Counters": exercise 1 writes a counter, exercise 2 a pair of them; Limits.swift is
  /// given code. Five variants (`ScratchWorkbook+Variants.swift`) write them otherwise.
  static let chapter7: [(String, String)] = chapter7Files + chapter7Variants + [fingerprints(of: chapter7Files)]

  /// The chapter's `starter.fingerprints`, for its two exercise files as written here.
  static func fingerprints(of files: [(String, String)]) -> (String, String) {
    let written = files.filter { $0.0 == "Sources/Counters/Counter.swift" || $0.0 == "Sources/Counters/Pair.swift" }
    let text = StarterFingerprints.render(
      module: "Counters", written.map { (name: String($0.0.split(separator: "/").last!), text: Data($0.1.utf8)) })
    return ("Chapters/07-counters/starter.fingerprints", text)
  }

  static let chapter7Files: [(String, String)] = [
    (
      "Chapters/07-counters/exercises.json",
      """
      {
        "chapter": 7,
        "title": "Counters",
        "module": "Counters",
        "level": "beginner",
        "exercises": [
          { "number": 1, "title": "A counter", "files": ["Counter.swift"] },
          { "number": 2, "title": "Two counters", "files": ["Pair.swift"], "needs": [1] }
        ]
      }
      """
    ),
    (
      "Chapters/07-counters/hints.md",
      """
      # Chapter 7 hints

      ## 1. A counter

      Start at zero and add one.

      ## 2. Two counters

      Use two counters from exercise 1.
      """
    ),
    ("Chapters/07-counters/interview.md", countersInterview + countersSecondQuestion),
    (
      "Chapters/07-counters/mutants/01-counts-twice.mutant",
      """
      title: the counter counts twice
      why: every increment adds two
      file: Counter.swift
      <<<<<<< answer
          value += 1
      =======
          value += 2
      >>>>>>> mutant
      """
    ),
    // What `make mutants` recorded: the test the interview cites with mutant 01 kills it.
    ("Chapters/07-counters/mutants/killers.tsv", "chapter\tmutant\tname\tkillers\n7\t1\t01-counts-twice\tcountsOne\n"),
    (
      "Sources/Counters/Counter.swift",
      """
      // Exercise 1 — A counter (beginner)
      //
      // Count up from zero.
      import Workbook

      public struct Counter {
        public private(set) var value = 0
        public init() {}

        public mutating func increment() throws {
          // TODO: add one, up to `Limits.maximum`.
          throw NotImplemented()
        }
      }
      """
    ),
    (
      "answers/Counters/Counter.swift",
      """
      // Exercise 1 — A counter (beginner)
      //
      // Count up from zero.
      import Workbook

      public struct Counter {
        public private(set) var value = 0
        public init() {}

        public mutating func increment() throws {
          guard value < Limits.maximum else { return }
          value += 1
        }
      }
      """
    ),
    (
      "Sources/Counters/Pair.swift",
      """
      // Exercise 2 — Two counters (beginner)
      import Workbook

      public struct Pair {
        // TODO: add up both counters.
        public func total() throws -> Int { throw NotImplemented() }
      }
      """
    ),
    (
      "answers/Counters/Pair.swift",
      """
      // Exercise 2 — Two counters (beginner)
      import Workbook

      public struct Pair {
        public var first = Counter()
        public var second = Counter()
        public func total() throws -> Int { first.value + second.value }
      }
      """
    ),
    (
      "Sources/Counters/Limits.swift",
      """
      // Given: the largest count. Nothing to write here.
      enum Limits {
        static let maximum = 1_000
      }
      """
    ),
    (
      "answers/Counters/Limits.swift",
      """
      // Given: the largest count. Nothing to write here.
      enum Limits {
        static let maximum = 1_000
      }
      """
    ),
    (
      "Tests/CountersTests/Exercise1_CounterTests.swift",
      """
      import Testing

      @testable import Counters

      @Suite("Exercise 1 — A counter", .timeLimit(.minutes(1)))
      struct Exercise1_CounterTests {
        @Test func countsOne() throws {
          var counter = Counter()
          try counter.increment()
          #expect(counter.value == 1, "one increment counts one")
        }
      }
      """
    ),
    (
      "Tests/CountersTests/Exercise2_PairTests.swift",
      """
      import Testing

      @testable import Counters

      @Suite("Exercise 2 — Two counters", .timeLimit(.minutes(1)))
      struct Exercise2_PairTests {
        @Test func startsAtZero() throws {
          #expect(try Pair().total() == 0)
        }
      }
      """
    ),
  ]
}

/// Chapter 7's interview in the scratch workbook: one question with every part a question has.
let countersInterview = """
  # Chapter 7 — Interview questions

  ## How do you count?

  ### Model answer
  One at a time.

  Checked by: `countsOne` (mutant 01)

  ### Follow-ups
  - And two at a time?

  ### Red flags
  - Counting twice.
  """

/// The scratch chapter's second question (a chapter has at least as many questions as exercises),
/// about something the chapter does not build.
let countersSecondQuestion = """


  ## How do two processes share a count?

  ### Model answer
  Through a file both open, locked while one writes.

  Not built here: a count shared between processes; source: POSIX.1-2017, fcntl(2) record locks

  ### Follow-ups
  - And with no file?

  ### Red flags
  - A count in each process, added up later.
  """
