import Foundation

/// A `workbook` command: its name, what it takes, and what it does. Each command parses its own
/// arguments and rejects anything it does not take.
protocol Command {
  /// The word after `workbook`, such as `grade`.
  static var name: String { get }
  /// What it takes, as the usage line shows it: `N [--answers] [--exercise E]`.
  static var arguments: String { get }
  /// What it does, in one line.
  static var summary: String { get }
  /// Parses the command's arguments (the words after its name) without touching any file.
  init(_ arguments: [String]) throws
  /// Runs the command: false is a run that failed (exit status 1).
  func run() throws -> Bool
}

extension Command {
  /// The command's usage line and summary.
  static var usage: String {
    "usage: workbook \(name)\(arguments.isEmpty ? "" : " " + arguments)\n  \(summary)"
  }
}

/// A mistake on the command line: reported with the command's usage, exit status 2.
struct UsageError: Error, CustomStringConvertible, Equatable {
  let message: String
  init(_ message: String) { self.message = message }
  var description: String { message }
}

/// The arguments of one command, checked against the flags, options and positional arguments it
/// takes. Options take one value (`--exercise 3`); flags take none (`--answers`).
struct Arguments {
  private(set) var flags: Set<String> = []
  private(set) var options: [String: String] = [:]
  private(set) var positionals: [String] = []

  /// - Parameters:
  ///   - flags: the flags the command takes.
  ///   - options: the options it takes, each with what its value is ("an exercise number"), for
  ///     the message when the value is missing.
  ///   - positionals: how many positional arguments it takes, such as `1...1` for a chapter
  ///     number, or `0...Int.max` for any number of them.
  init(
    _ arguments: [String], flags known: Set<String> = [], options takes: [String: String] = [:],
    positionals count: ClosedRange<Int> = 0...0
  ) throws {
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      if known.contains(argument) {
        flags.insert(argument)
      } else if let hint = takes[argument] {
        guard let value = rest.popFirst(), !value.hasPrefix("--") else {
          throw UsageError("\(argument) needs \(hint)")
        }
        options[argument] = value
      } else if argument.hasPrefix("-") && argument.count > 1 {
        throw UsageError("unknown option \(argument)")
      } else {
        positionals.append(argument)
      }
    }
    if positionals.count > count.upperBound {
      let extra = positionals[count.upperBound...].joined(separator: " ")
      throw UsageError("unexpected argument\(positionals.count - count.upperBound == 1 ? "" : "s"): \(extra)")
    }
    if positionals.count < count.lowerBound {
      throw UsageError("which chapter? give its number, for example 1")
    }
  }

  func has(_ flag: String) -> Bool { flags.contains(flag) }

  /// The chapter number in positional argument `index`.
  func chapter(at index: Int = 0) throws -> Int {
    guard index < positionals.count, let number = Int(positionals[index]), number > 0 else {
      throw UsageError("which chapter? give its number, for example 1")
    }
    return number
  }

  /// Every positional argument as a chapter number.
  func chapters() throws -> [Int] {
    try positionals.indices.map { try chapter(at: $0) }
  }

  /// An option's value as a whole number, such as `--exercise 3`.
  func number(_ option: String, _ what: String) throws -> Int? {
    guard let text = options[option] else { return nil }
    guard let number = Int(text), number > 0 else { throw UsageError("\(option) needs \(what), not \(text)") }
    return number
  }

  /// An option's value as a list of chapter numbers, such as `--reference 3,4` (or of other
  /// numbers, named by `what`).
  func numberList(_ option: String, of what: String = "chapter numbers") throws -> Set<Int> {
    guard let text = options[option] else { return [] }
    var numbers: Set<Int> = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      guard let number = Int(part.trimmingCharacters(in: .whitespaces)), number > 0 else {
        throw UsageError("\(option) takes \(what) separated by commas, such as 3,4; not \(text)")
      }
      numbers.insert(number)
    }
    return numbers
  }
}
