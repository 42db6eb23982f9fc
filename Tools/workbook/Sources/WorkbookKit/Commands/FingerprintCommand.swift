import Foundation

/// `make fingerprints`: writes each chapter's `starter.fingerprints` from its starter, after a
/// maintainer edits a starter file (`workbook check` says when one is out of date).
struct FingerprintCommand: Command {
  static let name = "fingerprint"
  static let arguments = "[N…]"
  static let summary = "write Chapters/*/starter.fingerprints from the starters (all chapters, or those named)"

  let chapters: [Int]

  init(_ arguments: [String]) throws {
    chapters = try Arguments(arguments, positionals: 0...Int.max).chapters()
  }

  func run() throws -> Bool {
    let catalog = try Catalog.load()
    let chosen = try chapters.isEmpty ? catalog.chapters : chapters.map { try catalog.chapter($0) }
    for chapter in chosen {
      let text = StarterFingerprints.render(chapter)
      let file = StarterFingerprints.path(chapter)
      let before = try? String(contentsOfFile: file, encoding: .utf8)
      try text.write(toFile: file, atomically: true, encoding: .utf8)
      print("\(before == text ? "  unchanged" : Style.green("  written  ")) \(file)")
    }
    return true
  }
}
