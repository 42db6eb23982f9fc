import Foundation

extension Checker {
  /// The marker every place the learner writes code carries: one line saying what to write.
  static let editSiteMarker = "// TODO:"
  /// The first words of a given file (code the learner does not write).
  static let givenFileLabel = "// Given: "
  /// The label of a given block inside an exercise file: a line of its own above the block.
  static let givenBlockLabel = "// Given — "
  /// The bodies that do nothing yet look finished: an empty body, or one plausible value.
  static let placeholderBodies: Set<String> = ["nil", "0", "false", "true", "[:]", "[]", "\"\"", "Data()", ".empty"]

  /// Where to write, at a glance: every exercise file of the starter marks each place the learner
  /// writes code with a `// TODO:` line, right above the `NotImplemented` it throws or the
  /// placeholder it returns; given blocks are labelled one way; the answers carry no marker.
  func editSiteProblems(_ chapter: Chapter) -> [Problem] {
    var found: [Problem] = []
    func problem(_ message: String) { found.append(Problem(rule: .editSites, message: message)) }
    for exercise in chapter.exercises {
      for file in exercise.files {
        let starter = "\(chapter.starterPath)/\(file)"
        guard let text = read(starter) else { continue }  // reported by the files rule
        let sites = unmarkedEditSites(text)
        if !text.contains(Checker.editSiteMarker) {
          problem(
            "\(starter) (exercise \(exercise.number)) has no `\(Checker.editSiteMarker)` marker; mark every place the "
              + "learner writes code with one line saying what to write, above the NotImplemented it throws")
        }
        for site in sites {
          problem(
            "\(starter):\(site.line) \(site.what) with no `\(Checker.editSiteMarker)` line right above it; add one "
              + "short line saying what to write there (a nudge, not the answer)")
        }
        for (index, line) in text.components(separatedBy: "\n").enumerated() where misspelledGivenLabel(line) {
          problem(
            "\(starter):\(index + 1) labels given code “\(line.trimmingCharacters(in: .whitespaces))”; spell a given "
              + "block's label `\(Checker.givenBlockLabel)why it is there`, on a line of its own above the block")
        }
      }
    }
    for file in files(in: chapter.answerPath) where file.hasSuffix(".swift") {
      let answer = "\(chapter.answerPath)/\(file)"
      guard let text = read(answer) else { continue }
      if text.contains(Checker.editSiteMarker) || text.contains("NotImplemented(") {
        problem(
          "\(answer) still has a `\(Checker.editSiteMarker)` marker or a NotImplemented; the reference answer is "
            + "finished code: write the missing part, or take the marker out")
      }
    }
    for file in givenFiles(chapter) where file.hasSuffix(".swift") {
      let starter = "\(chapter.starterPath)/\(file)"
      guard let text = read(starter), text.contains(Checker.editSiteMarker) || text.contains("NotImplemented(") else { continue }
      problem(
        "\(starter) is given (no exercise lists it) but has a `\(Checker.editSiteMarker)` marker or a NotImplemented; "
          + "list it in its exercise's `files` if the learner writes it")
    }
    return found
  }
}

/// A place in a starter where the learner writes code that carries no `// TODO:` line.
struct EditSite: Equatable {
  /// 1-based.
  let line: Int
  /// What is there, in words: "throws NotImplemented", "returns the placeholder `nil`"…
  let what: String
}

/// The edit sites of a starter file that lack their marker: a `NotImplemented` thrown, a body
/// that is empty or one plausible value (`nil`, `0`, `false`, `[:]`…), each of which needs a
/// `// TODO:` line among the comment lines right above it (inside the body, for one value). A
/// one-line `init() {}` is no edit site (an empty initializer is often the whole answer), and
/// neither is anything in a block labelled `// Given — …`.
func unmarkedEditSites(_ text: String) -> [EditSite] {
  let lines = text.components(separatedBy: "\n")
  let trimmed = lines.map { $0.trimmingCharacters(in: .whitespaces) }
  let given = givenLines(lines)
  func marked(above index: Int) -> Bool {
    var above = index - 1
    while above >= 0, trimmed[above].hasPrefix("//") {
      if trimmed[above].hasPrefix(Checker.editSiteMarker) { return true }
      above -= 1
    }
    return false
  }
  var sites: [EditSite] = []
  for (index, line) in trimmed.enumerated() where !line.hasPrefix("//") && !given.contains(index) {
    var what: String?
    if line.contains("NotImplemented(") {
      what = "throws NotImplemented"
    } else if Checker.placeholderBodies.contains(line), index > 0, trimmed[index - 1].hasSuffix("{") {
      what = "returns the placeholder `\(line)`"
    } else if line == "}", let opener = trimmed[..<index].lastIndex(where: { !$0.isEmpty }), trimmed[opener].hasSuffix("{"),
      isBodyOpener(trimmed[opener])
    {
      what = "has an empty body"
    } else if isBodyOpener(line), !line.contains("init("),
      let body = oneLineBody(line), body.isEmpty || Checker.placeholderBodies.contains(body)
    {
      what = body.isEmpty ? "has an empty body" : "returns the placeholder `\(body)`"
    }
    guard let what else { continue }
    // An empty body's marker goes inside it, which makes it no longer empty.
    let anchor = what == "has an empty body" && line == "}" ? trimmed[..<index].lastIndex { !$0.isEmpty } ?? index : index
    if !marked(above: anchor) { sites.append(EditSite(line: anchor + 1, what: what)) }
  }
  return sites
}

/// The lines (0-based) of the blocks labelled `// Given — …`: from the label to the end of the
/// declaration under it, the closing brace at the label's indentation (or the declaration's one
/// line when it opens no block).
func givenLines(_ lines: [String]) -> Set<Int> {
  func indentation(_ line: String) -> Int { line.prefix { $0 == " " }.count }
  var given = Set<Int>()
  var index = 0
  while index < lines.count {
    let line = lines[index]
    guard line.trimmingCharacters(in: .whitespaces).hasPrefix(Checker.givenBlockLabel) else {
      index += 1
      continue
    }
    let indent = indentation(line)
    var end = index + 1
    // Doc comments and attributes, then the declaration itself.
    while end < lines.count,
      lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("//")
        || lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("@")
    {
      end += 1
    }
    if end < lines.count, lines[end].hasSuffix("{") {
      end += 1
      while end < lines.count, !(indentation(lines[end]) == indent && lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("}")) {
        end += 1
      }
    }
    given.formUnion(index...min(end, lines.count - 1))
    index = end + 1
  }
  return given
}

/// Whether a line opens the body of a function, an initializer, an accessor or a computed property.
private func isBodyOpener(_ line: String) -> Bool {
  let words = ["func ", "init(", "var ", "get ", "set ", "get{", "set{", "deinit"]
  return words.contains { line.contains($0) } || line == "get {" || line == "set {"
}

/// The text between `{` and `}` when a line holds a whole body, such as `public var count: Int { 0 }`.
private func oneLineBody(_ line: String) -> String? {
  guard line.hasSuffix("}"), let open = line.lastIndex(of: "{") else { return nil }
  let inner = line[line.index(after: open)..<line.index(before: line.endIndex)]
  guard !inner.contains("{"), !inner.contains("}") else { return nil }
  return inner.trimmingCharacters(in: .whitespaces)
}

/// Whether a comment line labels given code other than as `// Given — …` (`/// Given: …`,
/// `(Given.)`), so that given code reads the same everywhere.
func misspelledGivenLabel(_ line: String) -> Bool {
  let text = line.trimmingCharacters(in: .whitespaces)
  guard text.hasPrefix("//") else { return false }
  if text.hasPrefix(Checker.givenBlockLabel) { return false }
  let comment = text.drop { $0 == "/" }.trimmingCharacters(in: .whitespaces)
  return comment.hasPrefix("Given:") || comment.hasPrefix("(Given") || comment.hasPrefix("Given —")
    || comment.hasPrefix("Given -") || comment.hasPrefix("Given.")
}
