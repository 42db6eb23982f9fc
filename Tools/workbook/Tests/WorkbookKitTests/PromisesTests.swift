import Foundation
import Testing

@testable import WorkbookKit

/// A chapter's `promises.md` answers for every documented public declaration of its starters:
/// `workbook check` (rule `promises`) refuses a gap or a citation no recorded kill backs, and
/// `make mutants` checks the citations of the mutants it runs.
@Suite("the ledger of promises")
struct PromisesTests {
  /// The scratch chapter's counter, documented.
  static let documentedCounter = """
    // Exercise 1 — A counter (beginner)
    //
    // Count up from zero.
    import Workbook

    /// A count that only goes up.
    public struct Counter {
      public private(set) var value = 0
      public init() {}

      /// Adds one; at `Limits.maximum` it stays where it is.
      @discardableResult
      public mutating func increment() throws {
        // TODO: add one, up to `Limits.maximum`.
        throw NotImplemented()
      }
    }
    """

  static let ledger = """
    # Chapter 7 — Promises

    ## `Counter`

    - Only goes up: each increment adds one. — `countsOne` (mutant 01)

    ## `Counter.increment()`

    - Adds exactly one, not two. — `countsOne`
      (mutant 01)
    <!-- untested: stays at `Limits.maximum` -->
    """

  /// A scratch workbook whose chapter 7 has a documented counter and a ledger that covers it.
  static func workbook() throws -> ScratchWorkbook {
    let workbook = try ScratchWorkbook()
    try workbook.write("Sources/Counters/Counter.swift", documentedCounter)
    try workbook.write("Chapters/07-counters/promises.md", ledger)
    return workbook
  }

  static func promiseProblems(_ workbook: ScratchWorkbook) throws -> [String] {
    workbook.problems(graphs: try workbook.compiledGraphs()).filter { $0.rule == .promises }.map(\.message)
  }

  @Test("a ledger that covers every documented public declaration, with killing tests, passes")
  func aCompleteLedgerPasses() throws {
    let workbook = try Self.workbook()
    #expect(workbook.problems(graphs: try workbook.compiledGraphs()) == [])
  }

  @Test("a starter that gains a documented public method the ledger lacks fails the check")
  func aNewDocumentedMethodFails() throws {
    let workbook = try Self.workbook()
    try workbook.edit(
      "Sources/Counters/Counter.swift", replacing: "  public init() {}\n",
      with: "  public init() {}\n\n  /// Starts again from zero.\n  public mutating func reset() {}\n")
    let problems = try Self.promiseProblems(workbook)
    #expect(
      problems == [
        "Sources/Counters/Counter.swift:12: `Counter.reset()` is documented and public, and "
          + "Chapters/07-counters/promises.md has no section for it; add `## `Counter.reset()`` with a bullet for each "
          + "promise its doc comment makes"
      ])
    // What `make check` runs: every rule, and this one among them.
    var checker = Checker(root: workbook.root)
    checker.graphs = try workbook.compiledGraphs()
    #expect(checker.problems().contains { $0.rule == .promises })
  }

  @Test("an undocumented or non-public declaration needs no section; a chapter that documents one needs a ledger")
  func onlyDocumentedPublicDeclarations() throws {
    let workbook = try Self.workbook()
    try workbook.edit(
      "Sources/Counters/Counter.swift", replacing: "  public init() {}\n",
      with: "  public init() {}\n  public func undocumented() {}\n  /// Internal.\n  func helper() {}\n")
    #expect(try Self.promiseProblems(workbook) == [])
    try workbook.remove("Chapters/07-counters/promises.md")
    try workbook.edit(
      "Sources/Counters/Counter.swift", replacing: "  public init() {}\n",
      with: "  public init() {}\n  /// Not in any ledger.\n  public func reset() {}\n")
    #expect(
      try Self.promiseProblems(workbook) == [
        "Chapters/07-counters/promises.md is missing, and the chapter's starters document 3 public declarations "
          + "(the first, `Counter`, at Sources/Counters/Counter.swift:7); create it with a section for each (see "
          + "CONTRIBUTING.md, \"promises.md\")"
      ])
    try workbook.write("Sources/Counters/Counter.swift", "import Workbook\n\npublic struct Counter {}\n")
    #expect(try Self.promiseProblems(workbook) == [], "a chapter whose starters document nothing public has nothing to list")
  }

  @Test("a section that names no documented public declaration fails, as do a second one and one with no promise")
  func sectionsNameDeclarations() throws {
    let workbook = try Self.workbook()
    try workbook.write(
      "Chapters/07-counters/promises.md",
      Self.ledger + "\n\n## `Counter.decrement()`\n\n- Takes one. — `countsOne` (mutant 01)\n\n## Counter.value\n\n## `Counter`\n")
    let problems = try Self.promiseProblems(workbook)
    #expect(problems.count == 4)
    #expect(problems.contains { $0.hasPrefix("Chapters/07-counters/promises.md:13: `Counter.decrement()` is no documented public declaration") })
    #expect(problems.contains { $0 == "Chapters/07-counters/promises.md:19: `Counter` has a section already (line 3); keep its promises in one" })
    #expect(problems.contains { $0.hasPrefix("Chapters/07-counters/promises.md:17: “Counter.value” is not a declaration in backticks") })
    #expect(problems.contains { $0.hasPrefix("Chapters/07-counters/promises.md:19: `Counter` lists no promise") })
  }

  @Test("a promise needs a test of the chapter, each with a mutant that exists and that the test is recorded killing")
  func promisesCiteKills() throws {
    let workbook = try Self.workbook()
    let bullets = [
      "- Goes up.",
      "- Goes up. — `countsOne`",
      "- Goes up. — `countsTwice` (mutant 01)",
      "- Goes up. — `countsOne` (mutant 09)",
      "- Goes up. — `startsAtZero` (mutant 01)",
      "- Goes up. — `countsOne` (mutant 01), `countsOne` (mutant 01) and more",
      "- " + PromiseLedger.Bullet.nothingPromised,
    ]
    try workbook.write("Chapters/07-counters/promises.md", Self.ledger + "\n\n" + bullets.joined(separator: "\n"))
    let problems = try Self.promiseProblems(workbook)
    let place = "Chapters/07-counters/promises.md"
    #expect(problems.count == 6, "\(problems)")
    #expect(problems.contains { $0.hasPrefix("\(place):13: a promise with no test") })
    #expect(problems.contains { $0.hasPrefix("\(place):14: `countsOne` is cited with no mutant") })
    #expect(problems.contains { $0.hasPrefix("\(place):15: `countsTwice` is not a test of Tests/CountersTests") })
    #expect(problems.contains { $0.hasPrefix("\(place):16: `countsOne` cites mutant 9, which Chapters/07-counters/mutants does not have") })
    #expect(
      problems.contains {
        $0.hasPrefix(
          "\(place):17: `startsAtZero` is cited with mutant 1, but the recorded run of 01-counts-twice in "
            + "Chapters/07-counters/mutants/killers.tsv was failed by `countsOne`, not by it")
      })
    #expect(problems.contains { $0.hasPrefix("\(place):18: “and more” after `countsOne`") })
  }

  @Test("a cited mutant with no recorded run is refused")
  func unrecordedMutant() throws {
    let workbook = try Self.workbook()
    try workbook.write("Chapters/07-counters/mutants/killers.tsv", "chapter\tmutant\tname\tkillers\n")
    // The interview cites mutant 01 too; only the ledger's problems are read here.
    let problems = try Self.promiseProblems(workbook)
    #expect(problems.count == 2)
    #expect(problems.allSatisfy { $0.contains("cites mutant 1, which has no recorded run") })
  }

  @Test("make mutants refuses a promise that pairs a mutant with a test that did not kill it")
  func mutantsVerifyThePromises() {
    let problems = MutantCitations.problems(
      citing: 1, name: "01-counts-twice", killers: ["startsAtZero"], ledger: Self.ledger,
      ledgerPath: "Chapters/07-counters/promises.md", record: "killers.tsv")
    #expect(
      problems == [
        "Chapters/07-counters/promises.md:5: mutant 1 (01-counts-twice) is cited with `countsOne`, but it was killed by "
          + "`startsAtZero`; cite it with a test that kills it (see killers.tsv)",
        "Chapters/07-counters/promises.md:9: mutant 1 (01-counts-twice) is cited with `countsOne`, but it was killed by "
          + "`startsAtZero`; cite it with a test that kills it (see killers.tsv)",
      ])
    #expect(
      MutantCitations.problems(
        citing: 1, name: "01-counts-twice", killers: ["countsOne"], ledger: Self.ledger, ledgerPath: "p.md") == [])
  }

  @Test("the documented public declarations: members of public types, implicit ones, nested types, extensions")
  func documentedDeclarations() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    try workbook.write(
      "Sources/Store/Store.swift",
      """
      import Foundation

      /// A store.
      public actor Store<Key: Hashable> {
        /// Internal, not listed.
        var storage: [Key: Int] = [:]
        /// The value.
        @discardableResult
        public func get(_ key: Key, default value: Int = 0) -> Int { storage[key] ?? value }
        /// Counts.
        public var count: Int { storage.count }
        /// A nested public type.
        public struct Entry {
          /// Its key.
          public let key: String
        }
      }

      /// What can fail.
      public enum StoreError: Error {
        /// Not there.
        case missing(key: String)
        /// Full.
        case full
      }

      /// A contract.
      public protocol Named {
        /// The name.
        static var name: String { get }
      }

      /// Internal: left out, with its members.
      final class Helper {
        /// Public in an internal type.
        public func help() {}
      }

      /// Global.
      public func observe(of value: Int) -> Int { value }
      """)
    // What a scan of the text misread: an extension in another file, a `// TODO:` line between a
    // doc comment and its declaration, modifiers on a line of their own, a public typealias, a
    // comment a member inherits, a macro.
    try workbook.write(
      "Sources/Store/Store+More.swift",
      """
      import Foundation
      import Observation

      extension Store {
        /// Added later.
        // TODO: empty the store.
        public func clear() {}
      }

      extension NotificationCenter {
        /// Posts.
        public
        func post(_ value: Int) {}
      }

      /// A name for a function type.
      public typealias Check = @Sendable (Int) -> Bool

      /// Something that reads.
      public protocol Reader {
        /// Reads it.
        func read() -> Int
      }

      // Its members inherit the comments of what they implement: no promise of their own.
      public struct Plain: Reader, CustomStringConvertible {
        public func read() -> Int { 0 }
        public var description: String { "" }
      }

      /// A model a macro expands, with members of its own at the attribute's line.
      @Observable
      public final class Model {
        /// Its count.
        public var count = 0
      }
      """)
    let documented = try workbook.declarations(.starters, modules: ["Store"]).documented
    #expect(
      documented.map(\.heading) == [
        "Store.clear()", "NotificationCenter.post(_:)", "Check", "Reader", "Reader.read()", "Model", "Model.count",
        "Store", "Store.get(_:default:)", "Store.count", "Store.Entry", "Store.Entry.key", "StoreError",
        "StoreError.missing(key:)", "StoreError.full", "Named", "Named.name", "observe(of:)",
      ])
    #expect(documented.first { $0.heading == "Store.clear()" }.map { "\($0.file):\($0.line)" } == "Sources/Store/Store+More.swift:7")
  }
}
