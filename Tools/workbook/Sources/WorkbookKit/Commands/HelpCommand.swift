/// `workbook help [command]`: the command table, or one command's usage.
struct HelpCommand: Command {
  static let name = "help"
  static let arguments = "[command]"
  static let summary = "list the commands, or show one command's usage"

  let topic: String?

  init(_ arguments: [String]) throws {
    let parsed = try Arguments(arguments, positionals: 0...1)
    topic = parsed.positionals.first
  }

  func run() throws -> Bool {
    guard let topic else {
      print(Self.overview)
      return true
    }
    guard let type = WorkbookTool.command(named: topic) else {
      throw UsageError("there is no command \(topic)")
    }
    print(type.usage)
    return true
  }

  /// Every command with what it takes and what it does, from the command table.
  static var overview: String {
    var lines = ["usage: workbook <command> [arguments]", ""]
    for type in WorkbookTool.commands {
      let call = type.name + (type.arguments.isEmpty ? "" : " " + type.arguments)
      if call.count < 38 {
        lines.append("  " + padded(call, 38) + type.summary)
      } else {
        lines.append("  " + call)
        lines.append("  " + String(repeating: " ", count: 38) + type.summary)
      }
    }
    lines.append("")
    lines.append("`make help` lists the make targets that run these.")
    return lines.joined(separator: "\n")
  }
}
