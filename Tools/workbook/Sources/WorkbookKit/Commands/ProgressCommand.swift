import Foundation

/// `make progress`: every chapter, from the last time it was graded, and how ready the learner is
/// for its interview questions (`Readiness`).
struct ProgressCommand: Command {
  static let name = "progress"
  static let arguments = ""
  static let summary = "every chapter's progress, from its last grading"

  init(_ arguments: [String]) throws {
    _ = try Arguments(arguments)
  }

  func run() throws -> Bool {
    print(Style.bold("Your progress") + Style.dim(" (from the last `make chapter-N` of each chapter)") + "\n")
    let catalog = try Catalog.load()
    let readiness = Readiness(questions: InterviewQuestion.loadAll(catalog), store: RatingsStore(), now: SystemClock().now())
    let drills = DrillProgress(catalog, now: SystemClock().now())
    for chapter in catalog.chapters {
      defer { if chapter.number == catalog.chapters.last?.number, let line = drills.beyondLine { print(line) } }  // under the last row
      let title = padded("\(chapter.number)  \(chapter.title)", 40)
      let interview = drills.column(chapter.number) + "  " + readiness.line(chapter.number)
      guard let result = Summary.load(chapter) else {
        print("  \(title) \(progressBar(done: 0, total: 1)) \(padded("not graded yet: make chapter-\(chapter.number)", 30))\(interview)")
        continue
      }
      let done = result.compiled ? result.solvedCount : 0
      let stale = latestModification(chapter.starterPath) > result.date ? Style.dim(" (edited since; re-grade)") : ""
      let count = padded("\(done)/\(result.exercises.count)", 5)
      print("  \(title) \(progressBar(done: done, total: result.exercises.count)) \(count)\(interview)\(stale)")
    }
    let levels = drills.levelLines
    if !levels.isEmpty {
      print(Style.bold("\nDrills: level per area") + Style.dim(" (last attempt; below senior · senior · staff)"))
      levels.forEach { print($0) }
    }
    print(Style.dim("\n" + Readiness.legend))
    return true
  }
}

/// The newest modification time of any file under `folder`, leaving out clutter: Finder writes a
/// `.DS_Store` when the learner only looks at the folder.
func latestModification(_ folder: String) -> Date {
  let manager = FileManager.default
  var latest = Date.distantPast
  for file in (try? manager.subpathsOfDirectory(atPath: folder)) ?? [] where !Clutter.contains(file) {
    let attributes = try? manager.attributesOfItem(atPath: "\(folder)/\(file)")
    if let date = attributes?[.modificationDate] as? Date, date > latest { latest = date }
  }
  return latest
}
