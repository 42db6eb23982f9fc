import Foundation

/// A test's function name without its argument labels: `everyChangeArrives()` → `everyChangeArrives`.
func testName(_ name: String) -> String {
  String(name.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
}

/// The paragraph of an exercise's hint (the body of its own `## N. Title` section, never another
/// exercise's) to show under a failure. An exercise not started yet gets the first paragraph, its
/// plan: the edge cases its failing tests name come after the plan. Otherwise, in turn:
/// 1. the paragraph that names the failing test (in backticks): the hints say which test it answers;
/// 2. the paragraph that names another failing test;
/// 3. the paragraph that speaks of what the failing test's name says (`defaultTTL`: default, TTL),
///    the most of its words, and of two alike the one that speaks of them sooner (a paragraph that
///    opens "For eviction" is about eviction; one that ends "after an eviction pass" is not);
/// 4. the first paragraph that neither names a passing test nor speaks of one (a part that works
///    needs no nudge: a paragraph about eviction is no help when eviction passes and the TTL fails);
/// 5. the first, the plan.
///
/// The last step (`isLastStep`), which gives the solution away, is never the paragraph: it is the
/// last tier of every failure's hint (`HintLadder`), shown only when asked for.
///
/// A failing cost test (`costTests`: a `…CostTests` suite's, about the work the code does) gets the
/// paragraph that names it, else one that names another cost test of the exercise, else one that
/// speaks of cost; with none, `costQuestion`. Words shared with a behaviour paragraph are no match:
/// a test counting writes is not answered by the paragraph on what to write.
func hintParagraph(
  _ hint: String, notStarted: Bool = false, failing: String?, failingNames: Set<String>, testNames: Set<String>,
  costTests: Set<String> = []
) -> String {
  let paragraphs = hintParagraphs(hint).filter { !isLastStep($0) }
  if notStarted { return firstParagraph(hint) }
  func tests(namedIn paragraph: String) -> Set<String> {
    let quoted = paragraph.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    return Set(quoted.map(testName)).intersection(testNames)
  }
  if let failing, let paragraph = paragraphs.first(where: { tests(namedIn: $0).contains(failing) }) {
    return paragraph
  }
  if let failing, costTests.contains(failing) {
    let costWords = ["cost", "constant time", "grows", "how many", "how often"]
    return paragraphs.first { !tests(namedIn: $0).isDisjoint(with: costTests) }
      ?? paragraphs.first { paragraph in costWords.contains { paragraph.lowercased().contains($0) } }
      ?? costQuestion
  }
  if let paragraph = paragraphs.first(where: { !tests(namedIn: $0).isDisjoint(with: failingNames) }) {
    return paragraph
  }
  if let failing {
    let words = nameWords(failing)
    let scored = paragraphs.enumerated().map { index, paragraph in
      let places = words.compactMap { firstMention(paragraph, $0) }
      return (index: index, count: places.count, first: places.min() ?? .max)
    }
    let best = scored.filter { $0.count > 0 }.min { ($1.count, $0.first) < ($0.count, $1.first) }
    if let best { return paragraphs[best.index] }
  }
  let passing = testNames.subtracting(failingNames)
  let passingWords = Set(passing.flatMap(nameWords)).subtracting(failingNames.flatMap(nameWords))
  let free = paragraphs.first { paragraph in
    tests(namedIn: paragraph).isEmpty && !passingWords.contains { $0.count >= 5 && mentions(paragraph, $0) }
  }
  return free ?? firstParagraph(hint)
}

/// The hint under a failing cost test when the exercise's hint speaks of no cost.
let costQuestion = """
  This test counts the work your code does (writes, copies, comparisons, requests) as the input \
  grows, not only what it returns. What does your code do once per element, or once per call, \
  that it could do once in all?
  """

/// Words too common in test names to say what a test is about.
private let commonWords: Set<String> = [
  "the", "and", "not", "are", "for", "with", "does", "when", "after", "before", "one", "two", "all", "its",
  "every", "never", "only", "that", "than", "then", "from", "into", "still", "same", "new", "gets", "has", "is",
]

/// The words of a test's name, lowercased, split where its camel case changes (`defaultTTL` →
/// default, ttl; `evictsLeastRecentlyUsed` → evicts, least, recently, used), common ones left out.
func nameWords(_ name: String) -> [String] {
  var words: [String] = []
  var word = ""
  let characters = Array(name)
  for (index, character) in characters.enumerated() {
    let next = index + 1 < characters.count ? characters[index + 1] : nil
    let boundary =
      character.isUppercase
      && (word.last.map { $0.isLowercase || $0.isNumber } == true
        || (word.last?.isUppercase == true && next?.isLowercase == true))
    if boundary || !(character.isLetter || character.isNumber) {
      if !word.isEmpty { words.append(word.lowercased()) }
      word = ""
    }
    if character.isLetter || character.isNumber { word.append(character) }
  }
  if !word.isEmpty { words.append(word.lowercased()) }
  return words.filter { $0.count >= 3 && !commonWords.contains($0) }
}

/// Whether `paragraph` speaks of `word`: a word of the paragraph starts with its first five
/// letters (all of them when shorter), so `evicts` finds "eviction" and `ttl` finds "TTL".
func mentions(_ paragraph: String, _ word: String) -> Bool {
  firstMention(paragraph, word) != nil
}

/// Where `paragraph` first speaks of `word` (as `mentions` reads it), counted in words.
func firstMention(_ paragraph: String, _ word: String) -> Int? {
  let stem = word.prefix(5)
  return paragraph.lowercased().split { !$0.isLetter && !$0.isNumber }.firstIndex { $0.hasPrefix(stem) }
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
