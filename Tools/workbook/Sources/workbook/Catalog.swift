import Foundation

/// One exercise of a chapter, as listed in `Chapters/NN-name/exercises.json`.
struct Exercise: Decodable {
  let number: Int
  let title: String
  /// The learner's file for this exercise, relative to `Sources/<Module>`.
  let file: String
  /// Earlier exercises whose code this one's tests run: until they pass, their failures can
  /// surface here.
  let needs: [Int]?
}

/// A chapter: its folder under `Chapters/`, its module and its exercises.
struct Chapter: Decodable {
  let chapter: Int
  let title: String
  let module: String
  let level: String
  let exercises: [Exercise]
  /// Set after decoding: `Chapters/NN-name`.
  var folder = ""

  enum CodingKeys: String, CodingKey {
    case chapter, title, module, level, exercises
  }

  var number: Int { chapter }
  var starterPath: String { "Sources/\(module)" }
  var answerPath: String { "answers/\(module)" }
  var hintsPath: String { "\(folder)/hints.md" }
  var interviewPath: String { "\(folder)/interview.md" }
  var mutantsPath: String { "\(folder)/mutants" }
}

enum Catalog {
  /// The chapters the capstone composes (as `Package.swift` declares them): the store, the
  /// network layer and the image cache.
  static let composedByCapstone = [1, 3, 4]

  /// The chapters `chapter` builds on: the capstone's four, none for the others.
  static func composed(by chapter: Int) -> [Int] {
    chapter == 6 ? composedByCapstone : []
  }

  /// Every chapter that has an `exercises.json`, in order.
  static func load() throws -> [Chapter] {
    let manager = FileManager.default
    let folders = (try? manager.contentsOfDirectory(atPath: "Chapters")) ?? []
    var chapters: [Chapter] = []
    for folder in folders.sorted() {
      let path = "Chapters/\(folder)/exercises.json"
      guard let data = manager.contents(atPath: path) else { continue }
      do {
        var chapter = try JSONDecoder().decode(Chapter.self, from: data)
        chapter.folder = "Chapters/\(folder)"
        chapters.append(chapter)
      } catch {
        throw Failure("\(path) is not valid: \(error)")
      }
    }
    if chapters.isEmpty { throw Failure("no chapters found: run this from the workbook's root") }
    return chapters
  }

  static func chapter(_ argument: String?) throws -> Chapter {
    guard let argument, let number = Int(argument) else {
      throw Failure("which chapter? give its number, for example 1")
    }
    guard let chapter = try load().first(where: { $0.number == number }) else {
      throw Failure("there is no chapter \(number) yet (see `make help`)")
    }
    return chapter
  }
}

/// Reads `## ` sections of a Markdown file: heading and body.
func markdownSections(_ path: String) throws -> [(heading: String, body: String)] {
  guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
    throw Failure("\(path) is missing")
  }
  var sections: [(heading: String, body: String)] = []
  var inFence = false
  for line in text.components(separatedBy: "\n") {
    if line.hasPrefix("```") { inFence.toggle() }
    if !inFence, line.hasPrefix("## ") {
      sections.append((String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), ""))
    } else if !sections.isEmpty {
      sections[sections.count - 1].body += line + "\n"
    }
  }
  return sections.map { ($0.heading, $0.body.trimmingCharacters(in: .whitespacesAndNewlines)) }
}
