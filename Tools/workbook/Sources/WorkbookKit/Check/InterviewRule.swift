extension Checker {
  /// The parts every interview question has, in this order, as `### ` headings.
  static let answerParts = ["Model answer", "Follow-ups", "Red flags"]

  /// Every `## ` question of `interview.md` (what `make walkthrough-N` shows one at a time) has a
  /// model answer, follow-ups and red flags, none of them empty.
  func interviewProblems(_ chapter: Chapter) -> [Problem] {
    var found: [Problem] = []
    func problem(_ message: String) { found.append(Problem(rule: .interview, message: message)) }
    guard let text = read(chapter.interviewPath) else {
      return [Problem(rule: .interview, message: "\(chapter.interviewPath) is missing")]
    }
    let questions = markdownSections(text: text)
    if questions.isEmpty {
      problem("\(chapter.interviewPath) has no questions; each `## ` heading is one question")
    }
    for question in questions {
      let place = "\(chapter.interviewPath):\(question.line)"
      let parts = subsections(question.body)
      let headings = parts.map(\.heading)
      for part in Checker.answerParts where !headings.contains(part) {
        problem("\(place): the question “\(question.heading)” has no `### \(part)`; every question has \(partList)")
      }
      for part in parts where Checker.answerParts.contains(part.heading) && part.body.isEmpty {
        problem("\(place): the `### \(part.heading)` of “\(question.heading)” is empty")
      }
      let known = headings.filter { Checker.answerParts.contains($0) }
      if Set(known).count == known.count, known != Checker.answerParts.filter(known.contains) {
        problem("\(place): the parts of “\(question.heading)” are out of order; write \(partList), in that order")
      }
    }
    return found
  }

  private var partList: String {
    Checker.answerParts.map { "`### \($0)`" }.joined(separator: ", ")
  }
}

/// The `### ` parts of a Markdown section's body, outside code fences.
func subsections(_ body: String) -> [(heading: String, body: String)] {
  var parts: [(heading: String, body: String)] = []
  var inFence = false
  for line in body.components(separatedBy: "\n") {
    if line.hasPrefix("```") { inFence.toggle() }
    if !inFence, line.hasPrefix("### ") {
      parts.append((String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces), ""))
    } else if !parts.isEmpty {
      parts[parts.count - 1].body += line + "\n"
    }
  }
  return parts.map { ($0.heading, $0.body.trimmingCharacters(in: .whitespacesAndNewlines)) }
}
