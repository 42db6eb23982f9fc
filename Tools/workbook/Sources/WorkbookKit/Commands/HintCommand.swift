import Foundation

/// `make hint-N`: the hint for the first exercise that did not pass in the chapter's last grading,
/// one tier more each time it is asked (`HintLadder`): the grader itself never shows the last step.
///
/// It builds nothing: it reads the results `make chapter-N` saved (`Summary`), so it answers at
/// once and with the reference answers that grading used (`REFERENCE=`), whatever this command is
/// given. Building here would grade another configuration (the learner's own code of the chapters
/// the capstone composes, when the grading used their reference answers) and take as long as a
/// grading. With no grading yet, or none since `make reset-N`, it says to grade first.
struct HintCommand: Command {
  static let name = "hint"
  static let arguments = "N [--exercise E] [--reference 3,4]"
  static let summary = "the hint for the first exercise that failed in the last grading (or E); builds nothing"

  let chapter: Int
  let focus: Int?
  /// The `REFERENCE=` given now, only to say when it is not the one the last grading used.
  let reference: Set<Int>?

  init(_ arguments: [String]) throws {
    let parsed = try Arguments(
      arguments, options: ["--exercise": "an exercise number", "--reference": "chapter numbers, such as 3,4"],
      positionals: 1...1)
    chapter = try parsed.chapter()
    focus = try parsed.number("--exercise", "an exercise number")
    reference = parsed.options["--reference"] == nil ? nil : try parsed.numberList("--reference")
  }

  func run() throws -> Bool {
    let chapter = try Catalog.load().chapter(self.chapter)
    if let focus { try chapter.requireExercise(focus) }
    Self.show(chapter, focus: focus, reference: reference, say: { print($0) })
    return true
  }

  /// Prints the hint the last grading of `chapter` calls for to `say`: the next tier of its first
  /// failure's hint (`HintLadder`) than the learner has seen, under `make chapter-N` or here.
  static func show(_ chapter: Chapter, focus: Int?, reference: Set<Int>?, root: String = ".", say: (String) -> Void) {
    let grade = "make chapter-\(chapter.number)"
    guard let result = Summary.load(chapter, root: root) else {
      let why =
        Summary.wasReset(chapter, root: root)
        ? "Chapter \(chapter.number) was reset to its starter since its last grading"
        : "Chapter \(chapter.number) has not been graded yet"
      say("\(why), and the hint comes from the grading's results: grade first: `\(grade)`, then `make hint-\(chapter.number)`.")
      return
    }
    let used = result.variant?.answers.subtracting([chapter.number]) ?? []
    let usedWords = used.isEmpty ? "your own code" : "REFERENCE=\(used.sorted().map(String.init).joined(separator: ","))"
    say(Style.dim("From your last `\(grade)` (\(usedWords)); hints build nothing: grade again to bring them up to date."))
    if let reference, reference.subtracting([chapter.number]) != used {
      let asked = reference.isEmpty ? "no REFERENCE=" : "REFERENCE=\(reference.sorted().map(String.init).joined(separator: ","))"
      say(
        Style.yellow(
          "That grading used \(usedWords), not \(asked): for a hint from \(asked), run `\(grade)` with it first."))
    }
    if latestModification(path(chapter.starterPath, in: root)) > result.date {
      say(Style.dim("You have edited \(chapter.starterPath) since: `\(grade)` grades it again."))
    }
    say("")
    if let focus, result.exercises.contains(where: { $0.number == focus && $0.solved }) {
      say("Exercise \(focus) passed. Here is its hint anyway:\n")
      say((try? hint(for: focus, chapter, root: root)) ?? "\(chapter.hintsPath) has no hint for exercise \(focus)")
      return
    }
    let unsolved = result.exercises.filter { !$0.solved }
    guard let next = unsolved.first(where: { $0.number == focus }) ?? unsolved.first else {
      say("Every exercise of chapter \(chapter.number) passed: no hint needed.")
      return
    }
    let order = declarationOrder(chapter, root: root)
    let failures = GradeCommand.orderedFailures(next, order: order)
    guard let ladder = GradeCommand.hintLadder(next, chapter, failures: failures, order: order, root: root) else {
      say("\(chapter.hintsPath) has no hint for exercise \(next.number)")
      return
    }
    // Each ask shows the next tier of this failure's hint, and after the last the whole section.
    var seen = HintTiersSeen.load(chapter, root: root)
    let shown = seen.tiers(of: ladder.key)
    let about = next.notStarted ? "getting started" : failures.first.map { "`\(testName($0.name))`" } ?? "this exercise"
    guard shown < ladder.tiers.count else {
      say(Style.bold("Hint for exercise \(next.number), \(next.title)") + Style.dim(" (all of it: you have seen every tier for \(about))") + ":\n")
      say((try? hint(for: next.number, chapter, root: root)) ?? ladder.tiers.joined(separator: "\n\n"))
      return
    }
    let tier = shown + 1
    seen.saw(tier, of: ladder.key)
    seen.save(chapter, root: root)
    let last = tier == ladder.tiers.count && ladder.endsWithLastStep ? ", the last step" : ""
    say(Style.bold("Hint for exercise \(next.number), \(next.title)") + Style.dim(" (\(tier) of \(ladder.tiers.count)\(last), for \(about))") + ":\n")
    say(ladder.tiers[tier - 1])
    let again = "`make hint-\(chapter.number)\(focus.map { " EXERCISE=\($0)" } ?? "")`"
    say(
      Style.dim(
        tier < ladder.tiers.count
          ? "\nStill stuck? \(again) again shows the next tier."
          : "\nThat was the last tier; \(again) again shows the whole hint of exercise \(next.number)."))
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
