/// `make test`: the workbook's own rules hold (the counterpart of `rustlings dev check`). See
/// `Rule` for the list and CONTRIBUTING.md for what each one asks of a chapter.
struct CheckCommand: Command {
  static let name = "check"
  static let arguments = ""
  static let summary = "the workbook's own rules hold, edit-site markers and given labels included"

  init(_ arguments: [String]) throws {
    _ = try Arguments(arguments)
  }

  func run() throws -> Bool {
    let checker = Checker(root: ".")
    let problems = checker.problems()
    let rules = Rule.allCases.filter(checker.rules.contains).map(\.rawValue).joined(separator: ", ")
    guard problems.isEmpty else {
      for problem in problems { print("\(Style.red(Style.fail)) \(problem)") }
      print(Style.red("\n\(problems.count) problem\(problems.count == 1 ? "" : "s")") + " (rules checked: \(rules))")
      return false
    }
    print("\(Style.green(Style.pass)) workbook check: every rule holds (\(rules))")
    return true
  }
}
