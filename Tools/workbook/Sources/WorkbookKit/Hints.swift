import Foundation

/// A test's function name without its argument labels: `everyChangeArrives()` → `everyChangeArrives`.
func testName(_ name: String) -> String {
  String(name.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
}

/// The paragraph of an exercise's hint to show under a failure: the one that names the failing
/// test; else the first that does not speak only of tests that pass already (a part that works
/// needs no nudge); else the first.
func hintParagraph(_ hint: String, failing: String?, failingNames: Set<String>, testNames: Set<String>) -> String {
  let paragraphs = hint.components(separatedBy: "\n\n")
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

func firstParagraph(_ text: String) -> String {
  text.components(separatedBy: "\n\n").first ?? text
}

func indent(_ text: String, _ prefix: String) -> String {
  text.components(separatedBy: "\n").map { prefix + $0 }.joined(separator: "\n")
}
