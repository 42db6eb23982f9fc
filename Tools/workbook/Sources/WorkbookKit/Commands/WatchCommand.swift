import Foundation

/// `make watch-N`: re-grades a chapter whenever one of the learner's files changes.
///
/// It polls modification times once a second, which needs nothing beyond the toolchain on Linux
/// or macOS. Stop it with Ctrl-C.
struct WatchCommand: Command {
  static let name = "watch"
  static let arguments = "N [--reference 3,4]"
  static let summary = "re-grade chapter N whenever one of its files changes"

  let chapter: Int
  let reference: Set<Int>

  init(_ arguments: [String]) throws {
    let parsed = try Arguments(arguments, options: ["--reference": "chapter numbers, such as 3,4"], positionals: 1...1)
    chapter = try parsed.chapter()
    reference = try parsed.numberList("--reference")
  }

  func run() throws -> Bool {
    let catalog = try Catalog.load()
    let chapter = try catalog.chapter(self.chapter)
    var variant = Variant()
    variant.answers = reference.subtracting([chapter.number])
    // The learner's own code of this chapter and of the chapters it composes (unless they are
    // taken from the reference answers): a change in any of them can change the grade.
    let folders =
      [chapter.starterPath]
      + catalog.composed(by: chapter).filter { !variant.answers.contains($0.number) }.map(\.starterPath)
    var seen = Date.distantPast
    while true {
      let latest = folders.map(latestModification).max() ?? .distantPast
      if latest > seen {
        seen = latest
        if Style.enabled { print("\u{1B}[2J\u{1B}[H", terminator: "") }
        _ = try GradeCommand.grade(chapter, variant, catalog: catalog)
        print(Style.dim("\nWatching \(folders.joined(separator: ", ")) — save a file to re-grade, Ctrl-C to stop."))
        fflush(nil)  // a pipe sees each grading as it ends
      }
      sleep(1)
    }
  }
}
