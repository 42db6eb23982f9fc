import Foundation

/// A chapter's ledger of promises, `promises.md`: one `## ` section per documented public
/// declaration of its starters, headed by the declaration as the texts name it, and under it one
/// bullet per promise its doc comment makes, each ending in the tests that hold it and the
/// mutants that break it:
///
///     ## `DataStore.update(_:_:)`
///
///     - A throwing transform leaves the value as it was. — `throwingTransform` (mutant 60)
///     - Two updates never lose a write. — `concurrentUpdates` (mutants 01, 83)
///
/// The citations follow the bullet's last ` — `, written as the items of a `Checked by:` line
/// (`Citations`). A bullet may wrap onto indented lines. A declaration that promises nothing its
/// signature does not say has the one bullet `- No behaviour beyond its signature.`; a promise
/// no test holds yet is an HTML comment, `<!-- untested: … -->`, which the rule does not read.
struct PromiseLedger {
  struct Section: Equatable {
    /// The heading after `## `.
    let heading: String
    let line: Int
    var bullets: [Bullet] = []
    /// How many `<!-- untested: … -->` comments the section holds.
    var untested = 0

    /// The declaration the heading names: its one code span, or nil when it is not one.
    var declaration: String? {
      guard let match = matches("^`([^`]+)`$", in: heading.trimmingCharacters(in: .whitespaces)).first else { return nil }
      return match[1]
    }
  }

  struct Bullet: Equatable {
    /// The bullet's text without its `- `, its lines joined by spaces.
    let text: String
    let line: Int

    /// The text that says a declaration promises nothing beyond its signature.
    static let nothingPromised = "No behaviour beyond its signature."

    /// The tests and mutants after the last ` — `; an error when there are none or they do not
    /// parse, nil for `nothingPromised`.
    var citations: Result<[CitedTest], CitationError>? {
      if text == Bullet.nothingPromised { return nil }
      let shape = "end the promise with ` — `testName` (mutant NN)`, the tests that hold it and the mutants that break it"
      guard let separator = text.range(of: " — ", options: .backwards) else {
        return .failure(CitationError(line: line, message: "a promise with no test; \(shape)"))
      }
      let items = String(text[separator.upperBound...])
      let paragraph = Paragraph(line: line, lines: [Citations.checkedByPrefix + " " + items])
      switch Citations.parseCheckedBy(paragraph) {
      case .success(.checkedBy(let cited, _)): return .success(cited)
      case .success: return .failure(CitationError(line: line, message: "a promise with no test; \(shape)"))
      case .failure(let error):
        let message = error.message.replacingOccurrences(of: "a `Checked by:` line", with: "a promise")
        return .failure(CitationError(line: line, message: message))
      }
    }
  }

  let sections: [Section]

  init(_ text: String) {
    var sections: [Section] = []
    var bullet: (line: Int, lines: [String])?
    var inComment = false
    func endBullet() {
      guard let open = bullet, !sections.isEmpty else { return }
      bullet = nil
      let text = open.lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
      sections[sections.count - 1].bullets.append(Bullet(text: text, line: open.line))
    }
    for (index, line) in text.components(separatedBy: "\n").enumerated() {
      let number = index + 1
      if inComment {
        if line.contains("-->") { inComment = false }
        continue
      }
      if line.hasPrefix("<!--") {
        endBullet()
        if line.hasPrefix("<!-- untested:"), !sections.isEmpty { sections[sections.count - 1].untested += 1 }
        inComment = !line.contains("-->")
        continue
      }
      if line.hasPrefix("## ") {
        endBullet()
        sections.append(Section(heading: String(line.dropFirst(3)), line: number))
        continue
      }
      if line.hasPrefix("- ") {
        endBullet()
        bullet = (number, [String(line.dropFirst(2))])
        continue
      }
      if bullet != nil, line.hasPrefix(" "), !line.trimmingCharacters(in: .whitespaces).isEmpty {
        bullet?.lines.append(line)
        continue
      }
      endBullet()
    }
    endBullet()
    self.sections = sections
  }

  /// Every cited test with its line, across the whole ledger; bullets that do not parse are left
  /// out (the `promises` rule names them).
  var citedTests: [CitedTest] {
    sections.flatMap(\.bullets).flatMap { bullet -> [CitedTest] in
      guard case .success(let items)? = bullet.citations else { return [] }
      return items
    }
  }
}

extension Chapter {
  /// The chapter's ledger of promises; the `promises` rule holds only the chapters that have one.
  var promisesPath: String { "\(folder)/promises.md" }
}

extension Checker {
  /// A chapter with a `promises.md` answers for every documented public declaration of its
  /// starters (`Declarations.documented`, from the starters' symbol graph): each has a section,
  /// each section names one of them, and each promise cites tests of the chapter that its recorded
  /// mutant runs say kill the mutants cited with them (see `PromiseLedger`). A doc comment is the
  /// compiler's: a `// TODO:` line between it and its declaration does not detach it.
  func promiseProblems(_ chapter: Chapter, graphs: SymbolGraphs) -> [Problem] {
    let file = chapter.promisesPath
    let (graph, unbuilt) = graphs.declarations(.starters, modules: [chapter.module], rule: .promises)
    let declarations = graph?.documented ?? []
    guard let text = read(file) else {
      // Every chapter keeps a ledger; one whose starters document nothing public has nothing to list.
      guard let first = declarations.first else { return unbuilt }
      return [
        Problem(
          rule: .promises,
          message: "\(file) is missing, and the chapter's starters document \(declarations.count) public "
            + "declaration\(declarations.count == 1 ? "" : "s") (the first, `\(first.heading)`, at \(first.file):\(first.line)); "
            + "create it with a section for each (see CONTRIBUTING.md, \"promises.md\")")
      ]
    }
    var found = unbuilt
    func problem(_ line: Int, _ message: String) {
      found.append(Problem(rule: .promises, message: "\(file):\(line): \(message)"))
    }
    let ledger = PromiseLedger(text)
    let headings = Set(declarations.map(\.heading))
    let covered = Set(ledger.sections.compactMap(\.declaration))
    var listed = Set<String>()
    for declaration in declarations where !covered.contains(declaration.heading) && listed.insert(declaration.heading).inserted {
      found.append(
        Problem(
          rule: .promises,
          message: "\(declaration.file):\(declaration.line): `\(declaration.heading)` is documented and public, and "
            + "\(file) has no section for it; add `## `\(declaration.heading)`` with a bullet for each promise its "
            + "doc comment makes"))
    }
    let tests = testFunctionNames(chapter)
    let mutants = Set(mutantFiles(chapter, root: root).compactMap(mutantNumber))
    let record = MutantCitations.killersFile(chapter)
    let recorded = MutantCitations.recorded(chapter, root: root)
    var firstSection: [String: Int] = [:]
    for section in ledger.sections {
      guard let name = section.declaration else {
        problem(section.line, "“\(section.heading)” is not a declaration in backticks; head each section `## `Type.member(labels:)``")
        continue
      }
      if let first = firstSection[name] {
        problem(section.line, "`\(name)` has a section already (line \(first)); keep its promises in one")
      } else {
        firstSection[name] = section.line
      }
      if graph != nil, !headings.contains(name) {
        problem(
          section.line,
          "`\(name)` is no documented public declaration of \(chapter.starterPath); name one as its section "
            + "heading (`Type.member(labels:)`), or remove the section")
      }
      if section.bullets.isEmpty && section.untested == 0 {
        problem(
          section.line,
          "`\(name)` lists no promise; add a bullet for each, or `- \(PromiseLedger.Bullet.nothingPromised)`")
      }
      for bullet in section.bullets {
        switch bullet.citations {
        case nil: continue
        case .failure(let error)?: problem(error.line, error.message)
        case .success(let items)?:
          for item in items {
            guard tests.contains(item.test) else {
              problem(
                item.line,
                "`\(item.test)` is not a test of \(chapter.testsPath) (no `func \(item.test)(` there); cite a test by "
                  + "its function's name")
              continue
            }
            if item.mutants.isEmpty {
              problem(
                item.line,
                "`\(item.test)` is cited with no mutant; name the mutant it kills that breaks this promise, "
                  + "`\(item.test)` (mutant NN)")
            }
            for number in item.mutants {
              guard mutants.contains(number) else {
                problem(
                  item.line,
                  "`\(item.test)` cites mutant \(number), which \(chapter.mutantsPath) does not have; cite the number "
                    + "of a file there (`NN-name.mutant`)")
                continue
              }
              let rerun = "make mutants CHAPTER=\(chapter.number) MUTANTS=\(number)"
              guard let run = recorded?[number] else {
                problem(
                  item.line,
                  "`\(item.test)` cites mutant \(number), which has no recorded run in \(record); run `\(rerun)`")
                continue
              }
              guard !run.killers.contains(item.test) else { continue }
              let killers = run.killers.isEmpty ? "no test" : run.killers.map { "`\($0)`" }.joined(separator: ", ")
              problem(
                item.line,
                "`\(item.test)` is cited with mutant \(number), but the recorded run of \(run.name) in \(record) was "
                  + "failed by \(killers), not by it; cite a test that kills it, or run `\(rerun)` if the test changed")
            }
          }
        }
      }
    }
    return found
  }
}
