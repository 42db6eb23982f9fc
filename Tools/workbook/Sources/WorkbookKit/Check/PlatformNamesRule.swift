import Foundation

/// Backticked platform APIs in the texts, checked against the toolchain that grades the workbook:
/// a span such as `Task.escalatePriority(to:)` or `Dictionary.removeValue(forKey:)` whose type is
/// in the modules this toolchain has (the standard library, Concurrency, Synchronization,
/// Observation, Dispatch, Foundation and FoundationNetworking) is compiled as a call with a
/// placeholder for each argument, `_ = Task.escalatePriority(to: placeholder())`, so that
/// parameters with a default value may be left out as a caller leaves them out; a member, label or
/// argument the compiler does not find is a problem. A proposal's text is not what shipped: the
/// compiler is.
///
/// Foundation on Linux is not Apple's: swift-corelibs-foundation lacks some of Apple's members
/// (`URLResourceKey.volumeAvailableCapacityForImportantUsageKey`, `Date.HTTPFormatStyle`). A
/// Foundation member this toolchain does not have passes only where its paragraph teaches it as
/// Apple's, with its availability (`iOS 11.0+`, "iOS 16"), as Apple's documentation gives it; a
/// label the compiler refuses on a member it has is refused all the same.
///
/// Not checked: a type this toolchain does not have (UIKit, BackgroundTasks), a type of the
/// workbook's own code (the `names` rule checks those), and a span in a paragraph that says it is
/// about Swift 6.4 or the iOS 27 SDK, which this toolchain (6.3) cannot know.
struct PlatformNames {
  /// The `swiftc` that type-checks the references.
  var compiler = "swiftc"
  /// Words that mark a paragraph as beyond the grading toolchain.
  static let beyondToolchain = ["Swift 6.4", "iOS 27", "macOS 27", "Xcode 27"]
  /// The modules Apple's platforms and this toolchain share unchanged, as imports.
  static let imports = "import Dispatch\nimport Synchronization\nimport Observation\n"
  /// Foundation, whose Linux implementation lacks some of Apple's members.
  static let foundationImports = "import Foundation\n#if canImport(FoundationNetworking)\nimport FoundationNetworking\n#endif\n"
  /// A platform and version in a paragraph: the availability an Apple-only API is taught with.
  static let availability = #"\b(iOS|iPadOS|macOS|watchOS|tvOS|visionOS|Mac Catalyst) \d+"#
  /// A value of any type, for an argument: the call type-checks its labels, not its values.
  static let placeholder = "func placeholder<Value>() -> Value { fatalError() }\n"

  /// A span that reads as `Type.member…` or `Type(labels:)`, with its file and line.
  struct Reference: Equatable {
    let file: String
    let line: Int
    let span: String
    let type: String
    /// The Swift expression that uses it: `Task.escalatePriority(to: placeholder())`, `Mutex(placeholder())`,
    /// `Task.isCancelled`.
    var expression: String
    /// Whether its paragraph gives a platform version (`iOS 11.0+`): an API taught as Apple's.
    var taughtWithAvailability = false
  }

  /// The references in a Markdown text: code spans that parse as a dotted name (with labels),
  /// whose first component is capitalized and not one of `ownTypes`, outside a paragraph about
  /// what the toolchain cannot know, and not a file's name.
  static func references(in text: String, file: String, ownTypes: Set<String>) -> [Reference] {
    let paragraphs = paragraphLines(text)
    var found: [Reference] = []
    for (line, span) in codeSpans(text) {
      guard let (path, labels) = NameResolver.parse(span), let type = path.first, type.first?.isUppercase == true,
        !ownTypes.contains(type)
      else { continue }
      if labels == nil, path.count > 1, NameResolver.fileExtensions.contains(path[path.count - 1]) { continue }
      if path.count == 1 && labels == nil { continue }
      if let paragraph = paragraphs[line], beyondToolchain.contains(where: paragraph.contains) { continue }
      let arguments = labels.map { "(" + $0.map { $0 == "_" ? "placeholder()" : "\($0): placeholder()" }.joined(separator: ", ") + ")" }
      let expression = path.joined(separator: ".") + (arguments ?? "")
      let availability = paragraphs[line].map { !matches(PlatformNames.availability, in: $0).isEmpty } ?? false
      found.append(
        Reference(
          file: file, line: line, span: span, type: type, expression: expression, taughtWithAvailability: availability))
    }
    return found
  }

  /// For each line of a Markdown text, the whole paragraph (or list item) it belongs to.
  static func paragraphLines(_ text: String) -> [Int: String] {
    let lines = text.components(separatedBy: "\n")
    var result: [Int: String] = [:]
    var start = 0
    func close(_ end: Int) {
      guard start < end else { return }
      let paragraph = lines[start..<end].joined(separator: " ")
      for index in start..<end { result[index + 1] = paragraph }
    }
    for (index, line) in lines.enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty || trimmed.hasPrefix("- ") || trimmed.hasPrefix("#") || trimmed.hasPrefix("|") {
        close(index)
        start = trimmed.isEmpty ? index + 1 : index
      }
    }
    close(lines.count)
    return result
  }

  /// The problems among `references`: each whose type the toolchain has and whose member or labels
  /// the compiler does not find. Nil when the compiler cannot be run (the rule then says so once).
  func problems(_ references: [Reference]) -> [String]? {
    let types = Array(Set(references.map(\.type))).sorted()
    guard !types.isEmpty else { return [] }
    // 1. Which types the toolchain has: `_ = T.self`, one a line; "cannot find 'T'" says no. A
    // type found only once Foundation is imported is Foundation's.
    func known(foundation: Bool) -> Set<String>? {
      guard let typeErrors = typeCheck(types.map { "_ = \($0).self" }, foundation: foundation) else { return nil }
      return Set(types.enumerated().filter { index, _ in !typeErrors[index].contains { $0.contains("cannot find") } }.map(\.element))
    }
    guard let shared = known(foundation: false), let all = known(foundation: true) else { return nil }
    let checked = references.filter { all.contains($0.type) }
    guard !checked.isEmpty else { return [] }
    // 2. Each reference of a known type, one a line.
    guard let errors = typeCheck(checked.map { "_ = \($0.expression)" }, foundation: true) else { return nil }
    var found: [String] = []
    for (index, reference) in checked.enumerated() {
      guard let refusal = errors[index].first(where: PlatformNames.refuses) else { continue }
      if !shared.contains(reference.type) {
        // Foundation's: Apple's may have what swift-corelibs-foundation lacks.
        // A missing member may be Apple's alone; a call the compiler cannot match ("no exact
        // matches", a wrong label) may be a typo anywhere, so only the first is excused.
        if reference.taughtWithAvailability && refusal.contains("has no member") { continue }
        found.append(
          "\(reference.file):\(reference.line): `\(reference.span)` is not in this toolchain's Foundation "
            + "(swift-corelibs-foundation): \(refusal); if it is Apple's, teach it with its availability in the same "
            + "paragraph, as Apple's documentation gives it (iOS 11.0+), else name the API as it shipped")
        continue
      }
      found.append(
        "\(reference.file):\(reference.line): `\(reference.span)` is not what this toolchain's \(reference.type) has: "
          + "\(refusal); name the API as it shipped (or, for one newer than Swift 6.3, say so in its paragraph: "
          + "Swift 6.4, iOS 27)")
    }
    return found
  }

  /// An error that says the name or its labels are wrong; not one that says only that a generic
  /// type's parameters could not be inferred, that the member is an instance member (the span
  /// names it through its type), that the call needs `await` or `try`, or that it is ambiguous.
  static func refuses(_ error: String) -> Bool {
    ["has no member", "cannot find", "argument label", "extra argument", "missing argument", "no exact matches"].contains {
      error.contains($0)
    }
  }

  /// Type-checks one statement a line inside a function, and returns each statement's error
  /// messages (empty when it has none); nil when the compiler could not be run.
  func typeCheck(_ statements: [String], foundation: Bool = false) -> [[String]]? {
    let folder = NSTemporaryDirectory() + "workbook-platform-names-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let imports = PlatformNames.imports + (foundation ? PlatformNames.foundationImports : "")
    let header = imports + PlatformNames.placeholder + "func references() {\n"
    let firstLine = header.filter { $0 == "\n" }.count + 1
    let source = header + statements.joined(separator: "\n") + "\n}\n"
    let file = "\(folder)/References.swift"
    guard (try? source.write(toFile: file, atomically: true, encoding: .utf8)) != nil,
      let result = try? runCommand(
        [compiler, "-typecheck", "-swift-version", "6", "-continue-building-after-errors", file], timeout: 120)
    else { return nil }
    var errors = Array(repeating: [String](), count: statements.count)
    var compiled = result.succeeded
    for match in matches(#"^.*References\.swift:(\d+):\d+: error: (.*)$"#, in: result.output) {
      compiled = true
      guard let line = Int(match[1]), statements.indices.contains(line - firstLine) else { continue }
      errors[line - firstLine].append(match[2])
    }
    return compiled ? errors : nil
  }
}

extension Checker {
  /// The texts whose platform APIs are checked: each chapter's README, hints, interview and drill,
  /// and the drills of `Drills/`.
  func platformNameTexts(_ catalog: Catalog) -> [String] {
    var texts: [String] = []
    for chapter in catalog.chapters {
      for name in Checker.textsWithNames + ["drill.md"] where exists("\(chapter.folder)/\(name)") {
        texts.append("\(chapter.folder)/\(name)")
      }
    }
    for folder in subfolders("Drills") {
      texts += files(in: "Drills/\(folder)").filter { $0.hasSuffix(".md") }.map { "Drills/\(folder)/\($0)" }
    }
    return texts
  }

  /// The workbook's own types are those its modules declare, starters and answers: read from
  /// their symbol graphs (a graph that cannot be built is reported by the `names` and `promises`
  /// rules; its types are then checked as the toolchain's, where they are not found).
  func platformNameProblems(_ catalog: Catalog, graphs: SymbolGraphs, compiler: String = "swiftc") -> [Problem] {
    let modules = Set(catalog.chapters.map(\.module)).union(Checker.supportModules.filter { exists("Support/\($0)") })
    var ownTypes = Set<String>()
    for sources in [SymbolGraphs.Sources.answers, .starters] {
      let types = graphs.declarations(sources, modules: modules, rule: .platformNames).declarations?.types ?? [:]
      ownTypes.formUnion(types.filter { $0.value.declared }.keys)
    }
    let references = platformNameTexts(catalog).flatMap { file in
      PlatformNames.references(in: read(file) ?? "", file: file, ownTypes: ownTypes)
    }
    guard let problems = PlatformNames(compiler: compiler).problems(references) else {
      return [
        Problem(
          rule: .platformNames,
          message: "\(compiler) could not type-check the texts' platform APIs (is it on PATH?); \(references.count) left unchecked")
      ]
    }
    return problems.map { Problem(rule: .platformNames, message: $0) }
  }
}
