import Foundation

/// The rules `workbook check` holds the workbook to, one per kind of mistake. Each problem says
/// which rule it breaks, where, and what to fix.
enum Rule: String, CaseIterable, Sendable {
  /// `exercises.json` is complete: exercises numbered 1, 2, 3… with a title and files; `needs`
  /// and `composes` name exercises and chapters that exist.
  case catalog
  /// `Package.swift`'s chapter list agrees with the chapters' `exercises.json`.
  case package
  /// Every exercise has a suite `ExerciseN_…` in a file of the same name, titled as the exercise;
  /// no suite or test file is named for an exercise that does not exist, or with a mistyped prefix.
  case suites
  /// Every exercise has a hint headed `## N. Title`, and every hint belongs to an exercise.
  case hints
  /// Every exercise's files exist in `Sources/` and `answers/`, and the starter's header comment
  /// names the exercise; both folders hold the same files.
  case files
  /// Every given file (code the learner does not write) is identical in `Sources/` and `answers/`
  /// and opens with its label, `// Given: …`.
  case given
  /// Every mutant parses and applies to its answer.
  case mutants
  /// Every chapter has at least five variants (different correct solutions), each with a title
  /// and a why, that parse and apply to its answer.
  case variants
  /// Every text file of a chapter ends its lines with LF, not CRLF or CR (`lineEndingProblems`).
  case lineEndings = "line-endings"
  /// Every interview question has a model answer, follow-ups and red flags; the model answer ends
  /// with its `Checked by:` or `Not built here:` line (`InterviewRule.swift`, `Citations.swift`).
  case interview
  /// The chapter's extras (drill, figures, server) are as `exercises.json` says; every drill, the
  /// chapters' and those of `Drills/`, has its phases, rubric, `shown by` cells and reference
  /// design (`DrillRule.swift`).
  case extras
  /// Every place the learner writes code carries a `// TODO:` line above the `NotImplemented` it
  /// throws or the placeholder it returns; given blocks are labelled `// Given — …`; the answers
  /// and given files carry no marker.
  case editSites = "edit-sites"
  /// `starter.fingerprints` matches the starter's exercise files, so the grader reads an
  /// untouched exercise as not started (`make fingerprints` writes it again).
  case fingerprints
  /// Backticked names of a chapter's code in its texts resolve in the answers (`NamesRule.swift`).
  case names
  /// Every `make bench` row the texts cite is a row the benchmarks print (`BenchRowRule.swift`).
  case benchRows = "bench-rows"
  /// Backticked platform APIs in the texts that the grading toolchain has compile as written
  /// (`PlatformNamesRule.swift`).
  case platformNames = "platform-names"
  /// A chapter's `promises.md` covers every documented public declaration of its starters, and
  /// each promise cites tests that kill the mutants cited with them (`PromisesRule.swift`).
  case promises
}

/// One broken rule: where, what is wrong, and what to do about it.
struct Problem: Equatable, CustomStringConvertible {
  let rule: Rule
  let message: String

  var description: String { "[\(rule.rawValue)] \(message)" }
}

/// Checks a workbook's own rules: the counterpart of `rustlings dev check`, run by `make test`.
struct Checker {
  /// The workbook's root folder.
  let root: String
  /// The rules to check: all of them, unless a test leaves some out.
  var rules: Set<Rule> = Set(Rule.allCases)
  /// Where the rules that read declarations get them: SwiftPM's symbol graphs of the package at
  /// `root`, unless a test gives others.
  var graphs: SymbolGraphs? = nil

  /// Every problem found, chapter by chapter; empty when every rule holds.
  func problems() -> [Problem] {
    let catalog: Catalog
    do {
      catalog = try Catalog.load(root: root)
    } catch {
      return [Problem(rule: .catalog, message: "\(error)")]
    }
    var found: [Problem] = []
    let graphs = graphs ?? .compiled(root: root)
    if !rules.isDisjoint(with: [.names, .promises, .platformNames]) { graphs.prepare() }
    if rules.contains(.package) { found += packageProblems(catalog) }
    for chapter in catalog.chapters {
      found += problems(of: chapter, in: catalog)
      if rules.contains(.promises) { found += promiseProblems(chapter, graphs: graphs) }
      if rules.contains(.names) { found += nameProblems(chapter, in: catalog, graphs: graphs) }
    }
    if rules.contains(.extras) { found += drillsFolderProblems(catalog) }
    if rules.contains(.benchRows) { found += benchRowProblems(catalog) }
    if rules.contains(.platformNames) { found += platformNameProblems(catalog, graphs: graphs) }
    return found
  }

  func problems(of chapter: Chapter, in catalog: Catalog) -> [Problem] {
    var found: [Problem] = []
    if rules.contains(.catalog) { found += catalogProblems(chapter, catalog) }
    if rules.contains(.suites) { found += suiteProblems(chapter) }
    if rules.contains(.hints) { found += hintProblems(chapter) }
    if rules.contains(.files) { found += fileProblems(chapter) }
    if rules.contains(.given) { found += givenFileProblems(chapter) }
    if rules.contains(.editSites) { found += editSiteProblems(chapter) }
    if rules.contains(.mutants) {
      found += mutantProblems(chapter, root: root).problems.map { Problem(rule: .mutants, message: $0) }
    }
    if rules.contains(.variants) { found += variantProblems(chapter) }
    if rules.contains(.interview) { found += interviewProblems(chapter) }
    if rules.contains(.extras) { found += extrasProblems(chapter) }
    if rules.contains(.lineEndings) { found += lineEndingProblems(chapter) }
    if rules.contains(.fingerprints) {
      found += StarterFingerprints.problems(chapter, root: root).map { Problem(rule: .fingerprints, message: $0) }
    }
    return found
  }

  // MARK: - Reading the tree

  func read(_ relative: String) -> String? {
    TextFile.read(path(relative, in: root))
  }

  func exists(_ relative: String) -> Bool {
    FileManager.default.fileExists(atPath: path(relative, in: root))
  }

  /// The files of a folder, relative to it, sorted, without clutter (`.DS_Store`, `xcuserdata`;
  /// see `Clutter`); empty when the folder is missing.
  func files(in relative: String) -> [String] {
    let folder = path(relative, in: root)
    let all = (try? FileManager.default.subpathsOfDirectory(atPath: folder)) ?? []
    return all.filter { file in
      if Clutter.contains(file) { return false }
      var isFolder: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: "\(folder)/\(file)", isDirectory: &isFolder)
      return !isFolder.boolValue
    }.sorted()
  }

  // MARK: - exercises.json

  func catalogProblems(_ chapter: Chapter, _ catalog: Catalog) -> [Problem] {
    var found: [Problem] = []
    func problem(_ message: String) { found.append(Problem(rule: .catalog, message: "\(chapter.exercisesPath): \(message)")) }
    let prefix = String(format: "%02d-", chapter.number)
    if !chapter.folder.hasPrefix("Chapters/\(prefix)") {
      problem("chapter \(chapter.number) lives in \(chapter.folder); name its folder Chapters/\(prefix)<name>")
    }
    if catalog.chapters.filter({ $0.number == chapter.number }).count > 1 {
      problem("another chapter also has number \(chapter.number); give each chapter its own number")
    }
    if chapter.exercises.isEmpty { problem("the chapter lists no exercises") }
    for (index, exercise) in chapter.exercises.enumerated() {
      if exercise.number != index + 1 {
        problem("exercise \(exercise.number) is number \(index + 1) in the list; number the exercises 1, 2, 3… in order")
      }
      if exercise.title.trimmingCharacters(in: .whitespaces).isEmpty {
        problem("exercise \(exercise.number) has no title")
      }
      if exercise.files.isEmpty {
        problem("exercise \(exercise.number) has no files; list the files the learner writes, such as \"files\": [\"Store.swift\"]")
      }
      for need in exercise.needs ?? [] where !(1..<exercise.number).contains(need) {
        problem("exercise \(exercise.number) needs exercise \(need), which is not an earlier exercise of this chapter")
      }
    }
    var owners: [String: Int] = [:]
    for exercise in chapter.exercises {
      for file in exercise.files {
        if let owner = owners[file], owner != exercise.number {
          problem("\(file) belongs to exercises \(owner) and \(exercise.number); give each file to one exercise")
        }
        owners[file] = exercise.number
      }
    }
    for number in chapter.composes {
      if number == chapter.number {
        problem("the chapter composes itself; `composes` lists other chapters")
      } else if !catalog.chapters.contains(where: { $0.number == number }) {
        problem("`composes` names chapter \(number), which does not exist")
      } else if number > chapter.number {
        problem("`composes` names chapter \(number), a later chapter; a chapter builds only on earlier ones")
      }
    }
    return found
  }
}

/// The captures of every match of `pattern` in `text` (capture 0 is the whole match).
func matches(_ pattern: String, in text: String) -> [[String]] {
  guard let regex = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines]) else { return [] }
  let range = NSRange(text.startIndex..., in: text)
  return regex.matches(in: text, range: range).map { match in
    (0..<match.numberOfRanges).map { index in
      Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
    }
  }
}
