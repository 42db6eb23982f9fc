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

/// A named declaration inside a type (or its extensions), as `SwiftDeclarations` reads it.
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

  init(name: String, kind: Kind, labels: [String]?) {
    self.name = name
    self.kind = kind
    self.labels = labels
  }

  init(name: String, kind: Kind, parameters: [SwiftParameter]?) {
    self.name = name
    self.kind = kind
    self.labels = parameters?.map(\.label)
    self.parameters = parameters
  }

  /// Whether a text's `name(labels:)` names this declaration: its labels exactly, or its labels
  /// with parameters left out that a call may leave out (those with default values, and the
  /// closures at the end, written as trailing closures): `image(for:)` for `image(for:policy:)`
  /// when `policy` has a default.
  func accepts(_ written: [String]) -> Bool {
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

/// A public declaration with a `///` comment: its doc comment is a promise the chapter's ledger
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

/// A type as the sources declare and extend it.
struct SwiftType {
  let name: String
  /// `struct`, `class`, `enum`, `actor`, `protocol`, `typealias`; nil when the sources only extend
  /// it (`extension URLRequest`): then it is not the sources' type.
  var kind: String?
  /// The file of its declaration (or of its first extension).
  var file: String
  /// Every name after `:` in its declaration and extensions: protocols, a superclass, a raw type.
  var inherited: Set<String> = []
  var members: [SwiftMember] = []
  /// A typealias's target, when it is a plain name (`typealias Key = String`).
  var aliasOf: String?
  /// Whether an `init` is declared in the type's own body (a struct without one has a memberwise
  /// initializer whose labels are not read here).
  var declaresInit = false

  var declared: Bool { kind != nil }
}

/// The declarations of some Swift sources, read with a plain scan: no compiler, so simple and
/// predictable, and honest about what it cannot see.
///
/// Comments and string literals are blanked first. Then, tracking braces, the scan reads
/// `struct`/`class`/`enum`/`actor`/`protocol` (with what they inherit), `extension` (whose members
/// go to the extended type), `typealias`, `associatedtype`, and inside a type's braces `func`,
/// `init`, `var`, `let` and `case` (each case of `case a, b(Int)`). Parameter lists may span lines
/// and hold default values, generic clauses and closure types in parentheses (`@escaping (Int)
/// -> Void`): only each parameter's external label is kept. Declarations inside a function's or
/// accessor's body are not members. Every `func` and `init` anywhere is also indexed by base name,
/// for a signature a text writes without its type.
struct SwiftDeclarations {
  /// Types by their simple name (the last component of a nested type's path). Two types of one
  /// name in different modules merge: a name then resolves if either has the member.
  var types: [String: SwiftType] = [:]
  /// Every `func` and `init`, member or global, by base name.
  var functions: [String: [SwiftFunction]] = [:]
  /// Every public declaration with a `///` comment above it, in source order (see
  /// `DocumentedDeclaration`); those inside a type the sources declare without `public` are left
  /// out by `publicDocumented`.
  var documented: [DocumentedDeclaration] = []
  /// The qualified names of the types the sources declare, and whether each is public.
  var typeVisibility: [String: Bool] = [:]

  /// The documented public declarations whose enclosing types, where the sources declare them,
  /// are public too: the API a learner reads and the doc comments that promise something.
  var publicDocumented: [DocumentedDeclaration] {
    documented.filter { declaration in
      guard let owner = declaration.owner else { return true }
      var path = owner.split(separator: ".").map(String.init)
      while !path.isEmpty {
        if typeVisibility[path.joined(separator: ".")] == false { return false }
        path.removeLast()
      }
      return true
    }
  }

  /// A `func` or `init` wherever it is declared, for a signature a text writes without its type.
  struct SwiftFunction {
    let member: SwiftMember
    /// The type whose body or extension declares it; nil for a global function.
    let owner: String?
    /// Whether it is declared `public` or `open`.
    let isPublic: Bool
    /// Whether it is in a folder read for its public API only (given support code).
    let publicOnly: Bool
  }

  init() {}

  /// Reads every `.swift` file under `folders` (relative to `root`; a missing folder is skipped).
  /// In `publicOnlyFolders`, only `public` and `open` functions are indexed for unqualified
  /// signatures: the learner sees no other function of the given support code.
  init(folders: [String], root: String, publicOnlyFolders: Set<String> = []) {
    for folder in folders {
      let full = path(folder, in: root)
      let files = (try? FileManager.default.subpathsOfDirectory(atPath: full)) ?? []
      for file in files.sorted() where file.hasSuffix(".swift") && !Clutter.contains(file) {
        guard let text = TextFile.read("\(full)/\(file)") else { continue }
        scan(text, file: "\(folder)/\(file)", publicOnly: publicOnlyFolders.contains(folder))
      }
    }
  }

  // MARK: - Scanning

  private struct Scope {
    /// The type whose body this is; nil for a function's, closure's or accessor's body.
    let type: String?
    let isExtension: Bool
    /// The type's path as written (`Observable.Token`), nested types included.
    var qualified: String? = nil
    /// Whether the members of this body are public without saying so: those of a public
    /// protocol or a public extension, and the cases of a public enum.
    var implicitlyPublic: Set<SwiftMember.Kind> = []
  }

  mutating func scan(_ source: String, file: String, publicOnly: Bool = false) {
    let bytes = Array(source.utf8)
    let code = SwiftDeclarations.blankCommentsAndStrings(bytes)
    var scopes: [Scope] = []
    var index = 0
    var pendingScope: Scope?
    let typeKeywords: Set<String> = ["struct", "class", "enum", "actor", "protocol", "extension"]
    let modifiers: Set<String> = [
      "func", "var", "let", "subscript", "init", "final", "override", "static", "public", "private", "internal",
      "fileprivate", "open", "nonisolated", "required", "convenience", "package",
    ]

    func line(of position: Int) -> Int {
      code[..<position].reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }
    func currentType() -> String? {
      guard let top = scopes.last else { return nil }
      return top.type
    }
    func addMember(_ member: SwiftMember, at start: Int = 0) {
      // A function inside a function's body is no API.
      guard scopes.isEmpty || currentType() != nil else { return }
      let isPublic =
        SwiftDeclarations.isPublic(code, before: start) || scopes.last?.implicitlyPublic.contains(member.kind) == true
      if isPublic, SwiftDeclarations.hasDocComment(bytes, before: start) {
        documented.append(
          DocumentedDeclaration(owner: scopes.last?.qualified, member: member, file: file, line: line(of: start)))
      }
      if member.kind == .function || member.kind == .initializer || (member.kind == .property && member.labels != nil) {
        functions[member.name, default: []].append(
          SwiftFunction(
            member: member, owner: currentType(), isPublic: SwiftDeclarations.isPublic(code, before: start),
            publicOnly: publicOnly))
      }
      guard let owner = currentType() else { return }
      if types[owner] == nil { types[owner] = SwiftType(name: owner, kind: nil, file: file) }
      types[owner]?.members.append(member)
      if member.kind == .initializer, scopes.last?.isExtension == false { types[owner]?.declaresInit = true }
    }

    while index < code.count {
      let byte = code[index]
      if byte == UInt8(ascii: "{") {
        scopes.append(pendingScope ?? Scope(type: nil, isExtension: false))
        pendingScope = nil
        index += 1
        continue
      }
      if byte == UInt8(ascii: "}") {
        if !scopes.isEmpty { scopes.removeLast() }
        index += 1
        continue
      }
      guard SwiftDeclarations.isIdentifierStart(byte) else {
        index += 1
        continue
      }
      let start = index
      let word = SwiftDeclarations.identifier(code, &index)
      // `.init(`, `self.init(`, `Foo.case`: a use, not a declaration.
      if start > 0, code[start - 1] == UInt8(ascii: ".") { continue }
      // `#if`, `@available`: not keywords here.
      if start > 0, code[start - 1] == UInt8(ascii: "#") || code[start - 1] == UInt8(ascii: "@") { continue }
      let inType = currentType() != nil

      switch word {
      case _ where typeKeywords.contains(word):
        var look = index
        SwiftDeclarations.skipSpaces(code, &look)
        guard look < code.count, SwiftDeclarations.isIdentifierStart(code[look]) else { continue }
        var after = look
        let next = SwiftDeclarations.identifier(code, &after)
        if word == "class", modifiers.contains(next) { continue }  // `class func`, `class var`
        index = look
        var name = SwiftDeclarations.identifier(code, &index)
        var written = name
        if word == "extension" {
          // `extension Observable.Token`, `extension Array<Int>`: the last component names the type.
          while index < code.count, code[index] == UInt8(ascii: ".") {
            index += 1
            name = SwiftDeclarations.identifier(code, &index)
            written += ".\(name)"
          }
        }
        // The header up to the body's brace: generic parameters, what it inherits, a where clause.
        var header: [UInt8] = []
        while index < code.count, code[index] != UInt8(ascii: "{"), code[index] != UInt8(ascii: "}") {
          header.append(code[index])
          index += 1
        }
        let inherited = SwiftDeclarations.inheritance(String(decoding: header, as: UTF8.self))
        if types[name] == nil { types[name] = SwiftType(name: name, kind: nil, file: file) }
        if word != "extension", types[name]?.kind == nil {
          types[name]?.kind = word
          types[name]?.file = file
          if inType { addMember(SwiftMember(name: name, kind: .type, labels: nil)) }
        }
        types[name]?.inherited.formUnion(inherited)
        let qualified = word == "extension" ? written : [scopes.last?.qualified, name].compactMap { $0 }.joined(separator: ".")
        let isPublic = SwiftDeclarations.isPublic(code, before: start)
        if word != "extension" {
          typeVisibility[qualified] = isPublic
          if isPublic, SwiftDeclarations.hasDocComment(bytes, before: start) {
            documented.append(
              DocumentedDeclaration(
                owner: scopes.last?.qualified, member: SwiftMember(name: name, kind: .type, labels: nil), file: file,
                line: line(of: start)))
          }
        }
        var implicitlyPublic: Set<SwiftMember.Kind> = []
        if isPublic, word == "protocol" || word == "extension" {
          implicitlyPublic = [.function, .initializer, .property, .enumCase, .type]
        } else if isPublic, word == "enum" {
          implicitlyPublic = [.enumCase]
        }
        pendingScope = Scope(
          type: name, isExtension: word == "extension", qualified: qualified, implicitlyPublic: implicitlyPublic)

      case "typealias", "associatedtype":
        SwiftDeclarations.skipSpaces(code, &index)
        guard index < code.count, SwiftDeclarations.isIdentifierStart(code[index]) else { continue }
        let name = SwiftDeclarations.identifier(code, &index)
        var target: String?
        var look = index
        SwiftDeclarations.skipSpaces(code, &look)
        if word == "typealias", look < code.count, code[look] == UInt8(ascii: "=") {
          look += 1
          SwiftDeclarations.skipSpaces(code, &look)
          var path: [String] = []
          while look < code.count, SwiftDeclarations.isIdentifierStart(code[look]) {
            path.append(SwiftDeclarations.identifier(code, &look))
            guard look < code.count, code[look] == UInt8(ascii: ".") else { break }
            look += 1
          }
          // A plain name only: `(Int) -> Void` or `Result<A, B>` are no type of the sources.
          let end = look < code.count ? code[look] : UInt8(ascii: "\n")
          if let last = path.last, end == UInt8(ascii: "\n") || end == UInt8(ascii: " ") || end == UInt8(ascii: ";") {
            target = last
          }
        }
        if types[name] == nil || types[name]?.kind == nil {
          var type = types[name] ?? SwiftType(name: name, kind: nil, file: file)
          type.kind = word == "typealias" ? "typealias" : "associatedtype"
          type.file = file
          type.aliasOf = target
          types[name] = type
        }
        if inType { addMember(SwiftMember(name: name, kind: .type, labels: nil), at: start) }

      case "func":
        SwiftDeclarations.skipSpaces(code, &index)
        guard index < code.count, SwiftDeclarations.isIdentifierStart(code[index]) else { continue }  // an operator
        let name = SwiftDeclarations.identifier(code, &index)
        var look = index
        guard let parameters = SwiftDeclarations.parameters(code, &look) else { continue }
        index = look
        addMember(SwiftMember(name: name, kind: .function, parameters: parameters), at: start)

      case "init":
        var look = index
        if look < code.count, code[look] == UInt8(ascii: "?") || code[look] == UInt8(ascii: "!") { look += 1 }
        guard let parameters = SwiftDeclarations.parameters(code, &look) else { continue }
        index = look
        addMember(SwiftMember(name: "init", kind: .initializer, parameters: parameters), at: start)

      case "var", "let":
        guard inType else { continue }
        SwiftDeclarations.skipSpaces(code, &index)
        guard index < code.count, SwiftDeclarations.isIdentifierStart(code[index]) else { continue }
        let name = SwiftDeclarations.identifier(code, &index)
        // A stored closure (`let wallTime: @Sendable () -> Double`) is called like a function
        // with unlabelled arguments.
        var parameters: [SwiftParameter]?
        var look = index
        SwiftDeclarations.skipSpaces(code, &look, newlines: false)
        if look < code.count, code[look] == UInt8(ascii: ":") {
          var type: [UInt8] = []
          look += 1
          while look < code.count, ![UInt8(ascii: "\n"), UInt8(ascii: "="), UInt8(ascii: "{")].contains(code[look]) {
            type.append(code[look])
            look += 1
          }
          parameters = SwiftDeclarations.closureParameters(String(decoding: type, as: UTF8.self))
        }
        addMember(SwiftMember(name: name, kind: .property, parameters: parameters), at: start)

      case "case":
        guard inType else { continue }
        while true {
          SwiftDeclarations.skipSpaces(code, &index)
          guard index < code.count, SwiftDeclarations.isIdentifierStart(code[index]) else { break }
          let name = SwiftDeclarations.identifier(code, &index)
          var parameters: [SwiftParameter]?
          var look = index
          if index < code.count, code[index] == UInt8(ascii: "("),
            let payload = SwiftDeclarations.parameters(code, &look)
          {
            parameters = payload
            index = look
          }
          addMember(SwiftMember(name: name, kind: .enumCase, parameters: parameters), at: start)
          SwiftDeclarations.skipSpaces(code, &index, newlines: false)
          if index < code.count, code[index] == UInt8(ascii: "=") {
            while index < code.count, code[index] != UInt8(ascii: ","), code[index] != UInt8(ascii: "\n") { index += 1 }
          }
          guard index < code.count, code[index] == UInt8(ascii: ",") else { break }
          index += 1
        }

      default:
        continue
      }
    }
  }

  // MARK: - Lexical helpers

  static func isIdentifierStart(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: "`")
  }

  static func isIdentifierByte(_ byte: UInt8) -> Bool {
    isIdentifierStart(byte) || (byte >= 0x30 && byte <= 0x39)
  }

  /// Reads an identifier at `index` (without the backticks of `` `default` ``).
  static func identifier(_ code: [UInt8], _ index: inout Int) -> String {
    let start = index
    while index < code.count, isIdentifierByte(code[index]) { index += 1 }
    return String(decoding: code[start..<index], as: UTF8.self).replacingOccurrences(of: "`", with: "")
  }

  static func skipSpaces(_ code: [UInt8], _ index: inout Int, newlines: Bool = true) {
    while index < code.count,
      code[index] == UInt8(ascii: " ") || code[index] == UInt8(ascii: "\t")
        || (newlines && (code[index] == UInt8(ascii: "\n") || code[index] == UInt8(ascii: "\r")))
    {
      index += 1
    }
  }

  /// Whether the declaration whose keyword starts at `start` says `public` or `open` before it
  /// (among its attributes and modifiers, back to the previous line break or brace).
  static func isPublic(_ code: [UInt8], before start: Int) -> Bool {
    var begin = start
    while begin > 0, ![UInt8(ascii: "\n"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: ";")].contains(code[begin - 1]) {
      begin -= 1
    }
    let words = String(decoding: code[begin..<start], as: UTF8.self).split(separator: " ")
    return words.contains("public") || words.contains("open")
  }

  /// Whether a `///` comment stands right above the declaration whose keyword starts at `start`
  /// (attribute lines such as `@discardableResult` may come between).
  static func hasDocComment(_ source: [UInt8], before start: Int) -> Bool {
    var end = start
    while end > 0, source[end - 1] != UInt8(ascii: "\n") { end -= 1 }
    let text = String(decoding: source[..<end], as: UTF8.self)
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).reversed().dropFirst() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("///") { return true }
      if trimmed.hasPrefix("@") { continue }
      return false
    }
    return false
  }

  /// After a function's name: skips a generic clause `<…>`, then reads the parameter list `(…)`;
  /// nil when no list follows.
  static func parameters(_ code: [UInt8], _ index: inout Int) -> [SwiftParameter]? {
    skipSpaces(code, &index)
    if index < code.count, code[index] == UInt8(ascii: "<") {
      var depth = 0
      while index < code.count {
        let byte = code[index]
        if byte == UInt8(ascii: "<") { depth += 1 }
        if byte == UInt8(ascii: ">"), code[index - 1] != UInt8(ascii: "-") { depth -= 1 }
        index += 1
        if depth == 0 { break }
      }
      skipSpaces(code, &index)
    }
    guard index < code.count, code[index] == UInt8(ascii: "(") else { return nil }
    // Brackets nest by depth; angle brackets only when they open a generic argument list (right
    // after a name: `Result<A, B>`), so `1 << 20` or `a < b` in a default value is no bracket.
    var depth = 0
    var angles = 0
    var pieces: [[UInt8]] = [[]]
    while index < code.count {
      let byte = code[index]
      let previous = index > 0 ? code[index - 1] : UInt8(ascii: " ")
      index += 1
      switch byte {
      case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        if depth == 1 { continue }
      case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
        depth -= 1
        if depth == 0 {
          let texts = pieces.map { String(decoding: $0, as: UTF8.self) }
          if texts.count == 1, label(texts[0]) == nil { return [] }
          return texts.map { parameter($0) }
        }
      case UInt8(ascii: "<"):
        if isIdentifierByte(previous) { angles += 1 }
      case UInt8(ascii: ">"):
        if previous != UInt8(ascii: "-"), angles > 0 { angles -= 1 }
      case UInt8(ascii: ","):
        if depth == 1, angles == 0 {
          pieces.append([])
          continue
        }
      default:
        break
      }
      pieces[pieces.count - 1].append(byte)
    }
    return nil
  }

  /// The unlabelled parameters of a function type (`@Sendable (Int, String) async -> Void` → two),
  /// nil for any other type. An optional closure (`((Int) -> Void)?`) is not read as one.
  static func closureParameters(_ type: String) -> [SwiftParameter]? {
    var text = type.trimmingCharacters(in: .whitespaces)
    while text.hasPrefix("@") {
      text = String(text.drop { $0 != " " && $0 != "(" }).trimmingCharacters(in: .whitespaces)
    }
    guard text.hasPrefix("("), text.contains("->") else { return nil }
    var depth = 0
    var count = 0
    var sawContent = false
    for character in text {
      if character == "(" || character == "[" || character == "<" { depth += 1 }
      if character == ")" || character == "]" || character == ">" { depth -= 1 }
      if depth == 0 { break }
      if depth == 1, character == "," { count += 1 }
      if depth >= 1, character != "(", character != " " { sawContent = true }
    }
    let parameters = sawContent ? count + 1 : 0
    return Array(repeating: SwiftParameter(label: "_"), count: parameters)
  }

  /// One parameter's label, whether it has a default value (an `=` outside brackets) and whether
  /// its type is a function type (an `->` outside brackets, or `@escaping`).
  static func parameter(_ text: String) -> SwiftParameter {
    var depth = 0
    var defaulted = false
    var arrow = false
    var previous: Character = " "
    for character in text {
      switch character {
      case "(", "[": depth += 1
      case "<": if previous.isLetter || previous.isNumber || previous == "_" { depth += 1 }
      case ")", "]": depth -= 1
      case ">": if previous == "-" { if depth == 0 { arrow = true } } else if depth > 0 { depth -= 1 }
      case "=": if depth == 0 { defaulted = true }
      default: break
      }
      previous = character
      if defaulted { break }
    }
    let closure = arrow || text.contains("@escaping")
    return SwiftParameter(label: label(text) ?? "_", defaulted: defaulted, closure: closure && !defaulted)
  }

  /// The external label of one parameter (`_ key: K` → `_`, `for key: K` → `for`, `limit: Int =
  /// 10` → `limit`), `_` for an unlabelled payload type (`Int`), nil for an empty list.
  static func label(_ parameter: String) -> String? {
    let text = parameter.trimmingCharacters(in: .whitespacesAndNewlines)
    if text.isEmpty { return nil }
    guard let colon = text.firstIndex(of: ":") else { return "_" }
    let words = text[..<colon].split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
    guard let first = words.first else { return "_" }
    let name = first.replacingOccurrences(of: "`", with: "")
    // `(Int, key: String)` as a payload, or a closure type's `(inout State)`: no label.
    return isIdentifier(name) ? name : "_"
  }

  static func isIdentifier(_ text: String) -> Bool {
    guard let first = text.utf8.first, isIdentifierStart(first) else { return false }
    return text.utf8.allSatisfy(isIdentifierByte)
  }

  /// What a type header inherits: `<T>: Sendable, Equatable where T: Hashable` → Sendable,
  /// Equatable (last path component, generic arguments and `@unchecked` dropped).
  static func inheritance(_ header: String) -> Set<String> {
    var text = header.trimmingCharacters(in: .whitespacesAndNewlines)
    if text.hasPrefix("<") {
      var depth = 0
      var end = text.startIndex
      for (offset, character) in zip(text.indices, text) {
        if character == "<" { depth += 1 }
        if character == ">" { depth -= 1 }
        if depth == 0 {
          end = text.index(after: offset)
          break
        }
      }
      text = String(text[end...]).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    guard text.hasPrefix(":") else { return [] }
    text.removeFirst()
    if let range = text.range(of: #"\bwhere\b"#, options: .regularExpression) { text = String(text[..<range.lowerBound]) }
    var names = Set<String>()
    var depth = 0
    var piece = ""
    for character in text + "," {
      if character == "<" { depth += 1 }
      if character == ">" { depth -= 1 }
      if character == ",", depth == 0 {
        let words = piece.split(separator: " ").filter { !$0.hasPrefix("@") && !$0.hasPrefix("~") }
        if let word = words.first {
          let name = word.prefix { $0 != "<" }.split(separator: ".").last.map(String.init) ?? ""
          if !name.isEmpty { names.insert(name) }
        }
        piece = ""
        continue
      }
      piece.append(character)
    }
    return names
  }

  /// The source with every comment and the inside of every string literal turned into spaces
  /// (newlines kept), so a `func` in a doc comment or a `{` in a string is not read as code. A
  /// string's interpolations `\(…)` stay code.
  static func blankCommentsAndStrings(_ source: [UInt8]) -> [UInt8] {
    var code = source
    var index = 0
    func blank(_ position: Int) {
      if code[position] != UInt8(ascii: "\n") { code[position] = UInt8(ascii: " ") }
    }
    func at(_ position: Int, _ text: String) -> Bool {
      let bytes = Array(text.utf8)
      guard position + bytes.count <= code.count else { return false }
      return Array(code[position..<position + bytes.count]) == bytes
    }
    /// Skips code from `index` until an unmatched `)` (an interpolation's end) or the end.
    func skipCode(untilClose: Bool) {
      var depth = 0
      while index < code.count {
        if at(index, "//") {
          while index < code.count, code[index] != UInt8(ascii: "\n") {
            blank(index)
            index += 1
          }
        } else if at(index, "/*") {
          var nesting = 0
          repeat {
            if at(index, "/*") {
              nesting += 1
              blank(index)
              blank(index + 1)
              index += 2
            } else if at(index, "*/") {
              nesting -= 1
              blank(index)
              blank(index + 1)
              index += 2
            } else {
              blank(index)
              index += 1
            }
          } while index < code.count && nesting > 0
        } else if code[index] == UInt8(ascii: "\"") || (code[index] == UInt8(ascii: "#") && at(index + 1, "\"")) {
          skipString()
        } else {
          if code[index] == UInt8(ascii: "(") { depth += 1 }
          if code[index] == UInt8(ascii: ")") {
            if depth == 0, untilClose { return }
            depth -= 1
          }
          index += 1
        }
      }
    }
    func skipString() {
      var hashes = 0
      while index < code.count, code[index] == UInt8(ascii: "#") {
        hashes += 1
        index += 1
      }
      let multiline = at(index, "\"\"\"")
      let quote = multiline ? "\"\"\"" : "\""
      index += quote.utf8.count
      let close = quote + String(repeating: "#", count: hashes)
      let escape = "\\" + String(repeating: "#", count: hashes)
      while index < code.count {
        if at(index, close) {
          index += close.utf8.count
          return
        }
        if !multiline, code[index] == UInt8(ascii: "\n") { return }  // unterminated: give up on the line
        if at(index, escape + "(") {
          index += escape.utf8.count + 1
          skipCode(untilClose: true)
          if index < code.count { index += 1 }  // the interpolation's `)`
          continue
        }
        if at(index, escape) {
          blank(index)
          index += escape.utf8.count
          if index < code.count { blank(index) }
          index += 1
          continue
        }
        blank(index)
        index += 1
      }
    }
    skipCode(untilClose: false)
    return code
  }
}
