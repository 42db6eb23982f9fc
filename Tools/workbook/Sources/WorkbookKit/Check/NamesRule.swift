import Foundation

/// What a backticked name in a chapter's text resolves to.
enum NameResolution: Equatable {
  /// The sources declare it.
  case resolved
  /// Not a name of the sources (a platform API, a local variable, prose): not checked.
  case unchecked
  /// A name of the sources that they do not declare; why, and what they declare instead.
  case missing(String)
}

/// Resolves backticked names of a chapter's texts against its reference answer, the answers of
/// the chapters it composes and the given support code (modules `Workbook`, `WorkbookTesting`),
/// as their symbol graphs declare them (`Declarations`).
///
/// A span is read as a name when it is a dotted path with an optional argument-label list:
/// `DiskCache`, `DiskCache.store`, `HTTPDate.parse(_:now:)`, `init(limit:)`, `snapshot()`. Any
/// other span (code with spaces, `.offline`, `Mutex<State>`, a header) is not checked, and neither
/// is a file's name (`DiskCache.swift`). Then:
///
/// - **A span whose first component is a type the sources declare** (`struct`, `class`, `enum`,
///   `actor`, `protocol`, `typealias`; an `extension` of a platform type does not make it theirs)
///   must resolve fully: each next component is a member of that type, of an extension of it, or
///   of a type it inherits that the sources declare; a member that is a nested type goes on to its
///   own members, and after a property the path is not followed further. With labels, a function,
///   initializer or case with those external labels must exist (`Type(labels:)` is an
///   initializer). The protocols whose members the compiler supplies add theirs (`Error`'s
///   `localizedDescription`, `CaseIterable`'s `allCases`, a raw type's `rawValue` and
///   `init(rawValue:)`). A type that inherits anything else the sources do not declare (a platform
///   superclass such as `Operation`) has members its graph does not list (it is built without the
///   members a type inherits, which would be the platform's whole API): a member not found on it is
///   not checked. A struct's memberwise initializer is in the graph, as the compiler declares it.
/// - **An unqualified `name(labels:)`** whose base name the sources declare as a `func` or `init`
///   (or as a stored closure, `let wallTime: () -> Double`, called with unlabelled arguments) must
///   match the labels of one such declaration, wherever it is. Of the given support code only the
///   `public` functions count (the learner sees no other: `asctime()` in a text is C's, not
///   `HTTPDate`'s internal helper). When one of the declarations is a method of a type that
///   extends or inherits a platform type (a delegate's `urlSession(_:task:didCompleteWithError:)`,
///   an `Operation`'s `cancel()`), the text may mean the platform's method of that name: not
///   checked.
/// - **Anything else is not checked**: platform APIs (`URLSession`, `moveItem(at:to:)`), a
///   member through a variable (`loader.image(for:)`), test names. A backticked test function of
///   the chapter (`modelBased(seed:)`) is skipped.
///
/// Labels match as a call writes them: exactly, or with parameters left out that have a default
/// value, and with the closures at the end left out as trailing closures. `image(for:)` names
/// `image(for:policy:)` when `policy` has a default; `observe(on:)` names `observe(on:initial:_:)`
/// when `initial` has one and the handler is a closure.
///
/// What the graph does not carry: which parameters have a default value or take a closure (read
/// from the declaration the compiler prints, see `Declarations`), how many arguments a stored
/// closure takes (any number of unlabelled ones is accepted), and the members a type gets from a
/// platform protocol (the graph is built without them, or each type would list the standard
/// library's API): `knownInheritance` lists the few a text names.
struct NameResolver {
  let declarations: Declarations
  /// The chapter's test functions, which texts name in backticks as tests, not as APIs.
  let testFunctions: Set<String>

  /// Protocols that add no member beyond those listed here.
  static let knownInheritance: [String: [SwiftMember]] = [
    "Sendable": [], "SendableMetatype": [], "Equatable": [], "Comparable": [], "AnyObject": [], "Actor": [],
    "BitwiseCopyable": [], "Copyable": [], "Escapable": [], "Observable": [],
    "Hashable": [SwiftMember(name: "hashValue", kind: .property, labels: nil), SwiftMember(name: "hash", kind: .function, labels: ["into"])],
    "Codable": codable, "Encodable": codable, "Decodable": codable,
    "Error": [SwiftMember(name: "localizedDescription", kind: .property, labels: nil)],
    "LocalizedError": ["errorDescription", "failureReason", "recoverySuggestion", "helpAnchor", "localizedDescription"].map {
      SwiftMember(name: $0, kind: .property, labels: nil)
    },
    "CustomStringConvertible": [SwiftMember(name: "description", kind: .property, labels: nil)],
    "CustomDebugStringConvertible": [SwiftMember(name: "debugDescription", kind: .property, labels: nil)],
    "Identifiable": [SwiftMember(name: "id", kind: .property, labels: nil)],
    "CaseIterable": [SwiftMember(name: "allCases", kind: .property, labels: nil)],
    "RawRepresentable": rawValue,
  ]
  private static let codable = [
    SwiftMember(name: "init", kind: .initializer, labels: ["from"]), SwiftMember(name: "encode", kind: .function, labels: ["to"]),
  ]
  private static let rawValue = [
    SwiftMember(name: "rawValue", kind: .property, labels: nil), SwiftMember(name: "init", kind: .initializer, labels: ["rawValue"]),
  ]

  /// The path and labels of a span that reads as a name; nil for any other span.
  static func parse(_ span: String) -> (path: [String], labels: [String]?)? {
    let identifier = "[A-Za-z_][A-Za-z0-9_]*"
    guard let match = matches("^(\(identifier)(?:\\.\(identifier))*)(\\(((?:\(identifier):)*)\\))?$", in: span).first
    else { return nil }
    let path = match[1].split(separator: ".").map(String.init)
    let labels = match[2].isEmpty ? nil : match[3].split(separator: ":").map(String.init)
    return (path, labels)
  }

  /// What a file's name ends with: `DataStore.swift` is a file, not a member `swift`.
  static let fileExtensions: Set<String> = ["swift", "md", "json", "txt", "svg", "tsv", "xml", "mutant", "variant", "plist"]

  func resolve(_ span: String) -> NameResolution {
    guard let (path, labels) = NameResolver.parse(span) else { return .unchecked }
    if labels == nil, path.count > 1, NameResolver.fileExtensions.contains(path[path.count - 1]) { return .unchecked }
    guard let root = declarations.types[path[0]], root.declared, root.kind != "associatedtype" else {
      return resolveUnqualified(path, labels)
    }
    var current = concrete(path[0])
    if path.count == 1 {
      guard let labels else { return .resolved }
      return resolveMember("init", labels: labels, of: current, written: path[0])
    }
    for (offset, component) in path.dropFirst().enumerated() {
      let last = offset == path.count - 2
      let (found, open) = members(named: component, of: current)
      if found.isEmpty {
        if open { return .unchecked }
        return .missing("`\(current)` (\(declarations.types[current]?.file ?? "?")) has no member `\(component)`\(suggestion(for: component, of: current))")
      }
      if last {
        guard let labels else { return .resolved }
        return resolveMember(component, labels: labels, of: current, written: path.dropLast().joined(separator: "."))
      }
      guard found.contains(where: { $0.kind == .type }) else { return .resolved }  // a property's type is not followed
      current = concrete(component)
      guard declarations.types[current]?.declared == true else { return .unchecked }
    }
    return .resolved
  }

  private func resolveUnqualified(_ path: [String], _ labels: [String]?) -> NameResolution {
    guard path.count == 1, let labels, !testFunctions.contains(path[0]) else { return .unchecked }
    let declared = (declarations.functions[path[0]] ?? []).filter { !$0.publicOnly || $0.isPublic }
    guard !declared.isEmpty else { return .unchecked }
    if declared.contains(where: { $0.member.accepts(labels) }) { return .resolved }
    // A method of a type that extends or inherits a platform type (`urlSession(_:task:…)` of a
    // delegate, `cancel()` of an `Operation`) shares its name with the platform's own methods,
    // which the text may mean.
    if declared.contains(where: { function in function.owner.map { isOpen($0) } ?? false }) { return .unchecked }
    return .missing(
      "no `func \(path[0])` of these sources takes the labels (\(labels.map { "\($0):" }.joined())); they declare "
        + signatures(path[0], declared.compactMap(\.member.labels)))
  }

  /// Whether a type is not wholly the sources': only extended by them, or inheriting something
  /// they do not declare and whose members are not listed in `knownInheritance`.
  func isOpen(_ type: String) -> Bool {
    members(named: "", of: type).open
  }

  private func resolveMember(_ name: String, labels: [String], of type: String, written: String) -> NameResolution {
    let (found, open) = members(named: name, of: type)
    if found.contains(where: { $0.labels == labels || $0.accepts(labels) }) { return .resolved }
    if open { return .unchecked }
    let withLabels = found.compactMap(\.labels)
    if withLabels.isEmpty {
      if name == "init" {
        return .missing("`\(written)` (\(declarations.types[type]?.file ?? "?")) declares no initializer")
      }
      let what = found[0].kind == .enumCase ? "a case without payload" : "a property"
      return .missing("`\(written).\(name)` takes no arguments (\(what)); write `\(written).\(name)`")
    }
    return .missing(
      "`\(written)` (\(declarations.types[type]?.file ?? "?")) has no `\(name)` with the labels "
        + "(\(labels.map { "\($0):" }.joined())); it declares " + signatures(name, withLabels))
  }

  private func signatures(_ name: String, _ labels: [[String]]) -> String {
    var seen = Set<String>()
    return labels.map { "`\(name)(\($0.map { "\($0):" }.joined()))`" }.filter { seen.insert($0).inserted }
      .joined(separator: ", ")
  }

  /// A typealias's target when the sources declare it, else the type itself.
  private func concrete(_ name: String) -> String {
    var current = name
    var seen: Set<String> = [name]
    while let target = declarations.types[current]?.aliasOf, declarations.types[target] != nil, seen.insert(target).inserted {
      current = target
    }
    return current
  }

  /// The members of `type` named `name`, through its extensions and the declared types it
  /// inherits; `open` when it inherits something its graph does not list the members of.
  func members(named name: String, of type: String) -> (found: [SwiftMember], open: Bool) {
    var found: [SwiftMember] = []
    var open = false
    var visited = Set<String>()
    func visit(_ type: String) {
      let type = concrete(type)
      guard visited.insert(type).inserted else { return }
      guard let declared = declarations.types[type], declared.declared, declared.kind != "associatedtype",
        declared.kind != "typealias"
      else {
        if let known = NameResolver.knownInheritance[type] {
          found += known.filter { $0.name == name }
        } else {
          open = true
        }
        return
      }
      found += declared.members.filter { $0.name == name }
      for parent in declared.inherited.sorted() { visit(parent) }
    }
    visit(type)
    return (found, open)
  }

  private func suggestion(for name: String, of type: String) -> String {
    let names = Set((declarations.types[type]?.members ?? []).map(\.name))
    let close = names.filter { $0.lowercased().hasPrefix(String(name.lowercased().prefix(3))) }.sorted().prefix(4)
    return close.isEmpty ? "" : "; it has " + close.map { "`\($0)`" }.joined(separator: ", ")
  }
}

extension Checker {
  /// The texts whose backticked names are checked.
  static let textsWithNames = ["README.md", "hints.md", "interview.md"]

  /// The given support code's modules: of them, the texts may name only the public API.
  static let supportModules: Set<String> = ["Workbook", "WorkbookTesting"]

  /// Every backticked name in the chapter's README, hints and interview that names code of the
  /// sources (see `NameResolver`) and does not resolve there, with its file and line. A tree
  /// without `Support/Workbook` (a partial copy) is not checked: without the given code, a name of
  /// it could be read against an answer's function of the same name.
  func nameProblems(_ chapter: Chapter, in catalog: Catalog, graphs: SymbolGraphs) -> [Problem] {
    guard exists("Support/Workbook") else { return [] }
    let support = Checker.supportModules.filter { exists("Support/\($0)") }
    let modules = Set([chapter.module] + catalog.composed(by: chapter).map(\.module)).union(support)
    let (declarations, unbuilt) = graphs.declarations(
      .answers, modules: modules, publicOnly: Checker.supportModules, rule: .names)
    guard let declarations else { return unbuilt }
    var tests = Set<String>()
    for file in files(in: chapter.testsPath) where file.hasSuffix(".swift") {
      let text = read("\(chapter.testsPath)/\(file)") ?? ""
      tests.formUnion(TestSource.functions(in: text, suite: "").map { testName($0.name) })
    }
    let resolver = NameResolver(declarations: declarations, testFunctions: tests)
    var found: [Problem] = []
    for name in Checker.textsWithNames {
      let file = "\(chapter.folder)/\(name)"
      guard let text = read(file) else { continue }
      for (line, span) in codeSpans(text) {
        if case .missing(let why) = resolver.resolve(span) {
          found.append(
            Problem(
              rule: .names,
              message: "\(file):\(line): `\(span)` does not resolve: \(why); write the name as the reference answer "
                + "declares it"))
        }
      }
    }
    return found
  }
}

/// The inline code spans of a Markdown text with their lines, outside code fences. A span is read
/// within one line.
func codeSpans(_ text: String) -> [(line: Int, span: String)] {
  var spans: [(line: Int, span: String)] = []
  var inFence = false
  for (index, line) in text.components(separatedBy: "\n").enumerated() {
    if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
      inFence.toggle()
      continue
    }
    if inFence { continue }
    for match in matches("(?<!`)`([^`\\n]+)`(?!`)", in: line) {
      spans.append((index + 1, match[1]))
    }
  }
  return spans
}
