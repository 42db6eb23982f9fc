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
  let title: String
  let why: String
  let replacements: [Replacement]

  init(path: String) throws {
    name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw Failure("cannot read \(path)")
    }
    var title = name
    var why = ""
    var file: String?
    var replacements: [Replacement] = []
    var answer: [String]?
    var mutant: [String]?
    for line in text.components(separatedBy: "\n") {
      if var lines = mutant {
        if line.hasPrefix(">>>>>>>") {
          guard let file, let original = answer else { throw Failure("\(path): a block before any `file:`") }
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
    if answer != nil || mutant != nil { throw Failure("\(path): an unfinished block") }
    if replacements.isEmpty { throw Failure("\(path): no blocks") }
    self.title = title
    self.why = why
    self.replacements = replacements
  }

  /// Writes the answer with this mistake into `folder`.
  func apply(to folder: String) throws {
    for replacement in replacements {
      let path = "\(folder)/\(replacement.file)"
      guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        throw Failure("mutant \(name): no file \(replacement.file)")
      }
      let count = text.components(separatedBy: replacement.answer).count - 1
      guard count == 1 else {
        throw Failure("mutant \(name): its `answer` block occurs \(count) times in \(replacement.file); it must occur once")
      }
      try text.replacingOccurrences(of: replacement.answer, with: replacement.mutant)
        .write(toFile: path, atomically: true, encoding: .utf8)
    }
  }
}

/// `make mutants`: each mutant must compile and fail at least one test.
enum MutantsCommand {
  /// Parses every mutant and applies it to a scratch copy of its answer, without building:
  /// a quick check that no mutant has gone stale after an edit of the answer.
  static func check(_ chapters: [Chapter]) throws -> Bool {
    let manager = FileManager.default
    var count = 0
    for chapter in chapters {
      let files = ((try? manager.contentsOfDirectory(atPath: chapter.mutantsPath)) ?? [])
        .filter { $0.hasSuffix(".mutant") }.sorted()
      for file in files {
        let scratch = NSTemporaryDirectory() + "workbook-mutant-\(UUID().uuidString)"
        defer { try? manager.removeItem(atPath: scratch) }
        try manager.copyItem(atPath: chapter.answerPath, toPath: scratch)
        try Mutant(path: "\(chapter.mutantsPath)/\(file)").apply(to: scratch)
        count += 1
      }
    }
    print("\(Style.green(Style.pass)) all \(count) mutants parse and apply to their answers")
    return true
  }

  static func run(_ chapters: [Chapter]) throws -> Bool {
    var survivors: [String] = []
    var total = 0
    let manager = FileManager.default
    for chapter in chapters {
      let files = ((try? manager.contentsOfDirectory(atPath: chapter.mutantsPath)) ?? [])
        .filter { $0.hasSuffix(".mutant") }.sorted()
      guard !files.isEmpty else { continue }
      print(Style.bold("Chapter \(chapter.number) — \(files.count) mutants of \(chapter.answerPath)"))
      let composed = Set([chapter.number] + Catalog.composed(by: chapter.number))
      for file in files {
        total += 1
        let mutant = try Mutant(path: "\(chapter.mutantsPath)/\(file)")
        let folder = ".mutant/\(chapter.module)"
        try? manager.removeItem(atPath: folder)
        try manager.createDirectory(atPath: ".mutant", withIntermediateDirectories: true)
        try manager.copyItem(atPath: chapter.answerPath, toPath: folder)
        try mutant.apply(to: folder)
        var variant = Variant(answers: Set(composed))
        variant.mutant = chapter.number
        let result = try Grader.grade([chapter], variant).first!
        let killers = result.exercises.flatMap(\.failures)
        let line = "\(mutant.name): \(mutant.title)"
        if !result.compiled {
          print("  " + Style.red("\(Style.fail) does not compile  ") + line)
          survivors.append("\(chapter.number)/\(mutant.name) (does not compile)")
        } else if let crash = result.crash, killers.isEmpty {
          print("  " + Style.green("\(Style.pass) killed (\(crash.prefix { $0 != ":" }))  ") + line)
        } else if let killer = killers.first {
          print("  " + Style.green("\(Style.pass) killed  ") + line + Style.dim("  by \(killer.suite.split(separator: ".").last ?? "").\(killer.name)"))
        } else {
          print("  " + Style.red("\(Style.fail) SURVIVED  ") + line)
          survivors.append("\(chapter.number)/\(mutant.name)")
        }
      }
      try? manager.removeItem(atPath: ".mutant/\(chapter.module)")
    }
    if survivors.isEmpty {
      print(Style.green("\nAll \(total) mutants killed."))
      return true
    }
    print(Style.red("\n\(survivors.count) of \(total) mutants not killed: ") + survivors.joined(separator: ", "))
    return false
  }
}
