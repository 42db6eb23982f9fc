import Foundation

/// `make bench-N`: the learner's chapter N measured next to the reference answer and the platform.
///
/// The learner's module and the answer's have the same name, so one program cannot link both.
/// `make bench-N` builds this program twice, once from `Sources/` (yours) and once from
/// `answers/`, and the answer's copy drives: it runs each copy with `--emit N`, which measures one
/// round and prints one line per measurement, alternating the two copies round after round, so a
/// slow moment of the machine hits both. Every figure is the fastest of its rounds, and every
/// ratio compares figures from the same rounds.
///
/// A measurement a copy could not make is a line too: the code is not implemented yet (the
/// starter), gave wrong results, or was stopped because it was far too slow. A copy that
/// crashes loses the rows it had not printed yet, and the table says so.
enum YourCode {
  /// One line of `--emit` output: `row <TAB> id <TAB> outcome`.
  enum Outcome: Equatable {
    case nanoseconds(Double)
    case notImplemented
    case wrong(String)
    /// Stopped after its time budget: at least this many nanoseconds per operation.
    case tooSlow(Double)

    var line: String {
      switch self {
      case .nanoseconds(let value): String(format: "%.3f", value)
      case .notImplemented: "not-implemented"
      case .wrong(let why): "wrong " + why
      case .tooSlow(let value): String(format: "too-slow %.3f", value)
      }
    }

    init?(line: String) {
      let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
      switch parts.first {
      case "not-implemented": self = .notImplemented
      case "wrong": self = .wrong(parts.count > 1 ? parts[1] : "")
      case "too-slow": self = .tooSlow(Double(parts.count > 1 ? parts[1] : "") ?? .infinity)
      default:
        guard let value = parts.first.flatMap(Double.init) else { return nil }
        self = .nanoseconds(value)
      }
    }

    var value: Double? {
      if case .nanoseconds(let value) = self { return value }
      return nil
    }

    /// What the table shows instead of a number.
    var words: String {
      switch self {
      case .nanoseconds(let value): String(format: "%.1f", value)
      case .notImplemented: "not implemented yet"
      case .wrong(let why): "wrong results (\(why))"
      case .tooSlow(let value):
        value >= 1e6
          ? String(format: "too slow: %.1f ms+", value / 1e6)
          : String(format: "too slow: %.1f µs+", value / 1e3)
      }
    }
  }

  /// The faster of two measurements; a measurement beats a failure.
  static func faster(_ a: Outcome, _ b: Outcome) -> Outcome {
    switch (a.value, b.value) {
    case (let x?, let y?): .nanoseconds(min(x, y))
    case (_?, nil): a
    default: b
    }
  }

  /// Prints one measurement for the driver.
  static func emit(_ id: String, _ outcome: Outcome) {
    say("row\t\(id)\t\(outcome.line)")
  }

  /// Writes a line at once, unbuffered: the driver keeps the rows a crashing copy printed.
  static func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  /// The chapters with a `make bench-N`.
  static let chapters = [1, 4, 5, 7]

  /// `--emit N`: one round of chapter N's measurements, as lines.
  static func emitRound(chapter: Int, quick: Bool, platform: Bool) async {
    switch chapter {
    #if canImport(DataStore)
      case 1: await DataStoreBench.emitLearnerRound(withNSLock: platform)
    #endif
    #if canImport(ImageCache)
      case 4: ImageCacheBench.emitLearnerRound(quick: quick, withNSCache: platform)
    #endif
    #if canImport(Downloads)
      case 5: await DownloadsBench.emitLearnerRound(quick: quick, withPlatform: platform)
    #endif
    #if canImport(Sync)
      case 7: await SyncBench.emitLearnerRound(quick: quick, withPlatform: platform)
    #endif
    default: say("error\tchapter \(chapter) has no make bench-\(chapter); chapters with one: \(chapters)")
    }
  }

  /// What one copy printed over all its rounds: the fastest figure of each row, or the reason it
  /// has none.
  struct Collected {
    var outcomes: [String: Outcome] = [:]
    /// Row ids in the order they were first printed.
    var order: [String] = []
    var failures: [String] = []

    mutating func add(_ id: String, _ outcome: Outcome) {
      if outcomes[id] == nil { order.append(id) }
      switch (outcomes[id], outcome) {
      case (.nanoseconds(let old)?, .nanoseconds(let new)): outcomes[id] = .nanoseconds(min(old, new))
      case (.nanoseconds?, _): break  // a round that measured beats one that did not
      default: outcomes[id] = outcome
      }
    }
  }

  /// Runs `program --emit chapter` and adds what it printed to `collected`.
  /// `platform`: the copy also times the platform's own cache, which one copy is enough to do.
  static func round(_ program: String, chapter: Int, quick: Bool, platform: Bool = false, into collected: inout Collected) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = ["--emit", String(chapter)] + (quick ? ["--quick"] : []) + (platform ? ["--platform"] : [])
    let output = Pipe()
    process.standardOutput = output
    do {
      try process.run()
    } catch {
      collected.failures.append("could not start \(program): \(error)")
      return
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
      let fields = line.split(separator: "\t", maxSplits: 2).map(String.init)
      if fields.count == 3, fields[0] == "row", let outcome = Outcome(line: fields[2]) {
        collected.add(fields[1], outcome)
      } else if fields.first == "error" {
        collected.failures.append(fields.dropFirst().joined(separator: " "))
      }
    }
    if process.terminationReason == .uncaughtSignal {
      collected.failures.append("it crashed (signal \(process.terminationStatus)) after \(collected.order.count) rows")
    }
  }

  /// `--compare N --yours PATH`: alternates rounds of the answer (this program) and yours, then
  /// prints the chapter's table.
  static func compare(chapter: Int, yours: String, quick: Bool) {
    let rounds = quick ? 3 : 5
    let answerProgram = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    var mine = Collected()
    var answer = Collected()
    say("Chapter \(chapter): your code next to the reference answer (release build, fastest of \(rounds) rounds)")
    for index in 0..<rounds {
      // Chapter 4's platform row, NSCache, is reported and not a target, and takes three times as
      // long as every other row together: two rounds of it keep `make bench-4` under a minute.
      let platform = chapter != 4 || index < 2
      // Alternate which copy goes first, so neither always runs on a machine the other warmed.
      if index % 2 == 0 {
        round(answerProgram, chapter: chapter, quick: quick, platform: platform, into: &answer)
        round(yours, chapter: chapter, quick: quick, into: &mine)
      } else {
        round(yours, chapter: chapter, quick: quick, into: &mine)
        round(answerProgram, chapter: chapter, quick: quick, platform: platform, into: &answer)
      }
      say("  round \(index + 1) of \(rounds) done")
    }
    for failure in Set(mine.failures).sorted() { print("  your code: \(failure)") }
    for failure in Set(answer.failures).sorted() { print("  the answer: \(failure)") }
    switch chapter {
    #if canImport(DataStore)
      case 1: DataStoreBench.printComparison(yours: mine, answer: answer)
    #endif
    #if canImport(ImageCache)
      case 4: ImageCacheBench.printComparison(yours: mine, answer: answer)
    #endif
    #if canImport(Downloads)
      case 5: DownloadsBench.printComparison(yours: mine, answer: answer)
    #endif
    #if canImport(Sync)
      case 7: SyncBench.printComparison(yours: mine, answer: answer)
    #endif
    default: print("chapter \(chapter) has no make bench-\(chapter); chapters with one: \(chapters)")
    }
  }

  /// One row of a comparison table: a measurement both copies make, and optionally the
  /// platform's counterpart, which the answer's copy measures.
  struct Comparison {
    var label: String
    /// What the verdict calls it ("priority queue").
    var operation: String
    var id: String
    var platform: String? = nil
  }

  /// A table of yours, the answer's and the platform's figures, then one verdict per operation.
  static func printComparison(
    yours: Collected, answer: Collected, rows: [Comparison], platformName: String, note: String,
    exercise: (String) -> Int, chapter: Int, spreadOver: String = "sizes"
  ) {
    func ratio(_ a: Outcome?, _ b: Outcome?) -> String {
      guard let a = a?.value, let b = b?.value else { return "—" }
      return String(format: "%.2f×", a / b)
    }
    print("\n\(note)")
    print("  " + pad("", 24) + pad("yours", 22) + pad("answer", 10) + pad(platformName, 12) + pad("yours/answer", 14))
    var ratios: [String: [Double]] = [:]
    var problems: [String: Outcome] = [:]
    var operations: [String] = []
    for row in rows {
      if !operations.contains(row.operation) { operations.append(row.operation) }
      let mine = yours.outcomes[row.id]
      let theirs = answer.outcomes[row.id]
      let platform = row.platform.flatMap { answer.outcomes[$0] }
      print(
        "  " + pad(row.label, 24) + pad(mine?.words ?? "missing", 22) + pad(theirs?.words ?? "missing", 10)
          + pad(platform?.words ?? "", 12) + ratio(mine, theirs))
      if let mine = mine?.value, let theirs = theirs?.value {
        ratios[row.operation, default: []].append(mine / theirs)
      } else if problems[row.operation] == nil {
        problems[row.operation] = mine ?? .wrong("no figure: see above")
      }
    }
    print("\nVerdict")
    for operation in operations {
      let grade = "make chapter-\(chapter) EXERCISE=\(exercise(operation))"
      if let problem = problems[operation] {
        switch problem {
        case .notImplemented: print("  your \(operation): not implemented yet (\(grade) grades it)")
        case .tooSlow: print("  your \(operation): too slow to measure: stopped after its time budget (\(grade))")
        default: print("  your \(operation): \(problem.words); \(grade) shows what is wrong")
        }
        continue
      }
      let values = ratios[operation] ?? []
      guard !values.isEmpty else { continue }
      let mean = exp(values.map(log).reduce(0, +) / Double(values.count))
      let spread =
        values.count > 1
        ? String(
          format: " (geometric mean of %d %@; %.2f× to %.2f×)", values.count, spreadOver, values.min()!, values.max()!) : ""
      print(String(format: "  your %@ is %.2f× the answer's", operation, mean) + spread)
    }
    print("  Ratios under about 1.2× either way are noise on a shared machine; run it again before you trust one.")
  }
}
