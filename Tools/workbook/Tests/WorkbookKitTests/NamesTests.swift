import Foundation
import Testing

@testable import WorkbookKit

/// The `names` rule: a backticked name of a chapter's code in its texts resolves in the answers.
@Suite("names in the texts")
struct NamesTests {
  /// A module of the answers, in two files, that the compiler builds: its graph is what the rule
  /// reads.
  static let files = [
    (
      "answers/Caches/DiskCache.swift",
      """
      import Foundation
      #if canImport(FoundationNetworking)
        import FoundationNetworking
      #endif

      /// A doc comment: func notAFunction(x:) and struct NotAType {}
      public struct DiskCache: Sendable {
        public static let shared = DiskCache(limit: 1)
        let name = "func inAString(a:) { \\(1) struct AlsoNot {"
        let clock: @Sendable (Int, String) -> Double = { _, _ in 0 }
        public init(limit: Int = 1 << 20, directory: URL = .temporaryDirectory) {}
        public func store(_ data: Data, forKey key: String) throws {}
        func lookup<Key: Hashable & Sendable>(
          forKey key: Key,
          allowExpired: Bool = false,
          onMiss: @escaping @Sendable (Key, Int) async -> Void = { _, _ in }
        ) -> Data? {
          func inner(z: Int) {}
          return nil
        }
        func mixed<T: Equatable>(_ a: [T: Int] = [:], for b: (Int, Int) -> Void,
          c: Result<T, any Error>) {}
        func shifts(configuration: Int = .zero, bufferLimit: Int = 1 << 20, seams: Int) { _ = 1 < 2 }
        enum Policy: String, CaseIterable {
          case cacheFirst, networkOnly = "n"
        }
        enum Outcome { case timeout(Duration), http(status: Int, body: Data) }
        struct Entry { var size: Int }
      }

      extension DiskCache {
        func evict(_ handler: (inout [String: Int]) throws -> Void) rethrows {}
        /* a block comment /* nested */ func stillAComment() */
      }

      enum HTTPDate {
        public static func parse(_ text: String, now: Date) -> Date? { nil }
        static func asctime(_ bytes: [UInt8]) -> Date? { nil }
      }

      public func topLevel(label value: Int, _ then: () -> Void) {}
      final class Operation2: Operation, @unchecked Sendable {
        class func make() -> Operation2 { Operation2() }
        override func cancel() {}
      }
      typealias Store = DiskCache
      struct Failure<Key: Hashable & Sendable>: Sendable, Swift.Error where Key: Comparable {}
      extension URLRequest {
        func signed(with key: String) -> URLRequest { self }
      }
      """
    ),
    (
      // What a scan of the text misread or could not see.
      "answers/Caches/DiskCache+Policy.swift",
      """
      import Observation

      // An extension, in another file, of a nested type; a declaration split over lines, with
      // its attributes and its modifiers on lines of their own.
      extension DiskCache.Policy {
        @discardableResult
        @available(macOS 10.15, *)
        static
        func parse(
          _ text: String,
          strict: Bool = true
        ) -> Int { 0 }
      }

      extension DiskCache {
        /// A default argument that is a closure, with braces in a string.
        func refresh(when check: @escaping () -> Bool = { "}" == "{" }, then: () -> Void) {}
      }

      /// A type a macro expands: its members are the compiler's.
      @Observable
      final class Model {
        var count = 0
        func bump(by step: Int = 1) { count += step }
      }
      """
    ),
  ]

  static func declarations() throws -> Declarations {
    let workbook = try ScratchWorkbook(chapter7: false)
    for (path, text) in files { try workbook.write(path, text) }
    return try workbook.declarations(modules: ["Caches"])
  }

  @Test("the graph gives types, members, labels, defaults and closures; nothing in comments, strings or bodies")
  func graph() throws {
    let declarations = try Self.declarations()
    #expect(
      Set(declarations.types.filter(\.value.declared).keys)
        == ["DiskCache", "Policy", "Outcome", "Entry", "HTTPDate", "Operation2", "Store", "Failure", "Model"])
    #expect(declarations.types["URLRequest"]?.declared == false, "an extension does not declare a platform type")
    let cache = try #require(declarations.types["DiskCache"])
    #expect(
      Set(cache.members.map(\.signature)) == [
        "shared", "name", "clock", "init(limit:directory:)", "store(_:forKey:)", "lookup(forKey:allowExpired:onMiss:)",
        "mixed(_:for:c:)", "shifts(configuration:bufferLimit:seams:)", "Policy", "Outcome", "Entry", "evict(_:)",
        "refresh(when:then:)",
      ])
    #expect(cache.inherited.isSuperset(of: ["Sendable"]))
    #expect(cache.members.first { $0.name == "clock" }?.storedClosure == true)
    let policy = try #require(declarations.types["Policy"])
    #expect(Set(policy.members.map(\.signature)).isSuperset(of: ["cacheFirst", "networkOnly", "init(rawValue:)", "parse(_:strict:)"]))
    #expect(policy.inherited.isSuperset(of: ["RawRepresentable", "CaseIterable"]))
    #expect(declarations.functions["topLevel"]?.first?.owner == nil)
    #expect(declarations.functions["topLevel"]?.first?.isPublic == true)
    #expect(declarations.functions["asctime"]?.first?.isPublic == false)
    for name in ["notAFunction", "inAString", "inner", "stillAComment"] {
      #expect(declarations.functions[name] == nil, "\(name) is no declaration")
    }
  }

  @Test("labels: the first name of each parameter, across lines, defaults, generics and closure types")
  func labels() throws {
    let declarations = try Self.declarations()
    let cache = try #require(declarations.types["DiskCache"])
    let lookup = try #require(cache.members.first { $0.name == "lookup" })
    #expect(lookup.parameters?.map(\.defaulted) == [false, true, true])
    let mixed = try #require(cache.members.first { $0.name == "mixed" })
    #expect(mixed.parameters?.map(\.defaulted) == [true, false, false])
    #expect(mixed.parameters?.map(\.closure) == [false, true, false])
    let shifts = try #require(cache.members.first { $0.name == "shifts" })
    #expect(shifts.parameters?.map(\.defaulted) == [true, true, false], "`<<` in a value and `<` in the body are no brackets")
    let refresh = try #require(cache.members.first { $0.name == "refresh" })
    #expect(refresh.parameters?.map(\.defaulted) == [true, false], "a closure as a default value")
    #expect(refresh.parameters?.map(\.closure) == [false, true])
    let parse = declarations.types["Policy"]?.members.first { $0.name == "parse" }
    #expect(parse?.parameters?.map(\.defaulted) == [false, true], "a declaration split over lines, with attributes")
    let failureInherits = declarations.types["Failure"]?.inherited ?? []
    #expect(failureInherits.isSuperset(of: ["Sendable", "Error"]))
  }

  func resolver(tests: Set<String> = []) throws -> NameResolver {
    NameResolver(declarations: try Self.declarations(), testFunctions: tests)
  }

  @Test("names of the sources resolve: types, members, signatures, initializers, cases, aliases")
  func resolved() throws {
    let resolver = try resolver()
    for span in [
      "DiskCache", "DiskCache.store", "DiskCache.store(_:forKey:)", "DiskCache(limit:)", "DiskCache(limit:directory:)",
      "DiskCache.init(limit:)", "init(limit:)", "DiskCache.lookup(forKey:)", "DiskCache.lookup(forKey:allowExpired:onMiss:)",
      "DiskCache.lookup(forKey:allowExpired:)", "DiskCache.evict(_:)", "DiskCache.Outcome.timeout(_:)",
      "DiskCache.Outcome.http(status:body:)", "Policy.cacheFirst", "DiskCache.Policy.allCases", "Policy.rawValue",
      "Policy(rawValue:)", "DiskCache.Entry.size", "DiskCache.shared.name", "HTTPDate.parse(_:now:)",
      "Store.store(_:forKey:)", "topLevel(label:)", "topLevel(label:_:)", "clock(_:_:)",
      "DiskCache.clock", "Entry(size:)", "Policy.parse(_:)", "DiskCache.refresh(then:)", "DiskCache.refresh()",
      "Model.bump()", "Model.count",
    ] {
      #expect(resolver.resolve(span) == .resolved, "\(span)")
    }
  }

  @Test("names of the sources that do not resolve say why and what is declared")
  func missing() throws {
    let resolver = try resolver()
    #expect(
      resolver.resolve("DiskCache.store(_:for:)")
        == .missing(
          "`DiskCache` (answers/Caches/DiskCache.swift) has no `store` with the labels (_:for:); it declares `store(_:forKey:)`"))
    #expect(
      resolver.resolve("DiskCache.fetch")
        == .missing("`DiskCache` (answers/Caches/DiskCache.swift) has no member `fetch`"))
    #expect(resolver.resolve("HTTPDate.parse(_:)") != .resolved)
    #expect(resolver.resolve("DiskCache.lookup(allowExpired:)") != .resolved, "only defaulted parameters may be left out")
    #expect(resolver.resolve("DiskCache(size:)") != .resolved)
    #expect(resolver.resolve("Policy.cacheFirst(_:)") != .resolved)
    #expect(resolver.resolve("DiskCache.Outcome.timeout(after:)") != .resolved)
    #expect(resolver.resolve("Model.bump(to:)") != .resolved, "a type a macro expands is still the sources'")
    #expect(resolver.resolve("Policy.parse(strict:)") != .resolved)
    #expect(
      resolver.resolve("topLevel(_:)")
        == .missing("no `func topLevel` of these sources takes the labels (_:); they declare `topLevel(label:_:)`"))
  }

  @Test("anything else is not checked: platform APIs, files, a platform superclass's members, test names")
  func unchecked() throws {
    let resolver = try resolver(tests: ["topLevel"])
    for span in [
      "URLSession.shared", "moveItem(at:to:)", "DiskCache.swift", ".cacheFirst", "Mutex<State>", "await cache.store",
      "Operation2.isFinished", "cancel(byProducingResumeData:)", "URLRequest.signed(with:)", "topLevel(_:)",
      "store.lookup(forKey:)", "make bench",
    ] {
      #expect(resolver.resolve(span) == .unchecked, "\(span)")
    }
  }

  @Test("of the given support code, only public functions are signatures a text may write unqualified")
  func supportFunctions() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    try workbook.write(
      "Support/Workbook/HTTPDate.swift",
      """
      import Foundation

      public enum HTTPDate {
        public static func parse(_ text: String, now: Date) -> Date? { asctime([]) }
        static func asctime(_ bytes: [UInt8]) -> Date? { nil }
      }
      """)
    let declarations = try workbook.declarations(modules: ["Workbook"], publicOnly: ["Workbook"])
    let resolver = NameResolver(declarations: declarations, testFunctions: [])
    #expect(resolver.resolve("asctime()") == .unchecked, "C's asctime(), not the support code's internal helper")
    #expect(resolver.resolve("HTTPDate.asctime(_:)") == .resolved)
    #expect(resolver.resolve("parse(_:now:)") == .resolved)
    #expect(resolver.resolve("parse(_:)") != .resolved)
  }

  @Test("code spans are read outside fences, with their lines")
  func spans() {
    let text = "Use `DiskCache` and `store(_:forKey:)`.\n```swift\nlet x = `notASpan`\n```\n``double``, `last`"
    let spans = codeSpans(text)
    #expect(spans.map(\.line) == [1, 1, 5])
    #expect(spans.map(\.span) == ["DiskCache", "store(_:forKey:)", "last"])
  }

  @Test("renaming a method a hint cites fails the check with the hint's file and line")
  func renamedMethod() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit(
      "Chapters/07-counters/hints.md", replacing: "Start at zero and add one.",
      with: "Start at zero; `Counter.increment()` adds one, and `Pair.total()` adds both.")
    try workbook.edit(
      "answers/Counters/Counter.swift", replacing: "public mutating func increment()", with: "public mutating func bump()")
    #expect(
      workbook.problems().filter { $0.rule == .names } == [], "a tree without Support/Workbook is not checked")
    try workbook.write(
      "Support/Workbook/NotImplemented.swift", "public struct NotImplemented: Error {\n  public init() {}\n}\n")
    try workbook.edit(
      "answers/Counters/Counter.swift", replacing: "public mutating func bump()", with: "public mutating func increment()")
    let after = workbook.problems(graphs: try workbook.compiledGraphs())
    #expect(after.filter { $0.rule == .names } == [], "\(after)")
    try workbook.edit(
      "answers/Counters/Counter.swift", replacing: "public mutating func increment()", with: "public mutating func bump()")
    #expect(
      workbook.problems(graphs: try workbook.compiledGraphs()).filter { $0.rule == .names }.map(\.message) == [
        "Chapters/07-counters/hints.md:5: `Counter.increment()` does not resolve: `Counter` "
          + "(answers/Counters/Counter.swift) has no member `increment`; write the name as the reference answer declares it"
      ])
  }
}
