import Foundation

/// The workbook's command line. `make` is the front door; see `make help`.
let usage = """
  usage: workbook <command> [chapter] [options]

    grade N [--answers] [--reference 3,4] [--exercise E]
                                            build and grade chapter N (E: whose failure to show)
    check-starter [N…]                      every exercise fails on the untouched starter
    hint N [--exercise E]                   the hint for the first unsolved exercise (or E)
    progress                                every chapter's progress
    walkthrough N                           interview practice for chapter N
    mutants [N] [--check]                   every mutant of the answers is killed
                                            (--check: only parse and apply them)
    watch N                                 re-grade chapter N whenever a file changes
    drill [path]                            the timed system-design drill
    chapters                                list the chapters (number, folder, module)
  """

func numberList(_ text: String) -> Set<Int> {
  Set(text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) })
}

func main() throws -> Bool {
  var arguments = Array(CommandLine.arguments.dropFirst())
  guard !arguments.isEmpty else {
    print(usage)
    return false
  }
  let command = arguments.removeFirst()
  var answers = false
  var checkOnly = false
  var focus: Int?
  var reference: Set<Int> = []
  var sanitize = false
  var positional: [String] = []
  while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--answers": answers = true
    case "--check": checkOnly = true
    case "--sanitize": sanitize = true
    case "--exercise":
      guard !arguments.isEmpty, let number = Int(arguments.removeFirst()) else {
        throw Failure("--exercise needs an exercise number")
      }
      focus = number
    case "--reference":
      guard !arguments.isEmpty else { throw Failure("--reference needs chapter numbers, such as 3,4") }
      reference = numberList(arguments.removeFirst())
    default:
      if argument.hasPrefix("-") { throw Failure("unknown option \(argument)\n\(usage)") }
      positional.append(argument)
    }
  }

  switch command {
  case "grade":
    let chapter = try Catalog.chapter(positional.first)
    if let focus, !chapter.exercises.contains(where: { $0.number == focus }) {
      throw Failure("chapter \(chapter.number) has exercises 1 to \(chapter.exercises.count); there is no exercise \(focus)")
    }
    let all = try Catalog.load()
    let composedNumbers = Catalog.composed(by: chapter.number)
    let composed = all.filter { composedNumbers.contains($0.number) }
    var variant = Variant()
    variant.answers = answers ? Set([chapter.number] + composedNumbers) : reference
    variant.sanitize = sanitize
    return try GradeCommand.run(chapter, variant, composed: composed, focus: focus)
  case "check-starter":
    let all = try Catalog.load()
    let wanted = positional.isEmpty ? all : try positional.map { try Catalog.chapter($0) }
    return try StarterCheck.run(wanted)
  case "hint":
    let chapter = try Catalog.chapter(positional.first)
    if let focus, !chapter.exercises.contains(where: { $0.number == focus }) {
      throw Failure("chapter \(chapter.number) has exercises 1 to \(chapter.exercises.count); there is no exercise \(focus)")
    }
    var variant = Variant()
    variant.answers = reference.subtracting([chapter.number])
    try HintCommand.run(chapter, variant, focus: focus)
  case "progress":
    ProgressCommand.run(try Catalog.load())
  case "walkthrough":
    let chapter = try Catalog.chapter(positional.first)
    try Walkthrough.run(chapter.interviewPath, title: "Chapter \(chapter.number) — \(chapter.title): interview walkthrough")
  case "mutants":
    let all = try Catalog.load()
    let wanted = positional.isEmpty ? all : try positional.map { try Catalog.chapter($0) }
    return try checkOnly ? MutantsCommand.check(wanted) : MutantsCommand.run(wanted)
  case "watch":
    try WatchCommand.run(try Catalog.chapter(positional.first))
  case "drill":
    try Drill.run(positional.first ?? "Chapters/06-feed/drill.md")
  case "chapters":
    for chapter in try Catalog.load() {
      print("\(chapter.number) \(chapter.folder) \(chapter.module) \(chapter.title)")
    }
  case "help", "-h", "--help":
    print(usage)
  default:
    throw Failure("unknown command \(command)\n\(usage)")
  }
  return true
}

do {
  exit(try main() ? 0 : 1)
} catch {
  warn("workbook: \(error)")
  exit(2)
}
