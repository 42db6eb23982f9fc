/// `make hint-N`: the hint for the first exercise that does not pass yet.
struct HintCommand: Command {
  static let name = "hint"
  static let arguments = "N [--exercise E] [--reference 3,4]"
  static let summary = "the hint for the first unsolved exercise (or E), graded as `grade` would"

  let chapter: Int
  let focus: Int?
  let reference: Set<Int>

  init(_ arguments: [String]) throws {
    let parsed = try Arguments(
      arguments, options: ["--exercise": "an exercise number", "--reference": "chapter numbers, such as 3,4"],
      positionals: 1...1)
    chapter = try parsed.chapter()
    focus = try parsed.number("--exercise", "an exercise number")
    reference = try parsed.numberList("--reference")
  }

  /// Grades the learner's code of the chapter (with the reference answers `--reference` names for
  /// the chapters it composes, as `REFERENCE=` does for `make chapter-N`) to find the exercise
  /// to help with.
  func run() throws -> Bool {
    let chapter = try Catalog.load().chapter(self.chapter)
    if let focus { try chapter.requireExercise(focus) }
    var variant = Variant()
    variant.answers = reference.subtracting([chapter.number])
    guard let result = try Grader.grade([chapter], variant).first else { return true }
    if result.compiled { Summary.save(result, chapter) }
    guard result.compiled else {
      print("The hint comes once the chapter compiles; `make chapter-\(chapter.number)` shows the errors.")
      return true
    }
    if let focus, result.exercises.contains(where: { $0.number == focus && $0.solved }) {
      print("Exercise \(focus) already passes. Here is its hint anyway:\n")
      print(try Self.hint(for: focus, chapter))
      return true
    }
    let unsolved = result.exercises.filter { !$0.solved }
    guard let next = unsolved.first(where: { $0.number == focus }) ?? unsolved.first else {
      print("Every exercise of chapter \(chapter.number) passes: no hint needed.")
      return true
    }
    print(Style.bold("Hint for exercise \(next.number), \(next.title):") + "\n")
    print(try Self.hint(for: next.number, chapter))
    return true
  }

  /// The whole hint for exercise `number`: the body of its `## N. Title` section in `hints.md`.
  static func hint(for number: Int, _ chapter: Chapter, root: String = ".") throws -> String {
    let sections = try markdownSections(path(chapter.hintsPath, in: root))
    guard let section = sections.first(where: { Int($0.heading.prefix { $0.isNumber }) == number }) else {
      throw Failure("\(chapter.hintsPath) has no hint for exercise \(number)")
    }
    return section.body
  }
}
