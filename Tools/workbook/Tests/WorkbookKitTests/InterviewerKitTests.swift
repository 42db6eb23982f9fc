import Foundation
import Testing

@testable import WorkbookKit

/// `make drill-NAME ROLE=interviewer`: the kit a peer needs to run the round, printed for the
/// workbook's own drills.
@Suite("Drills: the interviewer's kit")
struct InterviewerKitTests {
  func kit(_ id: String, seed: UInt64) throws -> (text: String, round: DrillRound, scenarios: DrillScenarios?) {
    let root = DrillLevelTests.root
    let drill = try DrillCatalog.load(Catalog.load(root: root), root: root).drill(id)
    var output = ""
    let console = DrillCommand.Console(interactive: false, readLine: { nil }, write: { output += $0 })
    try DrillCommand.kit(drill, root: root, console: console, seed: seed, now: Date(timeIntervalSince1970: 0))
    let text = try TextFile.contents(path(drill.file, in: root), shown: drill.file)
    return (DrillFixture.plain(output), try #require(DrillRound.parse(text)), try DrillScenarios.load(drill, root: root))
  }

  @Test("the kit gives the scenario card, each decision's key, estimates, probe and change, what the levels sound like, and a scorecard")
  func chatKit() throws {
    for seed in UInt64(0)..<6 {
      let (text, round, scenarios) = try kit("chat", seed: seed)
      let keyed = try #require(scenarios)
      let scenario = keyed.scenario(seed: seed)
      #expect(text.contains("The scenario card (\(scenario.id)"))
      #expect(text.contains(scenario.card))
      for decision in keyed.decisions {
        let key = try #require(scenario.keys[decision.id])
        #expect(text.contains("Decision \(decision.id): \(decision.question)"))
        #expect(text.contains("Key: \(key.choice), because \(key.because)."))
        #expect(text.contains("Push: \(decision.probe)"))
        #expect(text.contains("say: “\(key.then.say).” Key: \(key.then.choice)"))
        if let hold = key.hold { #expect(text.contains("say: “\(hold.say).” Key: it stays \(key.choice)"), "the change the choice survives") }
        #expect(text.contains("Senior: \(decision.senior)") && text.contains("Staff: \(decision.staff)"))
        #expect(text.contains("    \(decision.id): choice ____ cost said [ ]"), "the scorecard's line for \(decision.id)")
      }
      for area in round.areas { #expect(text.contains("  \(area.name): [ ] below senior  [ ] senior  [ ] staff")) }
      for question in round.pushback { #expect(text.contains(question)) }
      for option in round.options { #expect(text.contains("\(option.label). \(option.title)")) }
      #expect(text.contains("Scorecard") && text.contains("Red flags"))
    }
    let messenger = try #require((UInt64(0)..<50).first { try! kit("chat", seed: $0).scenarios!.scenario(seed: $0).id == "messenger" })
    #expect(try kit("chat", seed: messenger).text.contains("about 3,000,000 connections (dau * peakShare); within a factor 2 counts"))
  }

  @Test("a drill without scenarios still gets a kit: prompts, levels, pushback and a scorecard, no decisions")
  func withoutScenarios() throws {
    // Every drill of the workbook has scenarios, so chapter 1's round is copied alone into a scratch
    // workbook, with no scenarios.json beside it.
    let root = DrillLevelTests.root
    let drill = try DrillCatalog.load(Catalog.load(root: root), root: root).drill("1")
    let text = try TextFile.contents(path(drill.file, in: root), shown: drill.file)
    let scratch = try ScratchWorkbook(chapter7: false)
    try scratch.write(drill.file, text)
    #expect(try DrillScenarios.load(drill, root: scratch.root) == nil)
    var output = ""
    let console = DrillCommand.Console(interactive: false, readLine: { nil }, write: { output += $0 })
    try DrillCommand.kit(drill, root: scratch.root, console: console, seed: 1, now: Date(timeIntervalSince1970: 0))
    let kit = DrillFixture.plain(output)
    #expect(!kit.contains("Decision ") && !kit.contains("The scenario card"))
    for area in try #require(DrillRound.parse(text)).areas { #expect(kit.contains("  \(area.name): [ ] below senior")) }
  }

  @Test("ROLE= is interviewer or candidate, and the kit needs a drill and no ANSWERS=")
  func arguments() throws {
    #expect(try DrillCommand(["chat", "--role", "interviewer"]).interviewer)
    #expect(try !DrillCommand(["chat", "--role", "candidate"]).interviewer)
    #expect(throws: UsageError.self) { try DrillCommand(["chat", "--role", "judge"]) }
    #expect(throws: UsageError.self) { try DrillCommand(["--role", "interviewer"]) }
    #expect(throws: UsageError.self) { try DrillCommand(["chat", "--role", "interviewer", "--answers", "a.md"]) }
  }
}
