import Foundation

/// `make variants`, the dual of `make mutants`: each variant, a different correct solution, must
/// pass every test of its chapter, the same number of tests as the answer itself.
struct VariantsCommand: Command {
  static let name = "variants"
  static let arguments = "[N…] [--only M,…] [--check]"
  static let summary = "every variant of the answers passes every test (--check: only parse and apply them)"

  let chapters: [Int]
  let checkOnly: Bool
  /// Variant numbers (the `NN` of `NN-name.variant`) to run instead of all. Empty: all of them.
  let only: Set<Int>

  init(_ arguments: [String]) throws {
    let parsed = try Arguments(
      arguments, flags: ["--check"], options: ["--only": "variant numbers, such as 40,41"], positionals: 0...Int.max)
    chapters = try parsed.chapters()
    checkOnly = parsed.has("--check")
    only = try parsed.numberList("--only", of: "variant numbers")
  }

  func run() throws -> Bool {
    let catalog = try Catalog.load()
    let wanted = chapters.isEmpty ? catalog.chapters : try chapters.map { try catalog.chapter($0) }
    return checkOnly ? Self.check(wanted) : try Self.run(wanted, only: only)
  }

  /// Parses every variant and applies it to a scratch copy of its answer, without building.
  static func check(_ chapters: [Chapter]) -> Bool {
    reportPatchesApply(chapters, noun: "variants") { variantFileProblems($0) }
  }

  /// Writes `answer` (with `edit` applied, if any) to `.mutant/<Module>` and grades it with the
  /// chapters it composes built from their answers, as `make mutants` grades a mutant.
  static func grade(_ chapter: Chapter, applying edit: Mutant?) throws -> ChapterResult {
    let manager = FileManager.default
    let folder = ".mutant/\(chapter.module)"
    try? manager.removeItem(atPath: folder)
    try manager.createDirectory(atPath: ".mutant", withIntermediateDirectories: true)
    try manager.copyItem(atPath: chapter.answerPath, toPath: folder)
    try edit?.apply(to: folder, answerPath: chapter.answerPath)
    var variant = Variant(answers: Set([chapter.number] + chapter.composes))
    variant.mutant = chapter.number
    guard let result = try Grader.grade([chapter], variant).first else { throw Failure("chapter \(chapter.number) was not graded") }
    return result
  }

  static func run(_ chapters: [Chapter], only: Set<Int> = []) throws -> Bool {
    var failed: [String] = []
    var total = 0
    var seconds: [Double] = []
    for chapter in chapters {
      let files = variantFiles(chapter).filter { only.isEmpty || only.contains(mutantNumber($0) ?? 0) }
      guard !files.isEmpty else { continue }
      defer { try? FileManager.default.removeItem(atPath: ".mutant/\(chapter.module)") }
      // Parse them all first: a variant that does not apply fails at once, before any build.
      let variants = try files.map { try Mutant(path: $0, kind: .variant) }
      print(Style.bold("Chapter \(chapter.number) — \(counted(files.count, "variant")) of \(chapter.answerPath)"))
      // The answer itself, built the same way: how many tests each exercise runs.
      var start = Date()
      let baseline = try grade(chapter, applying: nil)
      let baselineProblems = VariantVerdict.problems(baseline)
      guard baselineProblems.isEmpty else {
        print("  " + Style.red("\(Style.fail) the answer itself does not pass, so no variant can be judged:"))
        for problem in baselineProblems { print(indent(problem, "    ")) }
        failed += variants.map { "\(chapter.number)/\($0.name) (the answer fails)" }
        total += variants.count
        continue
      }
      let counts = VariantVerdict.testCounts(baseline)
      let tests = counts.values.reduce(0, +)
      print(Style.dim("  the answer: \(tests) tests pass (\(elapsed(since: start)))"))
      for variant in variants {
        total += 1
        start = Date()
        let result = try grade(chapter, applying: variant)
        let time = Date().timeIntervalSince(start)
        seconds.append(time)
        let problems = VariantVerdict.problems(result, expected: counts)
        let line = "\(variant.name): \(variant.title)" + Style.dim("  (\(String(format: "%.0f", time)) s)")
        if problems.isEmpty {
          print("  " + Style.green("\(Style.pass) passes  ") + line)
          continue
        }
        print("  " + Style.red("\(Style.fail) FAILS  ") + line)
        for problem in problems.prefix(8) { print(indent(problem, "    ")) }
        if problems.count > 8 { print("    … and \(problems.count - 8) more") }
        print(
          Style.yellow(
            "    Either a test over-specifies (it asks for more than the chapter's text does: loosen it), or "
              + "the variant is wrong (it is not a correct solution: fix it or remove it)."))
        failed.append("\(chapter.number)/\(variant.name)")
      }
    }
    if total == 0 {
      if !only.isEmpty {
        let numbers = only.sorted().map(String.init).joined(separator: ",")
        print(Style.red("\(Style.fail) no variant numbered \(numbers) in the chapters asked for (see Chapters/*/variants)"))
        return false
      }
      print(Style.dim("No variants in the chapters asked for (Chapters/*/variants/*.variant)."))
      return true
    }
    if !seconds.isEmpty {
      let sum = seconds.reduce(0, +)
      print(Style.dim("\n\(counted(seconds.count, "variant")) graded in \(Int(sum.rounded())) s, \(Int((sum / Double(seconds.count)).rounded())) s each."))
    }
    if failed.isEmpty {
      print(Style.green(total == 1 ? "The variant passes every test." : "All \(total) variants pass every test."))
      return true
    }
    print(Style.red("\(failed.count) of \(counted(total, "variant")) \(failed.count == 1 ? "fails" : "fail"): ") + failed.joined(separator: ", "))
    return false
  }

  /// "1 variant", "2 variants".
  private static func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  private static func elapsed(since start: Date) -> String {
    "\(Int(Date().timeIntervalSince(start).rounded())) s"
  }
}
