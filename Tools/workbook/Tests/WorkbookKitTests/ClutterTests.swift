import Foundation
import Testing

@testable import WorkbookKit

/// Finder's `.DS_Store`, Xcode's `xcuserdata` and `.swiftpm` appear in a learner's folders on
/// their own: no command counts them as the learner's edit.
@Suite("Clutter from macOS and Xcode")
struct ClutterTests {
  /// What a Mac leaves in a folder the learner has only looked at or opened in Xcode.
  static let clutter = [
    ".DS_Store",
    "xcuserdata/ada.xcuserdatad/UserInterfaceState.xcuserstate",
    ".swiftpm/xcode/package.xcworkspace/contents.xcworkspacedata",
  ]

  func writeClutter(in folder: String) throws {
    for file in Self.clutter {
      let url = URL(fileURLWithPath: "\(folder)/\(file)")
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try "clutter\n".write(to: url, atomically: true, encoding: .utf8)
    }
  }

  @Test("what is clutter")
  func paths() {
    #expect(Clutter.contains(".DS_Store"))
    #expect(Clutter.contains("Sources/Counters/.DS_Store"))
    #expect(Clutter.contains("xcuserdata/ada.xcuserdatad/UserInterfaceState.xcuserstate"))
    #expect(Clutter.contains(".swiftpm/xcode/package.xcworkspace/contents.xcworkspacedata"))
    #expect(!Clutter.contains("Sources/Counters/Counter.swift"))
  }

  @Test("make progress and make watch-N: clutter written after the code is no edit")
  func progress() throws {
    let workbook = try ScratchWorkbook()
    let folder = "\(workbook.root)/Sources/Counters"
    let then = Date(timeIntervalSince1970: 1_700_000_000)
    for file in try FileManager.default.contentsOfDirectory(atPath: folder) {
      try FileManager.default.setAttributes([.modificationDate: then], ofItemAtPath: "\(folder)/\(file)")
    }
    try writeClutter(in: folder)
    #expect(latestModification(folder) == then)
    try workbook.write("Sources/Counters/Counter.swift", "my own work\n")
    #expect(latestModification(folder) > then)
  }

  @Test("workbook check: clutter in the starter alone is not a file the answer lacks")
  func check() throws {
    let workbook = try ScratchWorkbook()
    try writeClutter(in: "\(workbook.root)/Sources/Counters")
    #expect(workbook.problems().isEmpty, "\(workbook.report())")
  }

  @Test("make compare-N: the diff leaves clutter out")
  func compare() throws {
    let workbook = try ScratchWorkbook()
    try writeClutter(in: "\(workbook.root)/Sources/Counters")
    let arguments = CompareCommand.diffArguments("Sources/Counters", "answers/Counters", color: nil)
    let diff = try runCommand(arguments, timeout: 30, in: workbook.root)
    #expect(diff.status == 1, "the starter and the answer differ")
    #expect(diff.output.contains("Counter.swift"))
    // Without the exclusions, diff reports "Only in Sources/Counters: .DS_Store" and the like.
    #expect(!diff.output.contains("Only in"), "\(diff.output)")
  }

  @Test("make reset-N: a chapter with nothing but clutter beside the starter has nothing to save")
  func reset() throws {
    let scratch = try ScratchWorkbook.learnerClone()
    defer { withExtendedLifetime(scratch) {} }
    let root = scratch.root
    try writeClutter(in: "\(root)/Sources/Counters")
    var said: [String] = []
    #expect(try ResetCommand.reset("Counters", root: root) { said.append($0) })
    #expect(said.last == "Sources/Counters is the starter as @{upstream} holds it: nothing of yours to save, and nothing was changed.")
    #expect(!FileManager.default.fileExists(atPath: "\(root)/.workbook"))

    // A real edit beside the clutter is saved, and the starter comes back.
    try "my own work\n".write(toFile: "\(root)/Sources/Counters/Counter.swift", atomically: true, encoding: .utf8)
    #expect(try ResetCommand.reset("Counters", root: root) { _ in })
    let backups = try FileManager.default.contentsOfDirectory(atPath: "\(root)/.workbook/backup")
    #expect(backups.count == 1)
    #expect(
      try String(contentsOfFile: "\(root)/.workbook/backup/\(backups[0])/Counter.swift", encoding: .utf8)
        == "my own work\n")
  }

  @Test("a file of the learner's that git ignores is still theirs to save")
  func ignoredButNotClutter() throws {
    let scratch = try ScratchWorkbook.learnerClone()
    defer { withExtendedLifetime(scratch) {} }
    let root = scratch.root
    try "*.notes\n".write(toFile: "\(root)/.gitignore", atomically: true, encoding: .utf8)
    try "ideas\n".write(toFile: "\(root)/Sources/Counters/Counter.notes", atomically: true, encoding: .utf8)
    #expect(try ResetCommand.reset("Counters", root: root) { _ in })
    let backups = try FileManager.default.contentsOfDirectory(atPath: "\(root)/.workbook/backup")
    #expect(FileManager.default.fileExists(atPath: "\(root)/.workbook/backup/\(backups[0])/Counter.notes"))
  }

  @Test("not started: clutter beside an exercise's files does not start it")
  func notStarted() throws {
    let scratch = try ScratchWorkbook.learnerClone()
    defer { withExtendedLifetime(scratch) {} }
    let root = scratch.root
    try writeClutter(in: "\(root)/Sources/Counters")
    let chapter = try Catalog.load(root: root).chapter(7)
    func marked() -> [Bool?] {
      var result = ChapterResult(
        chapter: 7, variant: Variant(), exercises: chapter.exercises.map { ExerciseResult(number: $0.number, title: $0.title) })
      GradeCommand.markUntouched(&result, chapter, root: root)
      return result.exercises.map(\.untouched)
    }
    #expect(marked() == [true, true])
    try "my own work\n".write(toFile: "\(root)/Sources/Counters/Counter.swift", atomically: true, encoding: .utf8)
    #expect(marked() == [false, true])

    // With no upstream and no remote, the chapter's starter.fingerprints still knows what was
    // shipped. Without the file, git's upstream, else origin, decides; with neither, nobody knows.
    try git(["branch", "--unset-upstream"], in: root)
    try git(["remote", "remove", "origin"], in: root)
    #expect(marked() == [false, true], "the fingerprints need no git")
    try FileManager.default.removeItem(atPath: "\(root)/Chapters/07-counters/starter.fingerprints")
    #expect(marked() == [nil, nil], "no fingerprints, no upstream and no origin: unknown, not untouched")
  }
}
