import Foundation

/// One exercise of a chapter, as listed in `Chapters/NN-name/exercises.json`.
struct Exercise: Decodable, Equatable {
  let number: Int
  let title: String
  /// The learner's files for this exercise, relative to `Sources/<Module>`, in the order to write
  /// them. Every other file of the module is given code.
  let files: [String]
  /// Earlier exercises whose code this one's tests run: until they pass, their failures can
  /// surface here.
  let needs: [Int]?

  /// The files as the grader names them: `A.swift`, or `A.swift, then B.swift`.
  var filesInWords: String { files.joined(separator: ", then ") }
}

/// What a chapter has besides its exercises, each optional.
struct Extras: Decodable, Equatable {
  /// A timed mock system-design interview (`make drill-N`): a Markdown file in the chapter folder
  /// with `## N. Title — M min` phases, a `## Rubric` table (area, points, full marks, shown by)
  /// and `## Red flags`; its reference design is `figures/reference-design.json` (`DrillCatalog`).
  var drill: String?
  /// SVG charts in the chapter's `figures/` folder, drawn by `make figures` (Support/Figures)
  /// from seeded simulations; `make test` checks the committed files are what the code draws.
  var figures: [String]?
  /// Whether the chapter's tests start the local practice server (Support/PracticeServer) and
  /// talk to it over real HTTP.
  var server: Bool?

  init(drill: String? = nil, figures: [String]? = nil, server: Bool? = nil) {
    self.drill = drill
    self.figures = figures
    self.server = server
  }
}

/// A chapter: its folder under `Chapters/`, its module and its exercises.
struct Chapter: Decodable {
  let chapter: Int
  let title: String
  let module: String
  let level: String
  /// The chapters whose modules this one builds on (the capstone composes the store, the
  /// network layer and the image cache). Their code, the learner's or the reference answer, is
  /// compiled with this chapter's.
  let composes: [Int]
  let extras: Extras
  let exercises: [Exercise]
  /// Set after decoding: `Chapters/NN-name`.
  var folder = ""

  enum CodingKeys: String, CodingKey {
    case chapter, title, module, level, composes, extras, exercises
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    chapter = try container.decode(Int.self, forKey: .chapter)
    title = try container.decode(String.self, forKey: .title)
    module = try container.decode(String.self, forKey: .module)
    level = try container.decode(String.self, forKey: .level)
    composes = try container.decodeIfPresent([Int].self, forKey: .composes) ?? []
    extras = try container.decodeIfPresent(Extras.self, forKey: .extras) ?? Extras()
    exercises = try container.decode([Exercise].self, forKey: .exercises)
  }

  var number: Int { chapter }
  var starterPath: String { "Sources/\(module)" }
  var answerPath: String { "answers/\(module)" }
  var testsPath: String { "Tests/\(module)Tests" }
  var exercisesPath: String { "\(folder)/exercises.json" }
  var hintsPath: String { "\(folder)/hints.md" }
  var interviewPath: String { "\(folder)/interview.md" }
  var mutantsPath: String { "\(folder)/mutants" }
  var variantsPath: String { "\(folder)/variants" }

  func exercise(_ number: Int) -> Exercise? {
    exercises.first { $0.number == number }
  }

  /// Throws the learner-facing error for an exercise number the chapter does not have.
  func requireExercise(_ number: Int) throws {
    guard exercise(number) == nil else { return }
    throw Failure("chapter \(self.number) has exercises 1 to \(exercises.count); there is no exercise \(number)")
  }
}

/// Joins a path relative to the workbook's root to the root.
func path(_ relative: String, in root: String) -> String {
  root == "." ? relative : "\(root)/\(relative)"
}

/// Every chapter of a workbook, read from `Chapters/*/exercises.json`.
struct Catalog {
  let chapters: [Chapter]

  /// Reads every chapter that has an `exercises.json`, in folder order. `root` is the workbook's
  /// root folder; commands run from it.
  static func load(root: String = ".") throws -> Catalog {
    let manager = FileManager.default
    let folders = (try? manager.contentsOfDirectory(atPath: path("Chapters", in: root))) ?? []
    var chapters: [Chapter] = []
    for folder in folders.sorted() {
      let file = "Chapters/\(folder)/exercises.json"
      guard let text = TextFile.read(path(file, in: root)) else {
        if manager.fileExists(atPath: path(file, in: root)) { throw Failure("\(file) cannot be read: it is not UTF-8 text") }
        continue
      }
      let data = Data(text.utf8)
      do {
        var chapter = try JSONDecoder().decode(Chapter.self, from: data)
        chapter.folder = "Chapters/\(folder)"
        chapters.append(chapter)
      } catch {
        throw Failure("\(file) is not valid: \(error)")
      }
    }
    if chapters.isEmpty { throw Failure("no chapters found: run this from the workbook's root") }
    return Catalog(chapters: chapters)
  }

  /// The chapter a command-line argument names.
  func chapter(_ argument: String?) throws -> Chapter {
    guard let argument, let number = Int(argument) else {
      throw Failure("which chapter? give its number, for example 1")
    }
    return try chapter(number)
  }

  func chapter(_ number: Int) throws -> Chapter {
    guard let chapter = chapters.first(where: { $0.number == number }) else {
      throw Failure("there is no chapter \(number) yet (see `make help`)")
    }
    return chapter
  }

  /// The chapters `chapter` composes, in order.
  func composed(by chapter: Chapter) -> [Chapter] {
    chapters.filter { chapter.composes.contains($0.number) }
  }
}
