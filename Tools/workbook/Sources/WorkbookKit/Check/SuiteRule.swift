import Foundation

/// A type declared in a test file, with the title of the `@Suite` attribute in front of it.
struct DeclaredType: Equatable {
  let name: String
  let line: Int
  /// The suite's display name, `@Suite("…")`; nil when it has none (or no `@Suite` at all).
  let suiteTitle: String?
  /// Whether its `@Suite` attribute carries a `.timeLimit(…)` trait.
  var hasTimeLimit = false
}

/// The types a Swift file declares (`struct`, `class`, `enum`, `actor`; not extensions), in order.
func declaredTypes(_ source: String) -> [DeclaredType] {
  var types: [DeclaredType] = []
  var pendingTitle: String?
  var pendingTimeLimit = false
  for (index, line) in source.components(separatedBy: "\n").enumerated() {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    if trimmed.hasPrefix("//") { continue }
    if trimmed.hasPrefix("@Suite") {
      pendingTitle = matches(#"@Suite\(\s*"((?:[^"\\]|\\.)*)""#, in: trimmed).first?[1]
    }
    if trimmed.contains(".timeLimit(") { pendingTimeLimit = true }
    let declaration =
      #"^\s*(?:(?:public|internal|private|fileprivate|final|nonisolated|@\w+(?:\([^)]*\))?)\s+)*"#
      + #"(?:struct|class|enum|actor)\s+([A-Za-z_][A-Za-z0-9_]*)"#
    if let name = matches(declaration, in: line).first?[1] {
      types.append(DeclaredType(name: name, line: index + 1, suiteTitle: pendingTitle, hasTimeLimit: pendingTimeLimit))
      pendingTitle = nil
      pendingTimeLimit = false
    }
  }
  return types
}

/// How a name that looks like it is meant for an exercise starts: `Exercise8_…` reads as
/// ("Exercise", 8); `Excercise8_…` as ("Excercise", 8). Nil for a name that looks like none.
func exercisePrefix(_ name: String) -> (prefix: String, number: Int)? {
  guard let captures = matches(#"^([A-Za-z]+)(\d+)_"#, in: name).first, let number = Int(captures[2]) else { return nil }
  let prefix = captures[1]
  guard prefix == "Exercise" || editDistance(prefix.lowercased(), "exercise") <= 3 else { return nil }
  return (prefix, number)
}

/// The number of single-letter insertions, deletions and substitutions between two words.
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a)
  let b = Array(b)
  guard !a.isEmpty else { return b.count }
  guard !b.isEmpty else { return a.count }
  var previous = Array(0...b.count)
  for i in 1...a.count {
    var current = [i] + Array(repeating: 0, count: b.count)
    for j in 1...b.count {
      current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.count]
}

/// Whether a suite title names exercise `number` with `title`: `Exercise 1 — The actor store`,
/// optionally followed by a note in parentheses, such as ` (practice server)`.
func suiteTitle(_ text: String, matches number: Int, _ title: String) -> Bool {
  let expected = "Exercise \(number) — \(title)"
  if text == expected { return true }
  return text.hasPrefix(expected + " (") && text.hasSuffix(")")
}

extension Checker {
  func suiteProblems(_ chapter: Chapter) -> [Problem] {
    var found: [Problem] = []
    func problem(_ message: String) { found.append(Problem(rule: .suites, message: message)) }
    let numbers = chapter.exercises.map(\.number)
    let range = numbers.isEmpty ? "none" : "\(numbers.min()!)–\(numbers.max()!)"
    var suitesFor: [Int: [String]] = [:]

    /// A file or type name meant for an exercise, checked for its prefix and number.
    func checkName(_ name: String, kind: String, at place: String, report: Bool = true) -> Int? {
      guard let (prefix, number) = exercisePrefix(name) else { return nil }
      guard report else { return prefix == "Exercise" && numbers.contains(number) ? number : nil }
      if prefix != "Exercise" {
        let fixed = "Exercise" + name.dropFirst(prefix.count)
        problem(
          "\(place): the \(kind) \(name) starts with “\(prefix)”, not “Exercise”, so the grader never counts its "
            + "tests; rename it \(fixed)")
        return nil
      }
      if !numbers.contains(number) {
        problem(
          "\(place): the \(kind) \(name) is named for exercise \(number), but chapter \(chapter.number) has "
            + "exercises \(range) (\(chapter.exercisesPath)); rename it for the exercise it tests, or add the exercise")
        return nil
      }
      return number
    }

    for file in files(in: chapter.testsPath) where file.hasSuffix(".swift") {
      let relative = "\(chapter.testsPath)/\(file)"
      let base = String(file.dropLast(".swift".count))
      let fileNumber = checkName(base, kind: "test file", at: relative)
      let types = declaredTypes(read(relative) ?? "")
      if fileNumber != nil, !types.contains(where: { $0.name == base }) {
        problem(
          "\(relative) declares no type \(base): name the suite type as its file (the grader finds a "
            + "suite's tests in the file of the same name)")
      }
      for type in types {
        let place = "\(relative):\(type.line)"
        // A suite named as its file was reported with the file, if its name is wrong.
        if let number = checkName(type.name, kind: "suite", at: place, report: type.name != base) {
          suitesFor[number, default: []].append(type.name)
          if type.name != base {
            problem("\(place): the suite \(type.name) is declared in \(file); move it to \(type.name).swift, a file of its own name")
          }
          guard let exercise = chapter.exercise(number) else { continue }
          let expected = "@Suite(\"Exercise \(number) — \(exercise.title)\")"
          if let title = type.suiteTitle {
            if !suiteTitle(title, matches: number, exercise.title) {
              problem(
                "\(place): the suite is titled “\(title)”, but \(chapter.exercisesPath) calls exercise \(number) "
                  + "“\(exercise.title)”; title it \(expected) (a note in parentheses may follow the title)")
            }
          } else {
            problem("\(place): the suite \(type.name) has no title; give it \(expected)")
          }
          if !type.hasTimeLimit {
            problem(
              "\(place): the suite \(type.name) has no time limit; add .timeLimit(.minutes(1)) to its @Suite, so a "
                + "test that never ends fails on its own instead of hanging the grader")
          }
        } else if exercisePrefix(type.name) == nil, let title = type.suiteTitle,
          let number = matches(#"^Exercise (\d+)\b"#, in: title).first.flatMap({ Int($0[1]) })
        {
          problem(
            "\(place): the suite \(type.name) is titled “\(title)” but its name does not start with Exercise\(number)_, "
              + "so the grader never counts its tests; rename it Exercise\(number)_\(type.name) (and its file)")
        }
      }
    }
    for exercise in chapter.exercises where suitesFor[exercise.number] == nil {
      problem(
        "exercise \(exercise.number) (“\(exercise.title)”) has no tests: add \(chapter.testsPath)/"
          + "Exercise\(exercise.number)_<Name>Tests.swift with a suite of the same name titled "
          + "@Suite(\"Exercise \(exercise.number) — \(exercise.title)\")")
    }
    return found
  }
}
