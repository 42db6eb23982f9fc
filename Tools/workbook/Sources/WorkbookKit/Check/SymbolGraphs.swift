import Foundation
import Synchronization

/// The workbook's own modules as the compiler declares them: the symbol graphs of the starters'
/// package and of the answers' package, each built once per `workbook check` and kept under
/// `.build/symbol-graphs/` until a Swift source, the manifest or the build engine changes. The
/// `names`, `promises` and `platform-names` rules read declarations from them, never from the
/// sources' text: the compiler reads every Swift it accepts, attributes, macros and all.
final class SymbolGraphs {
  /// Which copy of the chapters a graph is of.
  enum Sources: String {
    case starters, answers
  }

  struct Failure: Error {
    let message: String

    init(message: String) { self.message = message }
    init(_ error: any Error) { self.message = (error as? Failure)?.message ?? "\(error)" }
  }

  /// Builds (or finds) the graphs of one copy and returns the folder of their `.symbols.json` files.
  private let build: @Sendable (Sources) throws -> String
  /// The package's folder, which the graphs' files are named from.
  let root: String
  private var folders: [Sources: Result<String, Failure>] = [:]
  private var decoded: [String: [SymbolGraph]] = [:]
  /// The copies whose failure a rule has reported already: one problem is enough.
  private var reported: Set<Sources> = []

  init(root: String, build: @escaping @Sendable (Sources) throws -> String) {
    self.root = root
    self.build = build
  }

  /// The graphs of the package at `root`, built by SwiftPM.
  static func compiled(root: String) -> SymbolGraphs {
    SymbolGraphs(root: root) { try SymbolGraphs.build($0, root: root) }
  }

  /// No graphs: a tree the rules read as declaring nothing, and say nothing about (most of the
  /// tool's tests, whose scratch workbooks are no package SwiftPM can build).
  static var empty: SymbolGraphs {
    SymbolGraphs(root: ".") { _ in throw Failure(message: "") }
  }

  /// Builds the graphs of both copies at once where they are not built yet: on a clean tree the
  /// two SwiftPM builds share the machine instead of waiting for each other.
  func prepare() {
    let missing = [Sources.starters, .answers].filter { folders[$0] == nil }
    let build = self.build
    let built = Mutex<[Sources: Result<String, Failure>]>([:])
    DispatchQueue.concurrentPerform(iterations: missing.count) { index in
      let folder = Result { try build(missing[index]) }.mapError(Failure.init)
      built.withLock { $0[missing[index]] = folder }
    }
    folders.merge(built.withLock { $0 }) { $1 }
  }

  /// The declarations of `modules` in one copy; in `publicOnly`, only `public` and `open`
  /// functions count for a signature written without its type. When the graphs cannot be built,
  /// nil: the rule checks nothing that needs them, and the first rule to ask says why.
  func declarations(
    _ sources: Sources, modules: Set<String>, publicOnly: Set<String> = [], rule: Rule
  ) -> (declarations: Declarations?, problems: [Problem]) {
    let folder = folders[sources] ?? Result { try build(sources) }.mapError(Failure.init)
    folders[sources] = folder
    let read = folder.flatMap { folder in
      Result {
        let graphs = try modules.sorted().flatMap { module in
          if let known = decoded["\(folder)/\(module)"] { return known }
          let graphs = try SymbolGraph.load(modules: [module], from: folder)
          decoded["\(folder)/\(module)"] = graphs
          return graphs
        }
        return Declarations(graphs: graphs, root: root, publicOnly: publicOnly)
      }.mapError(Failure.init)
    }
    switch read {
    case .success(let declarations): return (declarations, [])
    case .failure(let failure):
      // One problem per copy is enough; `empty` has nothing to say.
      guard !failure.message.isEmpty, reported.insert(sources).inserted else { return (nil, []) }
      let message =
        "the symbol graph of the \(sources.rawValue) could not be built, so the rules that read declarations are "
        + "not checked: \(failure.message)"
      return (nil, [Problem(rule: rule, message: message)])
    }
  }

  // MARK: - Building

  /// What selects a copy in the workbook's manifest (see Package.swift): every chapter, from
  /// `answers/` or from `Sources/`, and nothing else.
  static func environment(_ sources: Sources) -> [String: String] {
    [
      "WORKBOOK_CHAPTERS": "all", "WORKBOOK_ANSWERS": sources == .answers ? "all" : "", "WORKBOOK_MUTANT": "",
      "WORKBOOK_TOOLS": "", "WORKBOOK_WERROR": "", "WORKBOOK_NONSENDING": "", "WORKBOOK_APP_TARGET": "",
    ]
  }

  /// The folders whose Swift the graphs are built from.
  static let sourceFolders = ["Sources", "answers", "Support"]

  /// Builds the graphs of one copy with `swift package dump-symbol-graph` (internal declarations
  /// too: a text may name them), unless the sources are those of the last build. SwiftPM says
  /// where it wrote them; the two build engines write them to different folders.
  static func build(_ sources: Sources, root: String, swift: String = "swift") throws -> String {
    let engine = BuildSystem.arguments()
    let base = path(".build/symbol-graphs/\(([sources.rawValue] + engine.dropFirst()).joined(separator: "-"))", in: root)
    let key = contentKey(root: root, inputs: engine + [sources.rawValue])
    let record = "\(base)/built.txt"
    if let lines = TextFile.read(record)?.split(separator: "\n").map(String.init), lines.count == 2, lines[0] == key,
      FileManager.default.fileExists(atPath: lines[1])
    {
      return lines[1]
    }
    let command =
      [swift, "package", "--package-path", root, "--scratch-path", "\(base)/build"] + engine + [
        "dump-symbol-graph", "--minimum-access-level", "internal", "--skip-synthesized-members", "--skip-inherited-docs",
      ]
    // Swift 6.3's SwiftPM also asks for the graphs of the test-discovery modules it did not build,
    // fails on them and exits with an error: its last line still says where the graphs of the
    // modules it built are, and a module whose graph is not there fails when it is read.
    let result = try runCommand(command, environment: environment(sources), timeout: 1800)
    let written = matches(#"^Files written to (.+)$"#, in: result.output).last?[1]
    guard !result.timedOut, let folder = written?.trimmingCharacters(in: .whitespaces) else {
      let errors = result.output.split(separator: "\n").filter { $0.contains("error:") }.prefix(3)
      throw Failure(
        message: "`\(command.joined(separator: " "))` failed: "
          + (errors.isEmpty ? String(result.output.suffix(300)) : errors.joined(separator: " | ")))
    }
    try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
    try "\(key)\n\(folder)\n".write(toFile: record, atomically: true, encoding: .utf8)
    return folder
  }

  /// A hash of the manifest and of every Swift file (path and text) the graphs are built from.
  static func contentKey(root: String, inputs: [String]) -> String {
    var bytes = Array(inputs.joined(separator: "\n").utf8)
    let manager = FileManager.default
    var files = ["Package.swift"]
    for folder in sourceFolders {
      let found = (try? manager.subpathsOfDirectory(atPath: path(folder, in: root))) ?? []
      files += found.filter { $0.hasSuffix(".swift") }.sorted().map { "\(folder)/\($0)" }
    }
    for file in files {
      bytes += Array("\u{0}\(file)\u{0}".utf8)
      bytes += Array((manager.contents(atPath: path(file, in: root)) ?? Data()))
    }
    return String(StarterFingerprints.fnv1a64(bytes), radix: 16)
  }
}
