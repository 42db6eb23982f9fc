import Foundation
import Testing

@testable import WorkbookKit

/// `workbook check` on a throwaway chapter 7: clean as written, and each rule broken on purpose is
/// reported with what to fix and where.
@Suite("workbook check")
struct CheckTests {
  @Test("a chapter that follows every rule passes")
  func cleanChapterPasses() throws {
    let workbook = try ScratchWorkbook()
    #expect(workbook.problems() == [])
  }

  @Test("adding a chapter to a copy of the real workbook takes new files and one entry in Package.swift")
  func newChapterNeedsOneListEntry() throws {
    let real = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../../..").standardized.path
    let copy = try ScratchWorkbook(chapter7: false)
    for folder in ["Chapters", "Sources", "answers", "Tests", "Package.swift"] {
      try FileManager.default.copyItem(atPath: "\(real)/\(folder)", toPath: "\(copy.root)/\(folder)")
    }
    // The real chapters' variants are `make check`'s to count: this test is about the chapter list.
    var checker = Checker(root: copy.root)
    checker.rules.remove(.variants)
    checker.graphs = .empty  // a copy without Support/ is no package SwiftPM can build
    #expect(checker.problems() == [], "the real workbook passes before the new chapter")

    // The scratch chapter, numbered after the real ones (its files say 7; the workbook has a 7).
    for (path, text) in ScratchWorkbook.chapter7 where path != "Package.swift" {
      try copy.write(
        path.replacingOccurrences(of: "Chapters/07-counters", with: "Chapters/08-counters"),
        text.replacingOccurrences(of: #""chapter": 7"#, with: #""chapter": 8"#)
          .replacingOccurrences(of: "\n7\t", with: "\n8\t"))
    }
    let before = checker.problems()
    #expect(
      before.map(\.message) == [
        "Package.swift does not list chapter 8 (Chapters/08-counters/exercises.json); add "
          + "`Chapter(number: 8, module: \"Counters\", composes: []),` to `allChapters`"
      ])

    let manifest = try copy.read("Package.swift")
    let lastEntry = #"  Chapter(number: 7, module: "Sync", composes: [3]),"#
    try #require(manifest.contains(lastEntry), "the real manifest's chapter list ends with chapter 7")
    try copy.write(
      "Package.swift",
      manifest.replacingOccurrences(
        of: lastEntry, with: lastEntry + "\n" + #"  Chapter(number: 8, module: "Counters", composes: []),"#))
    #expect(checker.problems() == [])
    let catalog = try Catalog.load(root: copy.root)
    #expect(catalog.chapters.last?.module == "Counters")
  }

  // MARK: - Suites

  @Test("suite types are read with the title of the @Suite in front of them, across other attributes")
  func readsSuites() {
    let source = """
      // struct NotThis {}
      @Suite("Exercise 5 — The screen's view model", .timeLimit(.minutes(1)))
      @MainActor
      final class Exercise5_ViewModelTests {
        struct Fixture {}
      }
      private enum Helper {}
      """
    #expect(
      declaredTypes(source) == [
        DeclaredType(name: "Exercise5_ViewModelTests", line: 4, suiteTitle: "Exercise 5 — The screen's view model", hasTimeLimit: true),
        DeclaredType(name: "Fixture", line: 5, suiteTitle: nil),
        DeclaredType(name: "Helper", line: 7, suiteTitle: nil),
      ])
    #expect(exercisePrefix("Exercise12_BigTests")! == ("Exercise", 12))
    #expect(exercisePrefix("Exercize3_Tests")! == ("Exercize", 3))
    #expect(exercisePrefix("Helpers") == nil)
    #expect(exercisePrefix("Service1_Tests") == nil)
  }

  @Test("a mistyped suite is named, with the name to give it")
  func mistypedSuite() throws {
    let workbook = try ScratchWorkbook()
    try workbook.move(
      "Tests/CountersTests/Exercise2_PairTests.swift", to: "Tests/CountersTests/Excercise2_PairTests.swift")
    try workbook.edit(
      "Tests/CountersTests/Excercise2_PairTests.swift", replacing: "struct Exercise2_PairTests",
      with: "struct Excercise2_PairTests")
    let report = workbook.report()
    #expect(
      report.contains(
        "Tests/CountersTests/Excercise2_PairTests.swift: the test file Excercise2_PairTests starts with “Excercise”, "
          + "not “Exercise”, so the grader never counts its tests; rename it Exercise2_PairTests"))
    #expect(report.contains("exercise 2 (“Two counters”) has no tests"))
    #expect(workbook.problems().count == 2, "one message for the file, one for the exercise left without tests")
  }

  @Test("a suite named for an exercise that does not exist")
  func straySuite() throws {
    let workbook = try ScratchWorkbook()
    try workbook.write(
      "Tests/CountersTests/Exercise8_ExtraTests.swift",
      "import Testing\n\n@Suite(\"Exercise 8 — Extra\")\nstruct Exercise8_ExtraTests {\n  @Test func extra() {}\n}\n")
    #expect(
      workbook.report().contains(
        "the test file Exercise8_ExtraTests is named for exercise 8, but chapter 7 has exercises 1–2 "
          + "(Chapters/07-counters/exercises.json)"))
  }

  @Test("a suite type that is not named as its file")
  func suiteNotNamedAsFile() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit(
      "Tests/CountersTests/Exercise2_PairTests.swift", replacing: "struct Exercise2_PairTests",
      with: "struct Exercise2_PairsTests")
    let report = workbook.report()
    #expect(report.contains("Tests/CountersTests/Exercise2_PairTests.swift declares no type Exercise2_PairTests"))
    #expect(
      report.contains(
        "Tests/CountersTests/Exercise2_PairTests.swift:6: the suite Exercise2_PairsTests is declared in "
          + "Exercise2_PairTests.swift; move it to Exercise2_PairsTests.swift"))
  }

  @Test("a suite titled for an exercise whose type name the grader does not read")
  func suiteTitledButMisnamed() throws {
    let workbook = try ScratchWorkbook()
    try workbook.write(
      "Tests/CountersTests/Helpers.swift",
      "import Testing\n\n@Suite(\"Exercise 1 — A counter, again\")\nstruct MoreCounterTests {\n  @Test func more() {}\n}\n")
    #expect(
      workbook.report().contains(
        "Tests/CountersTests/Helpers.swift:4: the suite MoreCounterTests is titled “Exercise 1 — A counter, again” "
          + "but its name does not start with Exercise1_"))
  }

  @Test("an exercise with no suite")
  func exerciseWithoutSuite() throws {
    let workbook = try ScratchWorkbook()
    try workbook.remove("Tests/CountersTests/Exercise1_CounterTests.swift")
    #expect(
      workbook.report().contains(
        "exercise 1 (“A counter”) has no tests: add Tests/CountersTests/Exercise1_<Name>Tests.swift with a suite of "
          + "the same name titled @Suite(\"Exercise 1 — A counter\")"))
  }

  // MARK: - Titles

  @Test("a suite title that differs from exercises.json")
  func suiteTitleMismatch() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit(
      "Tests/CountersTests/Exercise1_CounterTests.swift", replacing: "Exercise 1 — A counter",
      with: "Exercise 1 — One counter")
    #expect(
      workbook.report().contains(
        "Tests/CountersTests/Exercise1_CounterTests.swift:6: the suite is titled “Exercise 1 — One counter”, but "
          + "Chapters/07-counters/exercises.json calls exercise 1 “A counter”; title it "
          + "@Suite(\"Exercise 1 — A counter\")"))
  }

  @Test("an exercise suite without a time limit")
  func suiteWithoutTimeLimit() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit(
      "Tests/CountersTests/Exercise1_CounterTests.swift", replacing: ", .timeLimit(.minutes(1))", with: "")
    #expect(
      workbook.report().contains(
        "Tests/CountersTests/Exercise1_CounterTests.swift:6: the suite Exercise1_CounterTests has no time limit; "
          + "add .timeLimit(.minutes(1)) to its @Suite"))
  }

  @Test("a note in parentheses after a suite's title is allowed")
  func suiteTitleWithNote() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit(
      "Tests/CountersTests/Exercise1_CounterTests.swift", replacing: "Exercise 1 — A counter",
      with: "Exercise 1 — A counter (practice server)")
    #expect(workbook.problems() == [])
  }

  @Test("a hint heading that differs from exercises.json")
  func hintTitleMismatch() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit("Chapters/07-counters/hints.md", replacing: "## 2. Two counters", with: "## 2. A pair")
    #expect(
      workbook.report().contains(
        "Chapters/07-counters/hints.md:7: the hint is headed “A pair”, but Chapters/07-counters/exercises.json calls "
          + "exercise 2 “Two counters”; head it `## 2. Two counters`"))
  }

  @Test("a starter header that differs from exercises.json")
  func starterHeaderMismatch() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit("Sources/Counters/Pair.swift", replacing: "Exercise 2 — Two counters", with: "Exercise 2 — A pair")
    let report = workbook.report()
    #expect(
      report.contains(
        "no starter file of exercise 2 is headed `// Exercise 2 — Two counters (level)`, the title in "
          + "Chapters/07-counters/exercises.json"))
  }

  @Test("a starter whose first line is not its exercise's header")
  func starterWithoutHeader() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit("Sources/Counters/Pair.swift", replacing: "// Exercise 2 — Two counters (beginner)\n", with: "")
    #expect(
      workbook.report().contains(
        "Sources/Counters/Pair.swift:1 starts “import Workbook”; the starter of exercise 2 starts with its header "
          + "comment `// Exercise 2 — Two counters (level)`"))
  }

  @Test("an exercise in several files: one file has the title, the others say which part they are")
  func exerciseInParts() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit(
      "Chapters/07-counters/exercises.json", replacing: #""files": ["Pair.swift"]"#,
      with: #""files": ["PairStore.swift", "Pair.swift"]"#)
    let part = "// Exercise 2, part 1 — Saving a pair (beginner)\nstruct PairStore {\n"
    try workbook.write("Sources/Counters/PairStore.swift", part + "  // TODO: add what a saved pair needs.\n}\n")
    try workbook.write("answers/Counters/PairStore.swift", part + "  var saved: Pair?\n}\n")
    #expect(workbook.problems() == [])
  }

  // MARK: - Hints

  @Test("a missing hint")
  func missingHint() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit(
      "Chapters/07-counters/hints.md", replacing: "## 2. Two counters\n\nUse two counters from exercise 1.", with: "")
    #expect(
      workbook.report().contains(
        "Chapters/07-counters/hints.md has no hint for exercise 2; add a section `## 2. Two counters`"))
  }

  @Test("a hint for an exercise that does not exist")
  func strayHint() throws {
    let workbook = try ScratchWorkbook()
    let hints = try workbook.read("Chapters/07-counters/hints.md")
    try workbook.write("Chapters/07-counters/hints.md", hints + "\n\n## 3. Three counters\n\nMore.\n")
    #expect(
      workbook.report().contains(
        "Chapters/07-counters/hints.md:11: a hint for exercise 3, which Chapters/07-counters/exercises.json does not list"))
  }

  // MARK: - Files

  @Test("a missing starter file and a missing answer file")
  func missingFiles() throws {
    let workbook = try ScratchWorkbook()
    try workbook.remove("Sources/Counters/Pair.swift")
    try workbook.remove("answers/Counters/Counter.swift")
    let report = workbook.report()
    #expect(
      report.contains(
        "exercise 2's starter Sources/Counters/Pair.swift is missing; add it, or fix `files` in "
          + "Chapters/07-counters/exercises.json"))
    #expect(report.contains("exercise 1's answer answers/Counters/Counter.swift is missing; add the reference answer"))
    #expect(report.contains("answers/Counters/Pair.swift has no counterpart in Sources/Counters"))
  }

  @Test("a given file that drifted from its answer")
  func givenFileDrifted() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit("answers/Counters/Limits.swift", replacing: "1_000", with: "2_000")
    #expect(
      workbook.report().contains(
        "[given] Sources/Counters/Limits.swift is given code (no exercise lists it) but differs from "
          + "answers/Counters/Limits.swift; make them identical"))
  }

  @Test("an edit site without its `// TODO:` line is named, by plain `workbook check`")
  func editSites() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit("Sources/Counters/Counter.swift", replacing: "    // TODO: add one, up to `Limits.maximum`.\n", with: "")
    let report = workbook.report()
    #expect(report.contains("[edit-sites] Sources/Counters/Counter.swift (exercise 1) has no `// TODO:` marker"))
    #expect(report.contains("[edit-sites] Sources/Counters/Counter.swift:11 throws NotImplemented with no `// TODO:` line right above it"))
    #expect(workbook.problems().count == 2, "the file has no marker, and its one edit site lacks one: \(report)")
  }

  @Test("a starter that looks finished (an empty body, a plausible value) must say so at its edit site")
  func silentPlaceholders() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit(
      "Sources/Counters/Pair.swift", replacing: "public func total() throws -> Int { throw NotImplemented() }",
      with: "public func total() throws -> Int { throw NotImplemented() }\n  public var isEmpty: Bool { true }\n"
        + "  public func reset() {\n  }\n  public var count: Int {\n    0\n  }")
    let sites = unmarkedEditSites(try workbook.read("Sources/Counters/Pair.swift"))
    #expect(
      sites == [
        EditSite(line: 7, what: "returns the placeholder `true`"), EditSite(line: 8, what: "has an empty body"),
        EditSite(line: 11, what: "returns the placeholder `0`"),
      ])
    #expect(workbook.report().contains("[edit-sites] Sources/Counters/Pair.swift:8 has an empty body with no `// TODO:` line"))

    // Given blocks and a one-line empty initializer are no edit sites.
    let given = """
      // Given — defaults.
      extension Counter {
        public var isZero: Bool { false }
        public func log() {}
      }
      public struct Box {
        public init() {}
      }
      """
    #expect(unmarkedEditSites(given) == [])
  }

  @Test("given code is labelled one way: `// Given: …` opens a given file, `// Given — …` a given block")
  func givenLabels() throws {
    let workbook = try ScratchWorkbook()
    for root in ["Sources", "answers"] {
      try workbook.edit("\(root)/Counters/Limits.swift", replacing: "// Given: the largest", with: "// The largest")
    }
    try workbook.edit("Sources/Counters/Pair.swift", replacing: "public struct Pair {", with: "/// (Given.) Two counters.\npublic struct Pair {")
    let report = workbook.report()
    #expect(report.contains("[given] Sources/Counters/Limits.swift:1 starts “// The largest count. Nothing to write here.”; a given file opens with its label"))
    #expect(
      report.contains(
        "[edit-sites] Sources/Counters/Pair.swift:4 labels given code “/// (Given.) Two counters.”; "
          + "spell a given block's label `// Given — why it is there`"))
    // The doc comment also makes `Pair` a declaration the chapter's (missing) ledger must list.
    #expect(workbook.problems().filter { $0.rule != .promises }.count == 2, "\(report)")
  }

  @Test("answers and given files carry no edit-site marker")
  func markersOnlyInStarters() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit("answers/Counters/Pair.swift", replacing: "{ first.value + second.value }", with: "{ throw NotImplemented() }")
    for root in ["Sources", "answers"] {
      try workbook.edit("\(root)/Counters/Limits.swift", replacing: "enum Limits {", with: "// TODO: pick a limit.\nenum Limits {")
    }
    let report = workbook.report()
    #expect(report.contains("[edit-sites] answers/Counters/Pair.swift still has a `// TODO:` marker or a NotImplemented"))
    #expect(report.contains("[edit-sites] Sources/Counters/Limits.swift is given (no exercise lists it) but has a `// TODO:` marker"))
    #expect(report.contains("[edit-sites] answers/Counters/Limits.swift still has"))
  }

  // MARK: - Mutants

  @Test("a mutant that no longer applies to its answer")
  func staleMutant() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit("answers/Counters/Counter.swift", replacing: "value += 1", with: "value = value + 1")
    #expect(
      workbook.report().contains(
        "[mutants] Chapters/07-counters/mutants/01-counts-twice.mutant: its `answer` block occurs 0 times in "
          + "answers/Counters/Counter.swift, not once; the answer has changed: copy the lines as they are now"))
  }

  @Test("a mutant that does not parse")
  func brokenMutant() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit("Chapters/07-counters/mutants/01-counts-twice.mutant", replacing: ">>>>>>> mutant", with: "")
    #expect(workbook.report().contains("Chapters/07-counters/mutants/01-counts-twice.mutant: an unfinished block"))
  }

  // MARK: - Interview

  @Test("an interview question without red flags, and one with an empty model answer")
  func interviewParts() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit("Chapters/07-counters/interview.md", replacing: "### Red flags\n- Counting twice.", with: "")
    let interview = try workbook.read("Chapters/07-counters/interview.md")
    try workbook.write(
      "Chapters/07-counters/interview.md",
      interview + "\n## Why count?\n\n### Model answer\n\n### Follow-ups\n- Why not?\n\n### Red flags\n- None.\n")
    let report = workbook.report()
    #expect(
      report.contains(
        "Chapters/07-counters/interview.md:3: the question “How do you count?” has no `### Red flags`; every question "
          + "has `### Model answer`, `### Follow-ups`, `### Red flags`"))
    #expect(report.contains("the `### Model answer` of “Why count?” is empty"))
  }

  // MARK: - Package.swift and exercises.json

  @Test("Package.swift and exercises.json disagree on a module and on what a chapter composes")
  func packageDisagrees() throws {
    let workbook = try ScratchWorkbook()
    try workbook.write(
      "Package.swift", ScratchWorkbook.manifest(entries: [#"Chapter(number: 7, module: "Counter", composes: [1])"#]))
    let report = workbook.report()
    #expect(
      report.contains(
        #"Package.swift names chapter 7's module "Counter", Chapters/07-counters/exercises.json names it "Counters""#))
    #expect(
      report.contains(
        "Package.swift says chapter 7 composes [1], Chapters/07-counters/exercises.json says []; make them agree: "
          + #"`Chapter(number: 7, module: "Counters", composes: [])`"#))
  }

  @Test("Package.swift lists a chapter that has no folder")
  func packageListsMissingChapter() throws {
    let workbook = try ScratchWorkbook()
    try workbook.write(
      "Package.swift",
      ScratchWorkbook.manifest(entries: [
        #"Chapter(number: 7, module: "Counters", composes: [])"#, #"Chapter(number: 8, module: "Timers", composes: [7])"#,
      ]))
    #expect(
      workbook.report().contains(
        "Package.swift lists chapter 8 (Timers), which has no Chapters/08-<name>/exercises.json"))
  }

  @Test("exercises.json: numbers out of order, a need that is not earlier, a chapter composing itself")
  func catalogRules() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit("Chapters/07-counters/exercises.json", replacing: #""needs": [1]"#, with: #""needs": [2]"#)
    try workbook.edit(
      "Chapters/07-counters/exercises.json", replacing: #""level": "beginner","#,
      with: #""level": "beginner", "composes": [7],"#)
    let report = workbook.report()
    #expect(report.contains("exercise 2 needs exercise 2, which is not an earlier exercise of this chapter"))
    #expect(report.contains("the chapter composes itself"))
  }

  // MARK: - Extras

  @Test("extras: a figure that is not there, a drawn figure not listed, the practice server not declared")
  func extras() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit(
      "Chapters/07-counters/exercises.json", replacing: #""level": "beginner","#,
      with: #""level": "beginner", "extras": { "figures": ["counts.svg"] },"#)
    try workbook.write("Chapters/07-counters/figures/other.svg", "<svg/>")
    try workbook.edit(
      "Tests/CountersTests/Exercise2_PairTests.swift", replacing: "import Testing", with: "import PracticeServer\nimport Testing")
    let report = workbook.report()
    #expect(report.contains("lists the figure counts.svg, which is not in Chapters/07-counters/figures"))
    #expect(report.contains("Chapters/07-counters/figures/other.svg is not listed in Chapters/07-counters/exercises.json"))
    #expect(
      report.contains(
        "Tests/CountersTests/Exercise2_PairTests.swift imports PracticeServer, but Chapters/07-counters/exercises.json "
          + #"does not say so; add "extras": { "server": true }"#))
  }

  @Test("extras: a drill whose rubric does not add up to 100 and whose phase heading has no time box")
  func drill() throws {
    let workbook = try ScratchWorkbook()
    try workbook.edit(
      "Chapters/07-counters/exercises.json", replacing: #""level": "beginner","#,
      with: #""level": "beginner", "extras": { "drill": "drill.md" },"#)
    try workbook.write(
      "Chapters/07-counters/drill.md",
      """
      # Drill

      ## 1. Count — 5 min
      Count.

      ## 2. Count again
      Again.

      ## Rubric

      | area | points | full marks look like |
      |---|---|---|
      | Counting | 90 | counts |

      ## Red flags
      - Counting twice.
      """)
    let report = workbook.report()
    #expect(report.contains("Chapters/07-counters/drill.md:6: “2. Count again” is not a phase heading; write `## N. Title — M min`"))
    #expect(report.contains("the `## Rubric` table's points add up to 90, not 100"))
  }
}
