import Foundation

/// The `workbook` command line. `make` is the front door (`make help`); `workbook help` lists the
/// commands underneath it.
public enum WorkbookTool {
  /// Every command, in the order `workbook help` lists them.
  static var commands: [any Command.Type] {
    [
      GradeCommand.self,
      HintCommand.self,
      WatchCommand.self,
      CompareCommand.self,
      ResetCommand.self,
      WalkthroughCommand.self,
      ReviewCommand.self,
      FlashcardsCommand.self,
      ProgressCommand.self,
      DrillCommand.self,
      ChaptersCommand.self,
      CheckCommand.self,
      CheckStarterCommand.self,
      FingerprintCommand.self,
      FiguresCommand.self,
      MutantsCommand.self,
      VariantsCommand.self,
      HelpCommand.self,
    ]
  }

  static func command(named name: String) -> (any Command.Type)? {
    commands.first { $0.name == name }
  }

  /// Runs the command `arguments` name and returns the exit status: 0 done, 1 a failed run (an
  /// exercise that does not pass, a rule broken), 2 a mistake on the command line or an error.
  public static func main(_ arguments: [String]) -> Int32 {
    run(arguments, report: warn)
  }

  /// `main`, with the messages about a mistake or an error sent to `report`.
  static func run(_ arguments: [String], report: (String) -> Void) -> Int32 {
    guard let name = arguments.first else {
      print(HelpCommand.overview)
      return 1
    }
    let commandName = ["-h", "--help"].contains(name) ? HelpCommand.name : name
    guard let type = command(named: commandName) else {
      report("workbook: unknown command \(name)\n\(HelpCommand.overview)")
      return 2
    }
    do {
      let command = try type.init(Array(arguments.dropFirst()))
      return try command.run() ? 0 : 1
    } catch let error as UsageError {
      report("workbook \(type.name): \(error.message)\n\(type.usage)")
      return 2
    } catch {
      report("workbook: \(error)")
      return 2
    }
  }
}
