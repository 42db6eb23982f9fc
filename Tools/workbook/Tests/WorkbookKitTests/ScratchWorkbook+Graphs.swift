import Foundation

@testable import WorkbookKit

extension ScratchWorkbook {
  /// The symbol graphs of this workbook's modules, built by SwiftPM as `make check` builds the
  /// real workbook's, so the tests read declarations the way the rules do: from the compiler.
  ///
  /// A scratch workbook is no package (its manifest holds only the chapter list, and its chapters
  /// import support code it may not have), so its Swift is copied into a package of its own, with
  /// a stand-in `Workbook` module when it has none. The package's folder is named by its content
  /// and outlives the test: each set of sources is built once (a few seconds), not once per test
  /// or per run. Recorded JSON would be quicker, but would stop being what this toolchain writes.
  func compiledGraphs() throws -> SymbolGraphs {
    let manager = FileManager.default
    let folder = manager.temporaryDirectory.appendingPathComponent("workbook-symbol-graphs")
      .appendingPathComponent(SymbolGraphs.contentKey(root: root, inputs: [ScratchWorkbook.graphManifest(modules: [])])).path
    if !manager.fileExists(atPath: "\(folder)/Package.swift") {
      let staging = "\(folder).\(UUID().uuidString)"
      try manager.createDirectory(atPath: staging, withIntermediateDirectories: true)
      var modules = Set<String>()
      for copy in SymbolGraphs.sourceFolders where exists(copy) {
        try manager.copyItem(atPath: "\(root)/\(copy)", toPath: "\(staging)/\(copy)")
        if copy != "Support" { modules.formUnion(try manager.contentsOfDirectory(atPath: "\(root)/\(copy)")) }
      }
      if !exists("Support/Workbook") {
        try manager.createDirectory(atPath: "\(staging)/Support/Workbook", withIntermediateDirectories: true)
        try "public struct NotImplemented: Error {\n  public init() {}\n}\n".write(
          toFile: "\(staging)/Support/Workbook/NotImplemented.swift", atomically: true, encoding: .utf8)
      }
      try ScratchWorkbook.graphManifest(modules: modules.sorted()).write(
        toFile: "\(staging)/Package.swift", atomically: true, encoding: .utf8)
      // Another test may have built the same sources meanwhile: its folder is as good.
      if (try? manager.moveItem(atPath: staging, toPath: folder)) == nil { try? manager.removeItem(atPath: staging) }
    }
    return .compiled(root: folder)
  }

  /// The declarations of one copy's modules, through `compiledGraphs()`.
  func declarations(_ sources: SymbolGraphs.Sources = .answers, modules: Set<String>, publicOnly: Set<String> = [])
    throws -> Declarations
  {
    let (declarations, problems) = try compiledGraphs().declarations(
      sources, modules: modules, publicOnly: publicOnly, rule: .names)
    guard let declarations else { throw Failure(problems.map(\.message).joined(separator: "\n")) }
    return declarations
  }

  /// A manifest that selects the copy as the workbook's does (`WORKBOOK_ANSWERS`): the support
  /// code, and each chapter module the copy has.
  static func graphManifest(modules: [String]) -> String {
    """
    // swift-tools-version: 6.0
    import Foundation
    import PackageDescription

    let copy = ProcessInfo.processInfo.environment["WORKBOOK_ANSWERS"] == "all" ? "answers" : "Sources"
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
    let modules: [String] = \(modules).filter { FileManager.default.fileExists(atPath: "\\(root)/\\(copy)/\\($0)") }
    var targets: [Target] = [.target(name: "Workbook", path: "Support/Workbook")]
    if FileManager.default.fileExists(atPath: "\\(root)/Support/WorkbookTesting") {
      targets.append(.target(name: "WorkbookTesting", dependencies: ["Workbook"], path: "Support/WorkbookTesting"))
    }
    targets += modules.map { .target(name: $0, dependencies: ["Workbook"], path: "\\(copy)/\\($0)") }
    let package = Package(name: "Fixture", platforms: [.macOS(.v15)], targets: targets)

    """
  }
}
