import Foundation
import Testing

@testable import WorkbookKit

/// The `names` rule: a backticked name of a chapter's code in its texts resolves in the answers.
@Suite("names in the texts")
struct NamesTests {
  static let source = """
    /// A doc comment: func notAFunction(x:) and struct NotAType {}
    public struct DiskCache: Sendable {
      public static let shared = DiskCache(limit: 1)
      let name = "func inAString(a:) { \\(shared) struct AlsoNot {"
      let clock: @Sendable (Int, String) -> Double
      public init(limit: Int = 1 << 20, directory: URL = .temporaryDirectory) {}
      public func store(_ data: Data, forKey key: String) throws {}
      func lookup<Key: Hashable & Sendable>(
        forKey key: Key,
        allowExpired: Bool = false,
        onMiss: @escaping @Sendable (Key, Int) async -> Void = { _, _ in }
      ) -> Data? {
        let local = 1
        func inner(z: Int) {}
        return nil
      }
      enum Policy: String, CaseIterable {
        case cacheFirst, networkOnly = "n"
        case timeout(Duration), http(status: Int, body: Data)
      }
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
    extension URLRequest {
      func signed(with key: String) -> URLRequest { self }
    }
    """

  static func declarations() -> SwiftDeclarations {
    var declarations = SwiftDeclarations()
    declarations.scan(source, file: "answers/Caches/DiskCache.swift")
    return declarations
  }

  @Test("the scan reads types, members and labels, and skips comments, strings and function bodies")
  func scan() throws {
    let declarations = Self.declarations()
    #expect(
      Set(declarations.types.filter(\.value.declared).keys)
        == ["DiskCache", "Policy", "Entry", "HTTPDate", "Operation2", "Store"])
    #expect(declarations.types["URLRequest"]?.declared == false, "an extension does not declare a platform type")
    let cache = try #require(declarations.types["DiskCache"])
    #expect(
      cache.members.map(\.signature) == [
        "shared", "name", "clock(_:_:)", "init(limit:directory:)", "store(_:forKey:)", "lookup(forKey:allowExpired:onMiss:)",
        "Policy", "Entry", "evict(_:)",
      ])
    #expect(cache.inherited == ["Sendable"])
    #expect(cache.declaresInit)
    let lookup = try #require(cache.members.first { $0.name == "lookup" })
    #expect(lookup.parameters?.map(\.defaulted) == [false, true, true])
    let policy = try #require(declarations.types["Policy"])
    #expect(policy.members.map(\.signature) == ["cacheFirst", "networkOnly", "timeout(_:)", "http(status:body:)"])
    #expect(policy.inherited == ["String", "CaseIterable"])
    #expect(declarations.types["Operation2"]?.inherited == ["Operation", "Sendable"])
    #expect(declarations.types["Operation2"]?.members.map(\.signature) == ["make()", "cancel()"])
    #expect(declarations.types["Store"]?.aliasOf == "DiskCache")
    #expect(declarations.functions["topLevel"]?.first?.owner == nil)
    #expect(declarations.functions["topLevel"]?.first?.isPublic == true)
    #expect(declarations.functions["asctime"]?.first?.isPublic == false)
    for name in ["notAFunction", "inAString", "inner", "stillAComment"] {
      #expect(declarations.functions[name] == nil, "\(name) is no declaration")
    }
  }

  @Test("labels: the first name of each parameter, across lines, defaults, generics and closure types")
  func labels() {
    var index = 0
    let code = Array("<T: Equatable>(_ a: [T: Int] = [:], for b: (Int, Int) -> Void,\n  c: Result<A, B>)".utf8)
    let parameters = SwiftDeclarations.parameters(code, &index)
    #expect(parameters?.map(\.label) == ["_", "for", "c"])
    #expect(parameters?.map(\.defaulted) == [true, false, false])
    #expect(parameters?.map(\.closure) == [false, true, false])
    index = 0
    let shifts = SwiftDeclarations.parameters(
      Array("(configuration: C = .default, bufferLimit: Int = 1 << 20, seams: Seams) { a < b }".utf8), &index)
    #expect(shifts?.map(\.label) == ["configuration", "bufferLimit", "seams"], "`<<` and `<` in values are no brackets")
    #expect(shifts?.map(\.defaulted) == [true, true, false])
    #expect(SwiftDeclarations.inheritance("<Key: Hashable>: Sendable, Swift.Error where Key: Sendable") == ["Sendable", "Error"])
  }

  func resolver(tests: Set<String> = []) -> NameResolver {
    NameResolver(declarations: Self.declarations(), testFunctions: tests)
  }

  @Test("names of the sources resolve: types, members, signatures, initializers, cases, aliases")
  func resolved() {
    let resolver = resolver()
    for span in [
      "DiskCache", "DiskCache.store", "DiskCache.store(_:forKey:)", "DiskCache(limit:)", "DiskCache(limit:directory:)",
      "DiskCache.init(limit:)", "init(limit:)", "DiskCache.lookup(forKey:)", "DiskCache.lookup(forKey:allowExpired:onMiss:)",
      "DiskCache.lookup(forKey:allowExpired:)", "DiskCache.evict(_:)", "DiskCache.Policy.timeout(_:)",
      "DiskCache.Policy.http(status:body:)", "Policy.cacheFirst", "DiskCache.Policy.allCases", "Policy.rawValue",
      "Policy(rawValue:)", "DiskCache.Entry.size", "DiskCache.shared.name", "HTTPDate.parse(_:now:)",
      "Store.store(_:forKey:)", "topLevel(label:)", "topLevel(label:_:)", "clock(_:_:)",
      "DiskCache.clock",
    ] {
      #expect(resolver.resolve(span) == .resolved, "\(span)")
    }
  }

  @Test("names of the sources that do not resolve say why and what is declared")
  func missing() {
    let resolver = resolver()
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
    #expect(resolver.resolve("DiskCache.Policy.timeout(after:)") != .resolved)
    #expect(
      resolver.resolve("topLevel(_:)")
        == .missing("no `func topLevel` of these sources takes the labels (_:); they declare `topLevel(label:_:)`"))
  }

  @Test("anything else is not checked: platform APIs, files, a platform superclass's members, test names, memberwise inits")
  func unchecked() {
    let resolver = resolver(tests: ["topLevel"])
    for span in [
      "URLSession.shared", "moveItem(at:to:)", "DiskCache.swift", ".cacheFirst", "Mutex<State>", "await cache.store",
      "Operation2.isFinished", "cancel(byProducingResumeData:)", "URLRequest.signed(with:)", "topLevel(_:)",
      "store.lookup(forKey:)", "make bench", "Entry(size:)",
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
      public enum HTTPDate {
        public static func parse(_ text: String, now: Date) -> Date? { asctime([]) }
        static func asctime(_ bytes: [UInt8]) -> Date? { nil }
      }
      """)
    let declarations = SwiftDeclarations(
      folders: ["answers/Counters", "Support/Workbook"], root: workbook.root, publicOnlyFolders: ["Support/Workbook"])
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
    #expect(workbook.problems().filter { $0.rule == .names } == [])
    try workbook.edit(
      "answers/Counters/Counter.swift", replacing: "public mutating func increment()", with: "public mutating func bump()")
    #expect(
      workbook.problems().filter { $0.rule == .names }.map(\.message) == [
        "Chapters/07-counters/hints.md:5: `Counter.increment()` does not resolve: `Counter` "
          + "(answers/Counters/Counter.swift) has no member `increment`; write the name as the reference answer declares it"
      ])
  }
}
