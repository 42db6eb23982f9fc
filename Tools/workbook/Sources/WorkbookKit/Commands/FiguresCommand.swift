import Foundation

/// `make figures` (its second half): draws every drill's reference design,
/// `Chapters/*/figures/reference-design.json` and `Drills/*/figures/reference-design.json`, to the
/// `reference-design.svg` beside it. The first half of `make figures` is `workbook-figures`, which
/// draws the chapters' charts from seeded simulations.
struct FiguresCommand: Command {
  static let name = "figures"
  static let arguments = "[--check]"
  static let summary = "draw each figures/reference-design.json of Chapters/ and Drills/ to the .svg beside it"

  /// The description's file name, and the drawing's.
  static let description = "reference-design.json"
  static let drawing = "reference-design.svg"

  /// Only compare: a drawing that is missing or not what the description gives fails the run.
  let check: Bool

  init(_ arguments: [String]) throws {
    check = try Arguments(arguments, flags: ["--check"]).has("--check")
  }

  func run() throws -> Bool { try Self.draw(root: ".", check: check, say: { print($0) }) }

  /// Every reference design under `root`, as paths relative to it, sorted.
  static func descriptions(root: String) -> [String] {
    let manager = FileManager.default
    var found: [String] = []
    for top in ["Chapters", "Drills"] {
      let folders = (try? manager.contentsOfDirectory(atPath: path(top, in: root))) ?? []
      for folder in folders.sorted() {
        let file = "\(top)/\(folder)/figures/\(description)"
        if manager.fileExists(atPath: path(file, in: root)) { found.append(file) }
      }
    }
    return found
  }

  /// Draws (or, with `check`, compares) each reference design under `root`; says each path.
  /// False when a description has problems or, with `check`, a drawing is stale.
  static func draw(root: String, check: Bool, say: (String) -> Void) throws -> Bool {
    var ok = true
    let files = descriptions(root: root)
    for file in files {
      let svgFile = (file as NSString).deletingLastPathComponent + "/" + drawing
      let diagram: ArchitectureDiagram
      do {
        diagram = try ArchitectureDiagram.load(path(file, in: root))
      } catch let error as ArchitectureDiagram.Problems {
        say(Style.red("  problem    ") + file)
        for problem in error.problems { say("    \(problem)") }
        ok = false
        continue
      }
      let text = diagram.svg
      let before = FileManager.default.contents(atPath: path(svgFile, in: root))
      if before == Data(text.utf8) {
        say("  unchanged  \(svgFile)")
      } else if check {
        say(Style.red("  stale      ") + "\(svgFile): run make figures")
        ok = false
      } else {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path(svgFile, in: root)), options: .atomic)
        say(Style.green("  wrote      ") + svgFile)
      }
    }
    if files.isEmpty { say("no reference designs: no Chapters/*/figures/\(description) or Drills/*/figures/\(description)") }
    return ok
  }
}
