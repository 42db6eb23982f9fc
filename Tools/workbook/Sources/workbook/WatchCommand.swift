import Foundation

/// `make watch-N`: re-grades a chapter whenever one of the learner's files changes.
///
/// It polls modification times once a second, which needs nothing beyond the toolchain on Linux
/// or macOS. Stop it with Ctrl-C.
enum WatchCommand {
  static func run(_ chapter: Chapter) throws {
    var seen = Date.distantPast
    while true {
      let latest = latestModification(chapter.starterPath)
      if latest > seen {
        seen = latest
        if Style.enabled { print("\u{1B}[2J\u{1B}[H", terminator: "") }
        _ = try GradeCommand.run(chapter, Variant(), composed: [])
        print(Style.dim("\nWatching \(chapter.starterPath) — save a file to re-grade, Ctrl-C to stop."))
      }
      sleep(1)
    }
  }
}
