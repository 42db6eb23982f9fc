import Foundation

/// Backticked platform APIs in the texts, checked against the toolchain that grades the workbook:
/// a span such as `Task.escalatePriority(to:)` or `Dictionary.removeValue(forKey:)` whose type is
/// in the modules Apple's platforms and this toolchain share unchanged (the standard library,
/// Concurrency, Synchronization, Observation, Dispatch) is compiled as a call with a placeholder
/// for each argument, `_ = Task.escalatePriority(to: placeholder())`, so that parameters with a
/// default value may be left out as a caller leaves them out; a member, label or argument the
/// compiler does not find is a problem. A proposal's text is not what shipped: the compiler is.
///
/// Not checked: Foundation (on Linux it is not Apple's: `URLSession` and the resource keys differ,
/// and a text names Apple's), a type this toolchain does not have (UIKit, BackgroundTasks), a type
/// of the workbook's own code (the `names` rule checks those), and a span in a paragraph that says
/// it is about Swift 6.4 or the iOS 27 SDK, which this toolchain (6.3) cannot know.
struct PlatformNames {
  /// The `swiftc` that type-checks the references.
  var compiler = "swiftc"
  /// Words that mark a paragraph as beyond the grading toolchain.
  static let beyondToolchain = ["Swift 6.4", "iOS 27", "macOS 27", "Xcode 27"]
  /// The modules a reference may come from, as imports.
  static let imports = "import Dispatch\nimport Synchronization\nimport Observation\n"
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
      found.append(Reference(file: file, line: line, span: span, type: type, expression: expression))
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
    // 1. Which types the toolchain has: `_ = T.self`, one a line; "cannot find 'T'" says no.
    guard let typeErrors = typeCheck(types.map { "_ = \($0).self" }) else { return nil }
    let known = Set(types.enumerated().filter { index, _ in !typeErrors[index].contains { $0.contains("cannot find") } }.map(\.element))
    let checked = references.filter { known.contains($0.type) }
    guard !checked.isEmpty else { return [] }
    // 2. Each reference of a known type, one a line.
    guard let errors = typeCheck(checked.map { "_ = \($0.expression)" }) else { return nil }
    var found: [String] = []
    for (index, reference) in checked.enumerated() {
      guard let refusal = errors[index].first(where: PlatformNames.refuses) else { continue }
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
  func typeCheck(_ statements: [String]) -> [[String]]? {
    let folder = NSTemporaryDirectory() + "workbook-platform-names-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let header = PlatformNames.imports + PlatformNames.placeholder + "func references() {\n"
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

  func platformNameProblems(_ catalog: Catalog, compiler: String = "swiftc") -> [Problem] {
    var ownFolders = catalog.chapters.map(\.answerPath) + ["Support/Workbook", "Support/WorkbookTesting"]
    ownFolders += catalog.chapters.map(\.starterPath)
    let declarations = SwiftDeclarations(folders: ownFolders.filter(exists), root: root)
    let ownTypes = Set(declarations.types.filter { $0.value.declared }.keys)
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
