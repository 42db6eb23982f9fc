import Foundation

/// The arithmetic an estimate is graded against, written in a drill's `scenarios.json` as
/// `dau * peakShare` or `(photosPerDay * megabytes) / 1000`: numbers, the scenario's constraint
/// names, `+ - * /` and parentheses. It is evaluated with each scenario's values, so one formula
/// gives each scenario its own answer, and `workbook check` evaluates every formula of every
/// scenario before a learner meets it.
enum ScenarioFormula {
  /// The formula's value with `values`; a name the scenario does not give, a character outside the
  /// grammar or a division by zero throws, naming it.
  static func evaluate(_ formula: String, values: [String: Double]) throws -> Double {
    var parser = Parser(characters: Array(formula), values: values)
    let value = try parser.sum()
    parser.skipSpaces()
    guard parser.index == parser.characters.count else {
      throw Failure("“\(formula)” has “\(String(parser.characters[parser.index...]))” left over; write + - * / ( ), numbers and names")
    }
    return value
  }

  private struct Parser {
    let characters: [Character]
    let values: [String: Double]
    var index = 0

    mutating func skipSpaces() {
      while index < characters.count, characters[index] == " " { index += 1 }
    }

    mutating func take(_ character: Character) -> Bool {
      skipSpaces()
      guard index < characters.count, characters[index] == character else { return false }
      index += 1
      return true
    }

    mutating func sum() throws -> Double {
      var value = try product()
      while true {
        if take("+") {
          value += try product()
        } else if take("-") {
          value -= try product()
        } else {
          return value
        }
      }
    }

    mutating func product() throws -> Double {
      var value = try factor()
      while true {
        if take("*") {
          value *= try factor()
        } else if take("/") {
          let divisor = try factor()
          guard divisor != 0 else { throw Failure("a division by zero") }
          value /= divisor
        } else {
          return value
        }
      }
    }

    mutating func factor() throws -> Double {
      if take("(") {
        let value = try sum()
        guard take(")") else { throw Failure("a “(” is not closed") }
        return value
      }
      skipSpaces()
      let start = index
      while index < characters.count, characters[index].isLetter || characters[index].isNumber || characters[index] == "." {
        index += 1
      }
      let word = String(characters[start..<index])
      if let number = Double(word) { return number }
      guard !word.isEmpty else { throw Failure("a number or a name is missing at position \(start + 1)") }
      guard let value = values[word] else { throw Failure("“\(word)” is not a constraint of the scenario") }
      return value
    }
  }

  /// A candidate's number as written: `400000`, `400,000`, `400k`, `1.5M`, `2e6`, `30 GB` (the unit
  /// after the number is read past). Nil when the text starts with no number.
  static func number(_ text: String) -> Double? {
    let trimmed = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: "")
      .replacingOccurrences(of: "_", with: "")
    var digits = ""
    var rest = Substring(trimmed)
    while let first = rest.first,
      first.isNumber || first == "." || ((first == "e" || first == "E") && !digits.isEmpty && rest.dropFirst().first?.isNumber == true)
    {
      digits.append(first)
      rest = rest.dropFirst()
    }
    guard let value = Double(digits) else { return nil }
    let unit = rest.trimmingCharacters(in: .whitespaces)
    let lower = unit.lowercased()
    if lower.hasPrefix("billion") || lower.hasPrefix("bn") { return value * 1e9 }
    if lower.hasPrefix("million") || (unit.hasPrefix("M") && !unit.hasPrefix("MB") && !unit.hasPrefix("MiB")) { return value * 1e6 }
    if lower.hasPrefix("thousand") || (lower.hasPrefix("k") && !lower.hasPrefix("kb") && !lower.hasPrefix("kib")) { return value * 1e3 }
    return value
  }
}
