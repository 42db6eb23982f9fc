import Foundation

/// The tiers of the hint for one failure, from a question to the answer, as `hints.md` already
/// stages them. Each exercise's section opens with a nudge (a question), each later paragraph
/// takes one part of the exercise and names the tests it answers, and the last paragraph, which
/// opens "Last step" (or "Last, if you are still stuck"), gives the names and the control flow.
///
/// 1. The question: the questions of the paragraph that fits the failure (`hintParagraph`), or the
///    section's opening nudge when that paragraph asks none.
/// 2. That whole paragraph: what the test wants, and why.
/// 3. The last step: the whole solution. The grader never prints it; `make hint-N` does when asked.
///
/// The grader prints tier 1 under a test's first failure and tier 2 when the same test fails again
/// on a later run (`HintTiersSeen` remembers); each `make hint-N` shows the next tier, and after the
/// last one the whole section.
struct HintLadder: Equatable {
  /// What to remember a learner has seen under: `2/startsAtZero`, or `2/plan` for an exercise not
  /// started (whose ladder starts with its plan).
  let key: String
  /// The paragraph that fits the failure (`hintParagraph`): the tier after the question.
  let paragraph: String
  /// The tiers in order, none empty and no two alike; the last step, when the section has one, last.
  let tiers: [String]
  /// Whether the last tier is the last step, which only `make hint-N` shows.
  let endsWithLastStep: Bool

  /// The tiers the grader may print on its own: all but the last step.
  var gradingTiers: Int { max(1, tiers.count - (endsWithLastStep ? 1 : 0)) }

  /// The ladder for a failure whose fitting paragraph of `section` (one exercise's hint) is
  /// `paragraph`: a question, the paragraph, and the section's last step.
  init(key: String, section: String, paragraph: String) {
    self.key = key
    self.paragraph = paragraph
    let paragraphs = hintParagraphs(section)
    let lastStep = paragraphs.last(where: isLastStep)
    let question = questions(in: paragraph) ?? paragraphs.first.flatMap { questions(in: $0) } ?? paragraphs.first
    var tiers: [String] = []
    for tier in [question, paragraph, lastStep] {
      guard let tier, !tier.isEmpty, !tiers.contains(tier) else { continue }
      // A question that is the whole paragraph is one tier, not two.
      if let previous = tiers.last, flattened(previous) == flattened(tier) { continue }
      tiers.append(tier)
    }
    self.tiers = tiers
    endsWithLastStep = lastStep.map { tiers.last == $0 } ?? false
  }

  /// The tier the grader prints after the learner has seen `seen` tiers (0: none): the next one,
  /// but never the last step.
  func tierForGrading(seen: Int) -> Int { min(seen + 1, gradingTiers) }
}

/// Whether a paragraph of a hint is its last step: the answer, shown only when asked for.
func isLastStep(_ paragraph: String) -> Bool {
  paragraph.hasPrefix("Last step") || paragraph.hasPrefix("Last, ")
}

/// The sentences of `paragraph` that ask a question, joined and wrapped again; nil when it asks none.
/// A sentence ends at `.`, `?` or `!` before a space or the end, never inside backticks.
func questions(in paragraph: String) -> String? {
  var sentences: [String] = []
  var sentence = ""
  var inCode = false
  let characters = Array(flattened(paragraph))
  for (index, character) in characters.enumerated() {
    sentence.append(character)
    if character == "`" { inCode.toggle() }
    let atEnd = index + 1 == characters.count || characters[index + 1] == " "
    if !inCode, atEnd, ".?!".contains(character) {
      sentences.append(sentence.trimmingCharacters(in: .whitespaces))
      sentence = ""
    }
  }
  sentences.append(sentence.trimmingCharacters(in: .whitespaces))
  let asked = sentences.filter { $0.hasSuffix("?") }
  guard !asked.isEmpty else { return nil }
  return wrapped(asked.joined(separator: " "), width: 96)
}

/// A paragraph on one line: its lines joined with spaces.
func flattened(_ paragraph: String) -> String {
  paragraph.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
}

/// `text` in lines of at most `width` characters, broken at spaces (a longer word keeps its line).
func wrapped(_ text: String, width: Int) -> String {
  var lines: [String] = []
  var line = ""
  for word in text.split(separator: " ") {
    if !line.isEmpty, line.count + 1 + word.count > width {
      lines.append(line)
      line = ""
    }
    line += (line.isEmpty ? "" : " ") + word
  }
  if !line.isEmpty { lines.append(line) }
  return lines.joined(separator: "\n")
}
