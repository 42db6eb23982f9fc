import Foundation

/// A test's function name without its argument labels: `everyChangeArrives()` → `everyChangeArrives`.
func testName(_ name: String) -> String {
  String(name.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
}

/// The paragraph of an exercise's hint (the body of its own `## N. Title` section, never another
/// exercise's) to show under a failure. An exercise not started yet gets the first paragraph, its
/// plan: the edge cases its failing tests name come after the plan. Otherwise the paragraph that
/// names the failing test; else the first that does not speak only of tests that pass already (a
/// part that works needs no nudge); else the first.
func hintParagraph(
  _ hint: String, notStarted: Bool = false, failing: String?, failingNames: Set<String>, testNames: Set<String>
) -> String {
  let paragraphs = hintParagraphs(hint)
  if notStarted { return firstParagraph(hint) }
  func tests(namedIn paragraph: String) -> Set<String> {
    let quoted = paragraph.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    return Set(quoted.map(testName)).intersection(testNames)
  }
  if let failing, let paragraph = paragraphs.first(where: { tests(namedIn: $0).contains(failing) }) {
    return paragraph
  }
  let relevant = paragraphs.first { paragraph in
    let named = tests(namedIn: paragraph)
    return named.isEmpty || !named.isDisjoint(with: failingNames)
  }
  return relevant ?? firstParagraph(hint)
}

/// The paragraphs of a hint: its text split at blank lines (one or more, spaces allowed), none
/// of them empty.
func hintParagraphs(_ text: String) -> [String] {
  var paragraphs: [String] = []
  var current: [String] = []
  for line in text.components(separatedBy: "\n") {
    if line.trimmingCharacters(in: .whitespaces).isEmpty {
      if !current.isEmpty { paragraphs.append(current.joined(separator: "\n")) }
      current = []
    } else {
      current.append(line)
    }
  }
  if !current.isEmpty { paragraphs.append(current.joined(separator: "\n")) }
  return paragraphs
}

func firstParagraph(_ text: String) -> String {
  hintParagraphs(text).first ?? text
}

func indent(_ text: String, _ prefix: String) -> String {
  text.components(separatedBy: "\n").map { prefix + $0 }.joined(separator: "\n")
}
