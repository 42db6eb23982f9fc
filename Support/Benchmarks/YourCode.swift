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
      case .tooSlow(let value): String(format: "too slow (over %.0f ns; stopped)", value)
      }
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
  static let chapters = [4]

  /// `--emit N`: one round of chapter N's measurements, as lines.
  static func emitRound(chapter: Int, quick: Bool, platform: Bool) {
    switch chapter {
    #if canImport(ImageCache)
      case 4: ImageCacheBench.emitLearnerRound(quick: quick, withNSCache: platform)
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
      // Alternate which copy goes first, so neither always runs on a machine the other warmed.
      if index % 2 == 0 {
        round(answerProgram, chapter: chapter, quick: quick, platform: true, into: &answer)
        round(yours, chapter: chapter, quick: quick, into: &mine)
      } else {
        round(yours, chapter: chapter, quick: quick, into: &mine)
        round(answerProgram, chapter: chapter, quick: quick, platform: true, into: &answer)
      }
      say("  round \(index + 1) of \(rounds) done")
    }
    for failure in Set(mine.failures).sorted() { print("  your code: \(failure)") }
    for failure in Set(answer.failures).sorted() { print("  the answer: \(failure)") }
    switch chapter {
    #if canImport(ImageCache)
      case 4: ImageCacheBench.printComparison(yours: mine, answer: answer)
    #endif
    default: print("chapter \(chapter) has no make bench-\(chapter); chapters with one: \(chapters)")
    }
  }
}
