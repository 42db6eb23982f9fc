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
struct Mutant {
  struct Replacement {
    let file: String
    let answer: String
    let mutant: String
  }

  let name: String
  /// The mutant's file, as error messages name it.
  let source: String
  let title: String
  let why: String
  let replacements: [Replacement]

  /// Reads the mutant file at `path`; its name is the file's, without `.mutant`.
  init(path: String) throws {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw Failure("cannot read \(path)")
    }
    try self.init(name: mutantName(path), text: text, path: path)
  }

  /// Parses a mutant's text; `path` names it in error messages.
  init(name: String, text: String, path: String) throws {
    self.name = name
    source = path
    var title = name
    var why = ""
    var file: String?
    var replacements: [Replacement] = []
    var answer: [String]?
    var mutant: [String]?
    for line in text.components(separatedBy: "\n") {
      if var lines = mutant {
        if line.hasPrefix(">>>>>>>") {
          guard let file, let original = answer else {
            throw Failure("\(path): a block before any `file:` line; say which file of the answer it changes")
          }
          guard !original.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) else {
            throw Failure("\(path): an empty `answer` block in \(file); copy the answer's lines the mistake replaces")
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
      throw Failure("\(path): an unfinished block (every `<<<<<<< answer` needs a `=======` and a `>>>>>>> mutant`)")
    }
    if replacements.isEmpty { throw Failure("\(path): no blocks (`<<<<<<< answer` … `=======` … `>>>>>>> mutant`)") }
    self.title = title
    self.why = why
    self.replacements = replacements
  }

  /// Writes the answer with this mistake into `folder`, a copy of the answer `answerPath` (which
  /// error messages name).
  func apply(to folder: String, answerPath: String) throws {
    for replacement in replacements {
      let path = "\(folder)/\(replacement.file)"
      guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
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
  let folder = path(chapter.mutantsPath, in: root)
  return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
    .filter { $0.hasSuffix(".mutant") }.sorted().map { "\(chapter.mutantsPath)/\($0)" }
}

/// The number a mutant's file name starts with: 40 for `…/40-lru-get-walks-the-list.mutant`.
func mutantNumber(_ file: String) -> Int? {
  Int((file.split(separator: "/").last ?? "").prefix { $0.isNumber })
}

/// Parses every mutant of `chapter` and applies it to a scratch copy of its answer, without
/// building: what is wrong with each one that does not apply (nothing when all do).
func mutantProblems(_ chapter: Chapter, root: String = ".") -> (count: Int, problems: [String]) {
  let manager = FileManager.default
  var problems: [String] = []
  let files = mutantFiles(chapter, root: root)
  for file in files {
    let scratch = NSTemporaryDirectory() + "workbook-mutant-\(UUID().uuidString)"
    defer { try? manager.removeItem(atPath: scratch) }
    do {
      let mutant = try Mutant(name: mutantName(file), text: String(contentsOfFile: path(file, in: root), encoding: .utf8), path: file)
      try manager.copyItem(atPath: path(chapter.answerPath, in: root), toPath: scratch)
      try mutant.apply(to: scratch, answerPath: chapter.answerPath)
    } catch {
      problems.append("\(error)")
    }
  }
  return (files.count, problems)
}

/// A mutant's name: its file name without `.mutant`.
func mutantName(_ mutantFile: String) -> String {
  URL(fileURLWithPath: mutantFile).deletingPathExtension().lastPathComponent
}
