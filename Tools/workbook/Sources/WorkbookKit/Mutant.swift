import Foundation

/// A classic mistake, written as a change to a reference answer.
///
/// A mutant file in `Chapters/NN-name/mutants/` reads:
///
///     title: update reads, suspends, then writes
///     why: two callers read the same old value across the suspension; one increment is lost
///     file: DataStore+Update.swift
///     <<<<<<< answer
///     (lines of the answer, exactly)
///     =======
///     (what the mistake puts in their place)
///     >>>>>>> mutant
///
/// `file:` may appear again before further blocks. Every `answer` block must occur exactly once
/// in its file, so a mutant cannot silently stop applying when the answer changes.
///
/// A variant (`Chapters/NN-name/variants/NN-name.variant`, `make variants`) is read by the same
/// parser: a different correct solution instead of a mistake, its blocks closed with
/// `>>>>>>> variant`. Each kind must close its blocks with its own word.
struct Mutant {
  /// What a file of this format holds: a mistake a test must catch, or a correct solution every
  /// test must pass.
  enum Kind: String {
    case mutant
    case variant

    /// The line that closes a block.
    var closing: String { ">>>>>>> \(rawValue)" }
  }

  struct Replacement {
    let file: String
    let answer: String
    let mutant: String
  }

  let kind: Kind
  let name: String
  /// The mutant's file, as error messages name it.
  let source: String
  /// The `title:` line, or the name when there is none.
  let title: String
  /// The `title:` line as written: empty when there is none.
  let statedTitle: String
  let why: String
  let replacements: [Replacement]

  /// Reads the mutant (or variant) file at `path`; its name is the file's, without its extension.
  init(path: String, kind: Kind = .mutant) throws {
    guard let text = TextFile.read(path) else {
      throw Failure("cannot read \(path)")
    }
    try self.init(name: mutantName(path), text: text, path: path, kind: kind)
  }

  /// Parses a mutant's (or a variant's) text; `path` names it in error messages.
  init(name: String, text: String, path: String, kind: Kind = .mutant) throws {
    self.kind = kind
    self.name = name
    source = path
    var title = ""
    var why = ""
    var file: String?
    var replacements: [Replacement] = []
    var answer: [String]?
    var mutant: [String]?
    for line in text.components(separatedBy: "\n") {
      if var lines = mutant {
        if line.hasPrefix(">>>>>>>") {
          let word = line.dropFirst(7).trimmingCharacters(in: .whitespaces)
          guard word == kind.rawValue else {
            let said = word.isEmpty ? "a bare `>>>>>>>`" : "`>>>>>>> \(word)`"
            throw Failure("\(path): a block closed with \(said); a \(kind.rawValue)'s blocks end with `\(kind.closing)`")
          }
          guard let file, let original = answer else {
            throw Failure("\(path): a block before any `file:` line; say which file of the answer it changes")
          }
          guard !original.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw Failure("\(path): an empty `answer` block in \(file); copy the answer's lines the block replaces")
          }
          replacements.append(
            Replacement(file: file, answer: original.joined(separator: "\n"), mutant: lines.joined(separator: "\n")))
          mutant = nil
          answer = nil
          continue
        }
        lines.append(line)
        mutant = lines
      } else if var lines = answer {
        if line.hasPrefix("=======") {
          mutant = []
          continue
        }
        lines.append(line)
        answer = lines
      } else if line.hasPrefix("<<<<<<<") {
        answer = []
      } else if line.hasPrefix("title:") {
        title = line.dropFirst(6).trimmingCharacters(in: .whitespaces)
      } else if line.hasPrefix("why:") {
        why = line.dropFirst(4).trimmingCharacters(in: .whitespaces)
      } else if line.hasPrefix("file:") {
        file = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
        answer = nil
      }
    }
    if answer != nil || mutant != nil {
      throw Failure("\(path): an unfinished block (every `<<<<<<< answer` needs a `=======` and a `\(kind.closing)`)")
    }
    if replacements.isEmpty { throw Failure("\(path): no blocks (`<<<<<<< answer` … `=======` … `\(kind.closing)`)") }
    self.statedTitle = title
    self.title = title.isEmpty ? name : title
    self.why = why
    self.replacements = replacements
  }

  /// Writes the answer with this mistake into `folder`, a copy of the answer `answerPath` (which
  /// error messages name).
  func apply(to folder: String, answerPath: String) throws {
    for replacement in replacements {
      let path = "\(folder)/\(replacement.file)"
      guard let text = TextFile.read(path) else {
        throw Failure("\(source): `file: \(replacement.file)` is not a file of \(answerPath); name one that is")
      }
      let count = text.components(separatedBy: replacement.answer).count - 1
      guard count == 1 else {
        let fix =
          count == 0
          ? "the answer has changed: copy the lines as they are now in \(answerPath)/\(replacement.file)"
          : "add lines around it until it is unique"
        throw Failure(
          "\(source): its `answer` block occurs \(count) times in \(answerPath)/\(replacement.file), not once; \(fix)")
      }
      try text.replacingOccurrences(of: replacement.answer, with: replacement.mutant)
        .write(toFile: path, atomically: true, encoding: .utf8)
    }
  }
}

/// The mutants of a chapter: `Chapters/NN-name/mutants/*.mutant`, in name order.
func mutantFiles(_ chapter: Chapter, root: String = ".") -> [String] {
  answerEditFiles(in: chapter.mutantsPath, kind: .mutant, root: root)
}

/// The files of `kind` in `folder` (relative to `root`), in name order, as paths from the root.
func answerEditFiles(in folder: String, kind: Mutant.Kind, root: String = ".") -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: path(folder, in: root))) ?? [])
    .filter { $0.hasSuffix(".\(kind.rawValue)") }.sorted().map { "\(folder)/\($0)" }
}

/// The number a mutant's file name starts with: 40 for `…/40-lru-get-walks-the-list.mutant`.
func mutantNumber(_ file: String) -> Int? {
  Int((file.split(separator: "/").last ?? "").prefix { $0.isNumber })
}

/// Parses every mutant of `chapter` and applies it to a scratch copy of its answer, without
/// building: what is wrong with each one that does not apply (nothing when all do).
func mutantProblems(_ chapter: Chapter, root: String = ".") -> (count: Int, problems: [String]) {
  let files = mutantFiles(chapter, root: root)
  return (files.count, files.compactMap { answerEditProblem($0, kind: .mutant, chapter, root: root) })
}

/// Parses one mutant or variant file of `chapter` and applies it to a scratch copy of the answer,
/// without building: what is wrong with it, or nil when it applies.
func answerEditProblem(_ file: String, kind: Mutant.Kind, _ chapter: Chapter, root: String = ".") -> String? {
  let manager = FileManager.default
  let scratch = NSTemporaryDirectory() + "workbook-\(kind.rawValue)-\(UUID().uuidString)"
  defer { try? manager.removeItem(atPath: scratch) }
  do {
    let text = try TextFile.contents(path(file, in: root), shown: file)
    let edit = try Mutant(name: mutantName(file), text: text, path: file, kind: kind)
    try manager.copyItem(atPath: path(chapter.answerPath, in: root), toPath: scratch)
    try edit.apply(to: scratch, answerPath: chapter.answerPath)
    return nil
  } catch {
    return "\(error)"
  }
}

/// A mutant's (or a variant's) name: its file name without `.mutant` (or `.variant`).
func mutantName(_ mutantFile: String) -> String {
  URL(fileURLWithPath: mutantFile).deletingPathExtension().lastPathComponent
}

/// `make mutants --check` and `make variants --check`: every patch file of the chapters parses and
/// applies to its answer (`problems` finds them per chapter), said in one line or one per problem.
func reportPatchesApply(
  _ chapters: [Chapter], noun: String, problems: (Chapter) -> (count: Int, problems: [String])
) -> Bool {
  var count = 0
  var found: [String] = []
  for chapter in chapters {
    let checked = problems(chapter)
    count += checked.count
    found += checked.problems
  }
  guard found.isEmpty else {
    for problem in found { print("\(Style.red(Style.fail)) \(problem)") }
    return false
  }
  print("\(Style.green(Style.pass)) all \(count) \(noun) parse and apply to their answers")
  return true
}
