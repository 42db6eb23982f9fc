import Foundation
import Testing

@testable import WorkbookKit

/// `make reset-N`: the starter comes back from git, the learner's files are kept aside, and
/// without git history nothing is touched.
@Suite("Reset")
struct ResetTests {
  @Test("after the learner committed their own work, the upstream starter comes back and their files are saved")
  func restoresFromUpstream() throws {
    let scratch = try ScratchWorkbook.learnerClone()
    let root = scratch.root
    let starter = try String(contentsOfFile: "\(root)/Sources/Counters/Counter.swift", encoding: .utf8)

    try "my own work\n".write(toFile: "\(root)/Sources/Counters/Counter.swift", atomically: true, encoding: .utf8)
    try "extra\n".write(toFile: "\(root)/Sources/Counters/Extra.swift", atomically: true, encoding: .utf8)
    try git(["add", "-A"], in: root)
    try git(["commit", "-qm", "my work"], in: root)

    let now = Date(timeIntervalSince1970: 1_790_000_000)
    var said: [String] = []
    #expect(try ResetCommand.reset("Counters", root: root, now: now) { said.append($0) })
    #expect(said.last == "Restored Sources/Counters from @{upstream}. Run the chapter again to see the exercises fail.")
    #expect(try String(contentsOfFile: "\(root)/Sources/Counters/Counter.swift", encoding: .utf8) == starter)
    #expect(!FileManager.default.fileExists(atPath: "\(root)/Sources/Counters/Extra.swift"))
    let backups = try FileManager.default.contentsOfDirectory(atPath: "\(root)/.workbook/backup")
    #expect(backups.count == 1 && backups[0].hasPrefix("Counters-"))
    let saved = "\(root)/.workbook/backup/\(backups[0])"
    #expect(try String(contentsOfFile: "\(saved)/Counter.swift", encoding: .utf8) == "my own work\n")
    #expect(FileManager.default.fileExists(atPath: "\(saved)/Extra.swift"))

    // A second reset in the same second, after more work, keeps both backups.
    try "more work\n".write(toFile: "\(root)/Sources/Counters/Counter.swift", atomically: true, encoding: .utf8)
    #expect(try ResetCommand.reset("Counters", root: root, now: now) { _ in })
    #expect(try FileManager.default.contentsOfDirectory(atPath: "\(root)/.workbook/backup").count == 2)
  }

  @Test("in a copy without git history (a downloaded ZIP) it refuses and changes nothing")
  func refusesWithoutGit() throws {
    let workbook = try ScratchWorkbook()
    try workbook.write("Sources/Counters/Counter.swift", "my own work\n")
    var said: [String] = []
    #expect(try !ResetCommand.reset("Counters", root: workbook.root) { said.append($0) })
    #expect(
      said.first?.hasPrefix(
        "Cannot reset Sources/Counters: this copy of the workbook has no git history (a downloaded ZIP?)") == true)
    #expect(try workbook.read("Sources/Counters/Counter.swift") == "my own work\n")
    #expect(workbook.exists("Sources/Counters/Pair.swift"))
    #expect(!workbook.exists(".workbook"))
  }

  @Test("when no commit holds the chapter it refuses and changes nothing")
  func refusesWithoutTheChapter() throws {
    let workbook = try ScratchWorkbook()
    try git(["init", "-q"], in: workbook.root)
    try git(["add", "Package.swift"], in: workbook.root)
    try git(["commit", "-qm", "only the manifest"], in: workbook.root)
    var said: [String] = []
    #expect(try !ResetCommand.reset("Counters", root: workbook.root) { said.append($0) })
    #expect(said.first?.hasPrefix("Cannot reset Sources/Counters: no commit of this repository holds it") == true)
    #expect(workbook.exists("Sources/Counters/Counter.swift"))
    #expect(!workbook.exists(".workbook"))
  }
}
