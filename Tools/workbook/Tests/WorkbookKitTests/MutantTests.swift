import Foundation
import Testing

@testable import WorkbookKit

/// The mutant format: parsing, and applying to a copy of an answer.
@Suite("Mutants")
struct MutantTests {
  static let twoFiles = """
    title: the counter counts twice
    why: every increment adds two
    file: Counter.swift
    <<<<<<< answer
        value += 1
    =======
        value += 2
    >>>>>>> mutant
    file: Pair.swift
    <<<<<<< answer
      public var second = Counter()
    =======
      public var second = Counter(), third = Counter()
    >>>>>>> mutant
    """

  @Test("title, why, and one replacement per block, each with its file")
  func parses() throws {
    let mutant = try Mutant(name: "01-counts-twice", text: Self.twoFiles, path: "m.mutant")
    #expect(mutant.title == "the counter counts twice")
    #expect(mutant.why == "every increment adds two")
    #expect(mutant.replacements.map(\.file) == ["Counter.swift", "Pair.swift"])
    #expect(mutant.replacements[0].answer == "    value += 1")
    #expect(mutant.replacements[0].mutant == "    value += 2")
  }

  @Test("a mutant without a title is named by its file")
  func untitled() throws {
    let mutant = try Mutant(name: "02-x", text: "file: A.swift\n<<<<<<< answer\na\n=======\nb\n>>>>>>> mutant\n", path: "m")
    #expect(mutant.title == "02-x")
  }

  @Test(
    "what does not parse, and the message",
    arguments: [
      ("title: t\n", "m.mutant: no blocks"),
      ("<<<<<<< answer\na\n=======\nb\n>>>>>>> mutant\n", "m.mutant: a block before any `file:` line"),
      ("file: A.swift\n<<<<<<< answer\na\n=======\nb\n", "m.mutant: an unfinished block"),
      ("file: A.swift\n<<<<<<< answer\n\n=======\nb\n>>>>>>> mutant\n", "m.mutant: an empty `answer` block in A.swift"),
    ])
  func rejects(text: String, message: String) {
    #expect {
      _ = try Mutant(name: "m", text: text, path: "m.mutant")
    } throws: { error in
      "\(error)".hasPrefix(message)
    }
  }

  @Test("applies every block to a copy of the answer")
  func applies() throws {
    let workbook = try ScratchWorkbook()
    let mutant = try Mutant(name: "m", text: Self.twoFiles, path: "m.mutant")
    try mutant.apply(to: "\(workbook.root)/answers/Counters", answerPath: "answers/Counters")
    #expect(try workbook.read("answers/Counters/Counter.swift").contains("    value += 2"))
    #expect(try workbook.read("answers/Counters/Pair.swift").contains("third = Counter()"))
  }

  @Test("the mutant's copy is kept in place: an unchanged file is left alone, a changed one written again, a stale one removed")
  func mirrorKeepsUnchangedFiles() throws {
    let workbook = try ScratchWorkbook()
    let answer = "\(workbook.root)/answers/Counters"
    let copy = "\(workbook.root)/.mutant/Counters"
    try MutantsCommand.mirror(answer, to: copy)
    #expect(try workbook.read(".mutant/Counters/Counter.swift") == workbook.read("answers/Counters/Counter.swift"))
    let manager = FileManager.default
    func date(_ file: String) throws -> Date? { try manager.attributesOfItem(atPath: "\(copy)/\(file)")[.modificationDate] as? Date }
    let old = Date(timeIntervalSince1970: 1_000_000)
    for file in ["Counter.swift", "Pair.swift"] { try manager.setAttributes([.modificationDate: old], ofItemAtPath: "\(copy)/\(file)") }
    // What the last mutant left: one file changed, one file extra.
    try "changed".write(toFile: "\(copy)/Pair.swift", atomically: false, encoding: .utf8)
    try manager.setAttributes([.modificationDate: old], ofItemAtPath: "\(copy)/Pair.swift")
    try "stray".write(toFile: "\(copy)/Stray.swift", atomically: false, encoding: .utf8)

    try MutantsCommand.mirror(answer, to: copy)
    #expect(try date("Counter.swift") == old, "an unchanged file keeps its date, so the build does not compile it again")
    #expect(try workbook.read(".mutant/Counters/Pair.swift") == workbook.read("answers/Counters/Pair.swift"))
    #expect(try date("Pair.swift")! > old, "a file written again is newer than any build of the mutant's lines")
    #expect(!manager.fileExists(atPath: "\(copy)/Stray.swift"))
  }

  @Test("a block that is not in the answer, or is there twice, or a file that is not, is an error that says so")
  func staleBlocks() throws {
    let workbook = try ScratchWorkbook()
    let folder = "\(workbook.root)/answers/Counters"
    let missing = try Mutant(
      name: "m", text: "file: Counter.swift\n<<<<<<< answer\nvalue -= 1\n=======\nx\n>>>>>>> mutant\n", path: "m.mutant")
    #expect {
      try missing.apply(to: folder, answerPath: "answers/Counters")
    } throws: { error in
      "\(error)".contains("occurs 0 times in answers/Counters/Counter.swift, not once; the answer has changed")
    }
    let twice = try Mutant(
      name: "m", text: "file: Pair.swift\n<<<<<<< answer\n = Counter()\n=======\nx\n>>>>>>> mutant\n", path: "m.mutant")
    #expect {
      try twice.apply(to: folder, answerPath: "answers/Counters")
    } throws: { error in
      "\(error)".contains("occurs 2 times in answers/Counters/Pair.swift, not once; add lines around it until it is unique")
    }
    let noFile = try Mutant(
      name: "m", text: "file: Nope.swift\n<<<<<<< answer\na\n=======\nb\n>>>>>>> mutant\n", path: "m.mutant")
    #expect {
      try noFile.apply(to: folder, answerPath: "answers/Counters")
    } throws: { error in
      "\(error)".contains("`file: Nope.swift` is not a file of answers/Counters")
    }
  }

  @Test("a chapter's mutants are checked against a scratch copy: the answer itself is untouched")
  func checksWithoutTouchingTheAnswer() throws {
    let workbook = try ScratchWorkbook()
    let before = try workbook.read("answers/Counters/Counter.swift")
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    let checked = mutantProblems(chapter, root: workbook.root)
    #expect(checked.count == 1 && checked.problems.isEmpty)
    #expect(try workbook.read("answers/Counters/Counter.swift") == before)
  }
}
