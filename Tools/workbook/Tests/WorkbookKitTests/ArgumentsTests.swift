import Testing

@testable import WorkbookKit

/// Each command takes its own arguments and rejects the rest.
@Suite("Arguments")
struct ArgumentsTests {
  @Test("grade takes a chapter and its options in any order")
  func grade() throws {
    let command = try GradeCommand(["--exercise", "3", "6", "--reference", "1,3", "--sanitize"])
    #expect(command.chapter == 6)
    #expect(command.focus == 3)
    #expect(command.reference == [1, 3])
    #expect(command.sanitize && !command.answers)
    #expect(try GradeCommand(["2", "--answers"]).answers)
  }

  @Test(
    "what each command rejects, with the message",
    arguments: [
      (["grade"], "which chapter? give its number, for example 1"),
      (["grade", "one"], "which chapter? give its number, for example 1"),
      (["grade", "1", "2"], "unexpected argument: 2"),
      (["grade", "1", "--check"], "unknown option --check"),
      (["grade", "1", "--exercise"], "--exercise needs an exercise number"),
      (["grade", "1", "--exercise", "x"], "--exercise needs an exercise number, not x"),
      (["grade", "1", "--reference", "3,four"], "--reference takes chapter numbers separated by commas, such as 3,4; not 3,four"),
      (["hint", "1", "--answers"], "unknown option --answers"),
      (["watch", "1", "--exercise", "2"], "unknown option --exercise"),
      (["progress", "1"], "unexpected argument: 1"),
      (["chapters", "--all"], "unknown option --all"),
      (["reset"], "which chapter? give its number, for example 1"),
      (["compare", "1", "2", "3"], "unexpected arguments: 2 3"),
      (["mutants", "1", "--answers"], "unknown option --answers"),
      (["check", "1"], "unexpected argument: 1"),
      (["drill", "1", "2"], "unexpected argument: 2"),
      (["walkthrough", "--exercise", "1"], "unknown option --exercise"),
    ])
  func rejects(arguments: [String], message: String) throws {
    let type = try #require(WorkbookTool.command(named: arguments[0]))
    #expect(throws: UsageError(message)) {
      _ = try type.init(Array(arguments.dropFirst()))
    }
  }

  @Test("commands that take lists and switches")
  func lists() throws {
    #expect(try MutantsCommand(["1", "3", "--check"]).chapters == [1, 3])
    #expect(try MutantsCommand([]).chapters.isEmpty)
    #expect(try MutantsCommand(["--check"]).checkOnly)
    #expect(try MutantsCommand(["4", "--only", "40,42"]).only == [40, 42])
    #expect(throws: UsageError.self, "--only takes mutant numbers") { try MutantsCommand(["4", "--only", "lru"]) }
    #expect(mutantNumber("Chapters/04-image-cache/mutants/40-lru-get-walks-the-list.mutant") == 40)
    #expect(try CheckStarterCommand(["2", "4"]).chapters == [2, 4])
    #expect(throws: UsageError.self, "edit sites are always checked: the switch is gone") { try CheckCommand(["--edit-sites"]) }
    #expect(try HintCommand(["3", "--reference", "1"]).reference == [1])
    #expect(try WatchCommand(["6", "--reference", "3,4"]).reference == [3, 4])
    #expect(try DrillCommand([]).id == nil)
    #expect(try DrillCommand(["06"]).id == "6")
    #expect(try DrillCommand(["Chat"]).id == "chat")
  }

  @Test("every command is in the table once, with a usage line and a summary")
  func table() {
    let names = WorkbookTool.commands.map { $0.name }
    #expect(Set(names).count == names.count)
    for type in WorkbookTool.commands {
      #expect(type.usage.hasPrefix("usage: workbook \(type.name)"))
      #expect(!type.summary.isEmpty)
      #expect(HelpCommand.overview.contains(type.summary))
    }
  }

  @Test("a mistake on the command line: exit status 2, with the command's usage")
  func exitStatus() {
    var reported: [String] = []
    #expect(WorkbookTool.run(["frobnicate"]) { reported.append($0) } == 2)
    #expect(reported.last?.hasPrefix("workbook: unknown command frobnicate\nusage: workbook <command>") == true)
    #expect(WorkbookTool.run(["grade", "1", "--bogus"]) { reported.append($0) } == 2)
    #expect(reported.last == "workbook grade: unknown option --bogus\n" + GradeCommand.usage)
    #expect(WorkbookTool.run(["help", "nothing"]) { reported.append($0) } == 2)
    #expect(reported.last?.hasPrefix("workbook help: there is no command nothing") == true)
  }
}
