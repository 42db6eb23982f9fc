/// `make test`: the workbook's own rules hold (the counterpart of `rustlings dev check`). See
/// `Rule` for the list and CONTRIBUTING.md for what each one asks of a chapter.
struct CheckCommand: Command {
  static let name = "check"
  static let arguments = "[--edit-sites]"
  static let summary = "the workbook's own rules hold (--edit-sites: also every starter marks where to write)"

  let editSites: Bool

  init(_ arguments: [String]) throws {
    editSites = try Arguments(arguments, flags: ["--edit-sites"]).has("--edit-sites")
  }

  func run() throws -> Bool {
    var checker = Checker(root: ".")
    if editSites { checker.rules.insert(.editSites) }
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
