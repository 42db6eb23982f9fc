import Foundation

/// One parameter of a function, an initializer or a case's payload.
struct SwiftParameter: Equatable {
  /// The external label, `_` for none.
  let label: String
  /// Whether it has a default value, so a call may leave it out.
  var defaulted = false
  /// Whether its type is a function type, so a call may pass it as a trailing closure.
  var closure = false
}

/// A named declaration inside a type (or its extensions).
struct SwiftMember: Equatable {
  enum Kind: Equatable {
    case function, initializer, property, enumCase, type
  }

  let name: String
  let kind: Kind
  /// The external argument labels (`_` for none) of a function, an initializer or a case with a
  /// payload; nil for a property, a case without payload or a nested type.
  let labels: [String]?
  /// The parameters behind `labels`: which a call may leave out.
  var parameters: [SwiftParameter]? = nil
  /// Whether it is a property whose type is a function type (`let wallTime: () -> Double`), called
  /// like a function with unlabelled arguments.
  var storedClosure = false

  /// Whether a text's `name(labels:)` names this declaration: its labels exactly, or its labels
  /// with parameters left out that a call may leave out (those with default values, and the
  /// closures at the end, written as trailing closures): `image(for:)` for `image(for:policy:)`
  /// when `policy` has a default. A stored closure takes any number of unlabelled arguments: the
  /// graph prints its type, and its arity is not read from that text.
  func accepts(_ written: [String]) -> Bool {
    if storedClosure { return written.allSatisfy { $0 == "_" } }
    guard let labels else { return false }
    if labels == written { return true }
    guard let parameters else { return false }
    func match(_ word: Int, _ parameter: Int) -> Bool {
      if word == written.count {
        return parameters[parameter...].allSatisfy { $0.defaulted || $0.closure }
      }
      guard parameter < parameters.count else { return false }
      if parameters[parameter].label == written[word], match(word + 1, parameter + 1) { return true }
      return parameters[parameter].defaulted && match(word, parameter + 1)
    }
    return match(0, 0)
  }

  /// `parse(_:now:)`, `init(limit:)`, `value`.
  var signature: String {
    guard let labels else { return name }
    return "\(name)(\(labels.map { "\($0):" }.joined()))"
  }
}

/// A public declaration with a doc comment: its comment is a promise the chapter's ledger
/// (`promises.md`) answers for.
struct DocumentedDeclaration: Equatable {
  /// The path of the type whose body or extension declares it (`Observable.Token`); nil at the top.
  let owner: String?
  let member: SwiftMember
  let file: String
  let line: Int

  /// As a text names it: `DataStore`, `DataStore.update(_:_:)`, `observations(of:)`.
  var heading: String { [owner, member.signature].compactMap { $0 }.joined(separator: ".") }
}

/// A type as the modules declare and extend it.
struct SwiftType {
  let name: String
  /// `struct`, `class` (an actor too), `enum`, `protocol`, `typealias`, `associatedtype`; nil when
  /// the modules only extend it (`extension URLRequest`): then it is not theirs.
  var kind: String?
  /// The file of its declaration (or of its first extension).
  var file: String
  /// What it conforms to or inherits, as the compiler lists it (the protocols a conformance
  /// implies too: `Hashable` brings `Equatable`).
  var inherited: Set<String> = []
  var members: [SwiftMember] = []
  /// A typealias's target, when it is a plain name (`typealias Key = String`).
  var aliasOf: String?

  var declared: Bool { kind != nil }
}

/// The declarations of some modules, read from their symbol graphs (`SymbolGraphs`): types by
/// their simple name, with their members and what they inherit; every function by base name; the
/// documented public declarations. The compiler declares what a text may name even where the
/// sources write nothing: a struct's memberwise initializer, an enum's `init(rawValue:)`.
///
/// The graph lists each function's labels but not which parameters have a default value or take
/// a closure, and a property's type only as printed text. Those are read from the declaration as
/// the compiler prints it (`func image(for url: URL, policy: Policy = .cacheFirst)`): a parameter
/// has a default when ` = ` follows its type, takes a closure when its type has `->` or
/// `@escaping`, and a property is a stored closure when its type has `->` and is not optional.
struct Declarations {
  /// Types by their simple name (the last component of a nested type's path). Two types of one
  /// name in different modules merge: a name then resolves if either has the member.
  var types: [String: SwiftType] = [:]
  /// Every function, initializer and stored closure, member or global, by base name.
  var functions: [String: [Function]] = [:]
  /// Every public declaration with a doc comment of its own whose enclosing types are public too,
  /// by file and line: the API a learner reads and the doc comments that promise something.
  var documented: [DocumentedDeclaration] = []

  /// A function wherever it is declared, for a signature a text writes without its type.
  struct Function {
    let member: SwiftMember
    /// The type whose body or extension declares it; nil for a global function.
    let owner: String?
    /// Whether it is `public` or `open`.
    let isPublic: Bool
    /// Whether its module is read for its public API only (the given support code).
    let publicOnly: Bool
  }

  static let typeKinds = [
    "swift.struct": "struct", "swift.class": "class", "swift.enum": "enum", "swift.protocol": "protocol",
    "swift.typealias": "typealias", "swift.associatedtype": "associatedtype",
  ]
  static let memberKinds: [String: SwiftMember.Kind] = [
    "swift.func": .function, "swift.method": .function, "swift.type.method": .function, "swift.subscript": .function,
    "swift.init": .initializer, "swift.property": .property, "swift.type.property": .property, "swift.var": .property,
    "swift.enum.case": .enumCase,
  ]

  /// `root` is the package's folder, which files are named from; in the modules of `publicOnly`,
  /// only `public` and `open` functions are indexed for unqualified signatures.
  init(graphs: [SymbolGraph], root: String, publicOnly: Set<String> = []) {
    let folder = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath().path + "/"
    func file(_ location: SymbolGraph.Symbol.Location?) -> String? {
      guard let location, let url = URL(string: location.uri) else { return nil }
      let full = url.resolvingSymlinksInPath().path
      return full.hasPrefix(folder) ? String(full.dropFirst(folder.count)) : full
    }
    var byID: [String: SymbolGraph.Symbol] = [:]
    var typeAccess: [String: String] = [:]
    /// Where declarations are, by file: a comment with one between it and a declaration is not
    /// that declaration's own.
    var declarationLines: [String: [(line: Int, path: [String])]] = [:]
    for graph in graphs {
      for symbol in graph.symbols {
        byID[symbol.identifier.precise] = symbol
        if let location = symbol.location {
          declarationLines[location.uri, default: []].append((location.position.line, symbol.pathComponents))
        }
        if Declarations.typeKinds[symbol.kind.identifier] != nil {
          typeAccess["\(graph.module.name) \(symbol.pathComponents.joined(separator: "."))"] = symbol.accessLevel
        }
      }
    }
    let visible: Set<String> = ["public", "open"]
    for graph in graphs {
      for symbol in graph.symbols {
        guard let name = symbol.pathComponents.last else { continue }
        let path = symbol.pathComponents.dropLast()
        let owner = path.last
        let member: SwiftMember
        if let kind = Declarations.typeKinds[symbol.kind.identifier] {
          var type = types[name] ?? SwiftType(name: name, kind: nil, file: file(symbol.location) ?? "?")
          if type.kind == nil {
            type.kind = kind
            type.file = file(symbol.location) ?? type.file
            type.aliasOf = kind == "typealias" ? Declarations.aliasTarget(symbol.declarationFragments ?? []) : nil
          }
          types[name] = type
          member = SwiftMember(name: name, kind: .type, labels: nil)
        } else if let kind = Declarations.memberKinds[symbol.kind.identifier] {
          member = Declarations.member(name, kind, symbol.declarationFragments ?? [])
          if member.labels != nil || member.storedClosure {
            functions[member.name, default: []].append(
              Function(
                member: member, owner: owner, isPublic: visible.contains(symbol.accessLevel),
                publicOnly: publicOnly.contains(graph.module.name)))
          }
        } else {
          continue  // an operator, a macro: no name a text writes as a path
        }
        if let owner {
          if types[owner] == nil { types[owner] = SwiftType(name: owner, kind: nil, file: file(symbol.location) ?? "?") }
          types[owner]?.members.append(member)
        }
        // Documented: a comment of its own, on a declaration public all the way out (its enclosing
        // types that these modules declare are public too). Swift Build's SwiftPM gives a member
        // the comment of the requirement it implements, whatever `--skip-inherited-docs` says: a
        // comment is the declaration's own when it is in its file and no declaration stands
        // between them (a member a macro adds, `@Observable`'s `access(keyPath:)`, stands at the
        // attribute, and is not another declaration).
        guard let location = symbol.location, let comment = symbol.docComment, comment.uri == location.uri,
          let end = comment.lines.last?.range?.end.line, end < location.position.line,
          !(declarationLines[location.uri] ?? []).contains(where: {
            end < $0.line && $0.line < location.position.line && !$0.path.starts(with: symbol.pathComponents)
          }),
          visible.contains(symbol.accessLevel),
          path.indices.allSatisfy({
            typeAccess["\(graph.module.name) \(path[...$0].joined(separator: "."))"].map(visible.contains) ?? true
          })
        else { continue }
        documented.append(
          DocumentedDeclaration(
            owner: path.isEmpty ? nil : path.joined(separator: "."), member: member, file: file(location) ?? "?",
            line: location.position.line + 1))
      }
      for relationship in graph.relationships where relationship.kind == "conformsTo" || relationship.kind == "inheritsFrom" {
        guard let source = byID[relationship.source], Declarations.typeKinds[source.kind.identifier] != nil,
          let name = source.pathComponents.last,
          let target = byID[relationship.target]?.pathComponents.last
            ?? relationship.targetFallback?.split(separator: ".").last.map(String.init)
        else { continue }
        types[name]?.inherited.insert(target)
      }
    }
    documented.sort { ($0.file, $0.line) < ($1.file, $1.line) }
  }

  /// A member from its name as the graph gives it (`store(_:forKey:)`, `value`) and its
  /// declaration as the compiler prints it.
  static func member(_ name: String, _ kind: SwiftMember.Kind, _ fragments: [SymbolGraph.Symbol.Fragment]) -> SwiftMember {
    guard let open = name.firstIndex(of: "("), name.hasSuffix(")") else {
      let printed = fragments.map(\.spelling).joined()
      var type = printed.split(separator: ":", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
      if let accessors = type.range(of: " {") { type = String(type[..<accessors.lowerBound]) }
      let closure = kind == .property && type.contains("->") && !type.hasSuffix("?") && !type.hasSuffix("!")
      return SwiftMember(name: name, kind: kind, labels: nil, storedClosure: closure)
    }
    let labels = name[name.index(after: open)..<name.index(before: name.endIndex)].split(separator: ":").map(String.init)
    return SwiftMember(
      name: String(name[..<open]), kind: kind, labels: labels, parameters: Declarations.parameters(fragments, labels))
  }

  /// Each parameter's printed text, from its label (or its name, when it has no label of its own)
  /// to the next parameter or the `)` that closes the list: whether it has a default value, and
  /// whether it takes a closure; nil unless there is one text per label (a payload of types only).
  static func parameters(_ fragments: [SymbolGraph.Symbol.Fragment], _ labels: [String]) -> [SwiftParameter]? {
    var texts: [String] = []
    var depth = 0
    var afterLabel = false
    reading: for fragment in fragments {
      let starts = fragment.kind == "externalParam" || (fragment.kind == "internalParam" && !afterLabel)
      if fragment.kind == "externalParam" {
        afterLabel = true
      } else if fragment.kind != "text" || !fragment.spelling.allSatisfy(\.isWhitespace) {
        afterLabel = false
      }
      if starts {
        texts.append("")
        depth = 0
      }
      guard !texts.isEmpty else { continue }
      for character in fragment.spelling {
        if character == "(" || character == "[" { depth += 1 }
        if character == ")" || character == "]" { depth -= 1 }
        if depth < 0 { break reading }
        texts[texts.count - 1].append(character)
      }
    }
    guard texts.count == labels.count else { return nil }
    return zip(labels, texts).map { label, text in
      let defaulted = text.contains(" = ")
      return SwiftParameter(
        label: label, defaulted: defaulted, closure: !defaulted && (text.contains("->") || text.contains("@escaping")))
    }
  }

  /// A typealias's target when it is one name (`typealias Store = DiskCache`); nil for a function
  /// type or a generic one.
  static func aliasTarget(_ fragments: [SymbolGraph.Symbol.Fragment]) -> String? {
    guard let equals = fragments.firstIndex(where: { $0.kind == "text" && $0.spelling.contains("=") }) else { return nil }
    let target = fragments[(equals + 1)...].filter { !$0.spelling.allSatisfy(\.isWhitespace) }
    guard target.count == 1, target[target.startIndex].kind == "typeIdentifier" else { return nil }
    return target[target.startIndex].spelling.split(separator: ".").last.map(String.init)
  }
}
