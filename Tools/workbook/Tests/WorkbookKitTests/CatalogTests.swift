import Foundation
import Testing

@testable import WorkbookKit

/// Reading `Chapters/*/exercises.json`.
@Suite("The catalog")
struct CatalogTests {
  @Test("a chapter's module, exercises, their files and needs")
  func loadsAChapter() throws {
    let workbook = try ScratchWorkbook()
    let catalog = try Catalog.load(root: workbook.root)
    let chapter = try catalog.chapter(7)
    #expect(chapter.folder == "Chapters/07-counters")
    #expect(chapter.module == "Counters")
    #expect(chapter.composes == [])
    #expect(chapter.extras == Extras())
    #expect(chapter.exercises.map(\.files) == [["Counter.swift"], ["Pair.swift"]])
    #expect(chapter.exercise(2)?.needs == [1])
    #expect(chapter.starterPath == "Sources/Counters" && chapter.answerPath == "answers/Counters")
    #expect(chapter.hintsPath == "Chapters/07-counters/hints.md")
  }

  @Test("composes and extras come from exercises.json; composed chapters are found by number")
  func composesAndExtras() throws {
    let workbook = try ScratchWorkbook()
    try workbook.write(
      "Chapters/08-timers/exercises.json",
      """
      { "chapter": 8, "title": "Timers", "module": "Timers", "level": "advanced", "composes": [7],
        "extras": { "drill": "drill.md", "figures": ["a.svg"], "server": true },
        "exercises": [{ "number": 1, "title": "A timer", "files": ["TimerStore.swift", "Timer.swift"] }] }
      """)
    let catalog = try Catalog.load(root: workbook.root)
    let timers = try catalog.chapter(8)
    #expect(timers.composes == [7])
    #expect(catalog.composed(by: timers).map(\.module) == ["Counters"])
    #expect(timers.extras == Extras(drill: "drill.md", figures: ["a.svg"], server: true))
    #expect(timers.exercise(1)?.filesInWords == "TimerStore.swift, then Timer.swift")
  }

  @Test("a chapter that is not there, an exercise that is not there, an exercises.json that is not valid")
  func errors() throws {
    let workbook = try ScratchWorkbook()
    let catalog = try Catalog.load(root: workbook.root)
    #expect(throws: Failure.self) { try catalog.chapter(9) }
    #expect {
      try catalog.chapter(7).requireExercise(3)
    } throws: { error in
      "\(error)" == "chapter 7 has exercises 1 to 2; there is no exercise 3"
    }
    try workbook.edit("Chapters/07-counters/exercises.json", replacing: #""files""#, with: #""file""#)
    #expect {
      try Catalog.load(root: workbook.root)
    } throws: { error in
      "\(error)".hasPrefix("Chapters/07-counters/exercises.json is not valid")
    }
    let empty = try ScratchWorkbook(chapter7: false)
    #expect(throws: Failure.self) { try Catalog.load(root: empty.root) }
  }

  @Test("the real workbook's chapters, and the chapters the capstone composes, as Package.swift lists them")
  func realWorkbook() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../..").standardized.path
    let catalog = try Catalog.load(root: root)
    let manifest = try String(contentsOfFile: "\(root)/Package.swift", encoding: .utf8)
    let listed = manifestChapters(manifest)
    #expect(listed.map(\.number) == catalog.chapters.map(\.number))
    #expect(listed.map(\.module) == catalog.chapters.map(\.module))
    #expect(listed.map(\.composes) == catalog.chapters.map(\.composes))
  }

  @Test("Package.swift's chapter list is read entry by entry")
  func manifestEntries() {
    let manifest = ScratchWorkbook.manifest(entries: [
      #"Chapter(number: 1, module: "DataStore", composes: [])"#,
      #"Chapter(number: 6, module: "Feed", composes: [1, 3, 4])"#,
    ])
    #expect(
      manifestChapters(manifest) == [
        ManifestChapter(number: 1, module: "DataStore", composes: []),
        ManifestChapter(number: 6, module: "Feed", composes: [1, 3, 4]),
      ])
  }
}
