import Foundation

/// The part of a module's symbol graph (`swift package dump-symbol-graph`, one `.symbols.json` per
/// module, and one `Module@Other.symbols.json` per module it extends) that the rules read: each
/// declaration's kind, path, access level, source location, doc comment and declaration as the
/// compiler prints it, and what each type conforms to or inherits.
struct SymbolGraph: Decodable {
  struct Module: Decodable {
    let name: String
  }

  struct Symbol: Decodable {
    struct Kind: Decodable {
      /// `swift.struct`, `swift.method`, `swift.enum.case`, …
      let identifier: String
    }
    struct Identifier: Decodable {
      let precise: String
    }
    struct Fragment: Decodable {
      /// `keyword`, `identifier`, `externalParam`, `internalParam`, `typeIdentifier`, `text`, …
      let kind: String
      let spelling: String
    }
    struct Location: Decodable {
      struct Position: Decodable {
        /// Counted from 0.
        let line: Int
      }
      let uri: String
      let position: Position
    }
    struct DocComment: Decodable {
      struct Line: Decodable {
        struct Range: Decodable {
          let end: Location.Position
        }
        let range: Range?
      }
      /// The file of the comment: none for one a declaration inherits from another module.
      let uri: String?
      let lines: [Line]
    }

    let kind: Kind
    let identifier: Identifier
    /// The declaration's path: `["DiskCache", "Policy", "timeout(_:)"]`.
    let pathComponents: [String]
    let accessLevel: String
    /// Nil for what the compiler declares itself (a memberwise initializer, `init(rawValue:)`).
    let location: Location?
    let docComment: DocComment?
    let declarationFragments: [Fragment]?
  }

  struct Relationship: Decodable {
    /// `memberOf`, `conformsTo`, `inheritsFrom`, …
    let kind: String
    let source: String
    let target: String
    /// The target's qualified name when it is not in this graph (`Swift.Sendable`).
    let targetFallback: String?
  }

  let module: Module
  let symbols: [Symbol]
  let relationships: [Relationship]

  /// The graphs of `modules` in a folder of `.symbols.json` files: each module's own and those of
  /// its extensions of other modules' types.
  static func load(modules: Set<String>, from folder: String) throws -> [SymbolGraph] {
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    for module in modules where !files.contains("\(module).symbols.json") {
      throw SymbolGraphs.Failure(message: "SwiftPM wrote no symbol graph of \(module) in \(folder)")
    }
    return try files.filter { file in
      guard file.hasSuffix(".symbols.json") else { return false }
      let module = file.prefix { $0 != "." && $0 != "@" }
      return modules.contains(String(module))
    }.map { try JSONDecoder().decode(SymbolGraph.self, from: Data(contentsOf: URL(fileURLWithPath: "\(folder)/\($0)"))) }
  }
}
