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
    found += citationProblems(chapter, text: text, questionCount: questions.count)
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

extension Checker {
  /// Every question's model answer ends with exactly one `Checked by:` paragraph or one
  /// `Not built here:` line (see `Citations`); a `Checked by:` paragraph names tests that exist as
  /// `func name(` in `Tests/<Module>Tests/`, each with at least one mutant that exists in the
  /// chapter's `mutants/`; and the chapter has at least as many questions as exercises.
  func citationProblems(_ chapter: Chapter, text: String, questionCount: Int) -> [Problem] {
    var found: [Problem] = []
    let file = chapter.interviewPath
    func problem(_ line: Int, _ message: String) {
      found.append(Problem(rule: .interview, message: "\(file):\(line): \(message)"))
    }
    let questions = Citations.questions(in: text)
    if questionCount < chapter.exercises.count {
      problem(
        questions.last?.line ?? 1,
        "the chapter has \(questionCount) question\(questionCount == 1 ? "" : "s") for \(chapter.exercises.count) "
          + "exercises; add a `## ` question for each exercise's core mechanism")
    }
    let tests = testFunctionNames(chapter)
    let mutants = Set(mutantFiles(chapter, root: root).compactMap(mutantNumber))
    let record = MutantCitations.killersFile(chapter)
    let recorded = MutantCitations.recorded(chapter, root: root)
    for question in questions {
      for stray in question.strayEndings {
        problem(
          stray.line,
          "a `\(stray.lines[0].hasPrefix(Citations.checkedByPrefix) ? Citations.checkedByPrefix : Citations.notBuiltPrefix)` "
            + "paragraph outside the `### Model answer` of “\(question.heading)”; move it to the end of the model answer")
      }
      guard question.hasModelAnswer else { continue }  // the parts check names the missing part
      let endings = question.endings
      if endings.isEmpty {
        problem(
          question.line,
          "the model answer of “\(question.heading)” has no `Checked by:` line; end it with `Checked by: `testName` "
            + "(mutant NN)` (the tests that prove it, and the mutants they kill), or with `Not built here: <what>; "
            + "source: <primary source>`")
        continue
      }
      if endings.count > 1 {
        let lines = endings.map { result in
          switch result {
          case .success(let ending): ending.line
          case .failure(let error): error.line
          }
        }
        problem(
          lines[1],
          "the model answer of “\(question.heading)” has \(endings.count) `Checked by:`/`Not built here:` paragraphs "
            + "(lines \(lines.map(String.init).joined(separator: ", "))); keep exactly one, at its end")
      } else if let last = question.modelAnswer.last, !Citations.isEnding(last) {
        problem(
          last.line,
          "the model answer of “\(question.heading)” goes on after its `Checked by:`/`Not built here:` paragraph; "
            + "move that paragraph to the end of the model answer")
      }
      for result in endings {
        switch result {
        case .failure(let error):
          problem(error.line, error.message)
        case .success(.notBuiltHere):
          break
        case .success(.checkedBy(let items, _)):
          for item in items where !tests.contains(item.test) {
            problem(
              item.line,
              "`\(item.test)` is not a test of \(chapter.testsPath) (no `func \(item.test)(` there); cite a test by "
                + "its function's name")
          }
          for item in items {
            for number in item.mutants where !mutants.contains(number) {
              problem(
                item.line,
                "`\(item.test)` cites mutant \(number), which \(chapter.mutantsPath) does not have; cite the number "
                  + "of a file there (`NN-name.mutant`)")
            }
          }
          // The kill itself, as `make mutants` last recorded it: a test that does not fail on the
          // mutant it is cited with does not exercise the sentence that mutant breaks.
          for item in items {
            for number in item.mutants where mutants.contains(number) && tests.contains(item.test) {
              let rerun = "make mutants CHAPTER=\(chapter.number) MUTANTS=\(number)"
              guard let run = recorded?[number] else {
                problem(
                  item.line,
                  "`\(item.test)` cites mutant \(number), which has no recorded run in \(record); run `\(rerun)`, "
                    + "which records the tests that kill it")
                continue
              }
              guard !run.killers.contains(item.test) else { continue }
              let killers =
                run.killers.isEmpty ? "no test" : run.killers.map { "`\($0)`" }.joined(separator: ", ")
              problem(
                item.line,
                "`\(item.test)` is cited with mutant \(number), but the recorded run of \(run.name) in \(record) was "
                  + "failed by \(killers), not by it; cite a test that kills it, or run `\(rerun)` if the test changed")
            }
          }
          // A test stands in the line for a sentence it exercises: the mutant that breaks that
          // sentence and that the test kills says so (`make mutants` proves the kill).
          for item in items where item.mutants.isEmpty {
            problem(
              item.line,
              "`\(item.test)` is cited by the `Checked by:` line of “\(question.heading)” with no mutant; name the "
                + "mutant it kills whose `why:` breaks this answer's claim, `\(item.test)` (mutant NN), or leave it out")
          }
        }
      }
    }
    return found
  }

  /// The names of every function declared in the chapter's test folder (`func name(` or
  /// `func name<`), tests and helpers alike.
  func testFunctionNames(_ chapter: Chapter) -> Set<String> {
    var names = Set<String>()
    for file in files(in: chapter.testsPath) where file.hasSuffix(".swift") {
      guard let text = read("\(chapter.testsPath)/\(file)") else { continue }
      for match in matches(#"\bfunc\s+([A-Za-z_][A-Za-z0-9_]*)\s*[(<]"#, in: text) { names.insert(match[1]) }
    }
    return names
  }
}
