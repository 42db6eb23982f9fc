import Foundation

/// Terminal styling: colour only when standard output is a terminal and `NO_COLOR` is unset.
enum Style {
  static let enabled: Bool = {
    let environment = ProcessInfo.processInfo.environment
    if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
    if environment["TERM"] == "dumb" { return false }
    return isatty(STDOUT_FILENO) != 0
  }()

  static func paint(_ text: String, _ code: String) -> String {
    enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  static func bold(_ text: String) -> String { paint(text, "1") }
  static func dim(_ text: String) -> String { paint(text, "2") }
  static func green(_ text: String) -> String { paint(text, "32") }
  static func red(_ text: String) -> String { paint(text, "31") }
  static func yellow(_ text: String) -> String { paint(text, "33") }

  static let pass = "✔"
  static let fail = "✘"
  static let todo = "·"
}

/// Writes to standard error.
func warn(_ message: String) {
  FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// A message for the user and a non-zero exit, without a stack trace.
struct Failure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

func progressBar(done: Int, total: Int, width: Int = 20) -> String {
  guard total > 0 else { return String(repeating: "░", count: width) }
  let filled = done * width / total
  let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
  return done == total ? Style.green(bar) : bar
}

func padded(_ text: String, _ width: Int) -> String {
  text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
