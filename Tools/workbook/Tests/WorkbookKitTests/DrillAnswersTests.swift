import Foundation
import Testing

@testable import WorkbookKit

/// `make drill-NAME ANSWERS=file`: a recorded answer file (`Fixtures/round-answers.md`) scored
/// against the round of `RoundFixture` without a terminal.
@Suite("Drills as rounds: answers from a file")
struct DrillAnswersTests {
  static let recorded = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/round-answers.md").path

  /// Scores `file` (the recorded one unless given) in a scratch workbook; the output, plain.
  func score(_ file: String = recorded, seed: UInt64? = nil) throws -> (text: String, workbook: ScratchWorkbook) {
    let workbook = try ScratchWorkbook()
    try RoundFixture.add(to: workbook)
    let drill = try DrillFixture.drills(workbook).drill("chat")
    var output = ""
    let console = DrillCommand.Console(interactive: false, readLine: { nil }, write: { output += $0 })
    try DrillCommand.score(drill, answers: file, root: workbook.root, console: console, seed: seed)
    return (DrillFixture.plain(output), workbook)
  }

  func failure(_ file: String = recorded, seed: UInt64? = nil) -> String {
    do {
      _ = try score(file, seed: seed)
      return ""
    } catch {
      return "\(error)"
    }
  }

  @Test("the recorded answers give each area's level, with the deep dive the answers picked, and record nothing")
  func recorded() throws {
    let (text, workbook) = try score()
    let lines = text.components(separatedBy: "\n")
    func level(_ area: String) -> String? {
      lines.first { $0.hasPrefix("  \(area) ") }?.dropFirst(2 + 28 + 1).prefix(14).trimmingCharacters(in: .whitespaces)
    }
    #expect(text.contains("deep dive 4a (the answers' pick)"))
    #expect(level("Requirements") == "staff", "every must-hit and the judgment signal; a missed bonus changes nothing")
    #expect(level("Design") == "senior", "phase 2's judgment signal missed, every bonus hit")
    #expect(level("Deep dive") == "below senior", "a must-hit of 4a missed")
    #expect(level("Shipping") == "staff")
    #expect(level("Communication") == "staff", "the judgment signal hit; driving the round is a bonus in this round")
    #expect(text.contains("must-hit 4/4, judgment 1/2, bonus 4/4"), "Design's counts over phases 2 and 3")
    #expect(text.contains("Nothing was recorded."))
    #expect(!workbook.exists(DrillHistory.relativePath) && !workbook.exists(".workbook/review.json"))
  }

  @Test("a SEED= that picks another deep dive than the one answered is refused, naming both")
  func seedDisagrees() {
    #expect(failure(seed: 1).contains("answers deep dive 4a, but SEED=1 runs 4b"))
  }

  @Test("a signal left unmarked, or a cue the phase does not have, refuses the file and names each")
  func unmarked() throws {
    let text = try String(contentsOfFile: Self.recorded, encoding: .utf8)
      .replacingOccurrences(of: "- [x] Bonus 2 2\n", with: "")
      .replacingOccurrences(of: "- [x] Must 5 1\n", with: "- [x] Must 5 9\n")
    let workbook = try ScratchWorkbook()
    try workbook.write("edited.md", text)
    let message = failure("\(workbook.root)/edited.md")
    #expect(message.contains("phase 2 leaves unmarked: Bonus 2 2"))
    #expect(message.contains("phase 5 has no signal “must-5-9”"))
    #expect(message.contains("phase 5 leaves unmarked: Must 5 1"))
  }

  @Test("a missing file is written as a template of the run: the seed's deep dive, every signal unmarked until the reviewer marks it")
  func template() throws {
    let workbook = try ScratchWorkbook()
    let file = "\(workbook.root)/new-answers.md"
    let (text, _) = try score(file, seed: 1)
    #expect(text.contains("now holds a template for make drill-chat"))
    let template = try String(contentsOfFile: file, encoding: .utf8)
    #expect(template.contains("## 4b. Deep dive: storage") && !template.contains("## 4a."))
    #expect(template.contains("- [?] Judgment 4b 1") && template.contains("## Communication"))
    #expect(failure(file, seed: 1).contains("phase 1 leaves unmarked: Must 1 1; Must 1 2; Judgment 1 1; Bonus 1 1; Bonus 1 2"))
  }

  @Test("--answers takes a file for one drill; ANSWERS=1, meant for grading, is refused")
  func arguments() throws {
    #expect(try DrillCommand(["chat", "--answers", "a.md"]).answers == "a.md")
    #expect(throws: UsageError.self) { try DrillCommand(["chat", "--answers", "1"]) }
    #expect(throws: UsageError.self) { try DrillCommand(["--answers", "a.md"]) }
  }
}
