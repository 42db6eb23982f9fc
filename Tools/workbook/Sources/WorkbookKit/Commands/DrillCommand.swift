import Foundation

/// `make drill`: a timed mock system-design interview, read from the drill a chapter lists in
/// its `exercises.json` (`"extras": { "drill": "drill.md" }`).
///
/// Every `## N. Title — M min` section is a phase with prompts and the signals an interviewer
/// listens for; `## Rubric` is a table of areas and points; `## Red flags` closes the drill. On a
/// terminal each phase is timed and the learner scores themself at the end; scores are saved in
/// `.workbook/drill-history.json`. Without a terminal the whole script is printed.
struct DrillCommand: Command {
  static let name = "drill"
  static let arguments = "[N]"
  static let summary = "the timed system-design drill (of chapter N, or the first chapter with one)"

  let chapter: Int?

  init(_ arguments: [String]) throws {
    let parsed = try Arguments(arguments, positionals: 0...1)
    chapter = parsed.positionals.isEmpty ? nil : try parsed.chapter()
  }

  func run() throws -> Bool {
    let catalog = try Catalog.load()
    let chapter = try self.chapter.map { try catalog.chapter($0) } ?? catalog.chapters.first { $0.extras.drill != nil }
    guard let chapter, let drill = chapter.extras.drill else {
      throw Failure(self.chapter.map { "chapter \($0) has no drill" } ?? "no chapter has a drill")
    }
    try Self.drill("\(chapter.folder)/\(drill)")
    return true
  }

  struct Phase {
    let title: String
    let minutes: Int
    let body: String
  }

  struct Area {
    let name: String
    let points: Int
    let fullMarks: String
  }

  struct Attempt: Codable {
    let date: Date
    let scores: [String: Int]
    let total: Int
    let secondsPerPhase: [Int]
  }

  static let historyPath = ".workbook/drill-history.json"

  static func drill(_ path: String) throws {
    let text = try TextFile.contents(path)
    let title = text.components(separatedBy: "\n").first { $0.hasPrefix("# ") }.map { String($0.dropFirst(2)) } ?? "Drill"
    let intro = text.components(separatedBy: "\n## ").first?.components(separatedBy: "\n").dropFirst().joined(separator: "\n") ?? ""
    let sections = try markdownSections(path)
    let phases = sections.compactMap(phase)
    let areas = rubric(sections.first { $0.heading == "Rubric" }?.body ?? "")
    let redFlags = sections.first { $0.heading == "Red flags" }?.body ?? ""
    guard !phases.isEmpty, !areas.isEmpty else { throw Failure("\(path) needs timed phases and a rubric") }

    let interactive = isatty(STDIN_FILENO) != 0
    print(Style.bold(title))
    print(intro.trimmingCharacters(in: .whitespacesAndNewlines))
    let total = phases.reduce(0) { $0 + $1.minutes }
    print(Style.dim("\n\(phases.count) phases, \(total) minutes in all."))

    var seconds: [Int] = []
    for (index, phase) in phases.enumerated() {
      print(Style.bold("\nPhase \(index + 1) of \(phases.count): \(phase.title)") + " — \(phase.minutes) min")
      let (prompts, signals) = split(phase.body)
      print(WalkthroughCommand.render(prompts))
      if interactive {
        print(Style.dim("  [Enter] start the clock and answer out loud"), terminator: "")
        fflush(nil)
        _ = readLine()
        let start = Date()
        print(Style.dim("  … talking. [Enter] when you are done"), terminator: "")
        fflush(nil)
        _ = readLine()
        let elapsed = Int(Date().timeIntervalSince(start))
        seconds.append(elapsed)
        let box = phase.minutes * 60
        let verdict = elapsed <= box ? Style.green("within the box") : Style.yellow("over by \(clock(elapsed - box))")
        print("  You took \(clock(elapsed)) of \(clock(box)): \(verdict)")
      }
      print(WalkthroughCommand.render(signals))
    }

    print(Style.bold("\nRubric (100 points)"))
    for area in areas {
      print("  \(padded(area.name, 20)) \(padded(String(area.points), 4)) \(area.fullMarks)")
    }
    print(Style.bold("\nRed flags"))
    print(WalkthroughCommand.render(redFlags))

    guard interactive else { return }
    print(Style.bold("\nScore yourself honestly"))
    var scores: [String: Int] = [:]
    for area in areas {
      scores[area.name] = askScore(area)
    }
    let sum = scores.values.reduce(0, +)
    let attempt = Attempt(date: Date(), scores: scores, total: sum, secondsPerPhase: seconds)
    var (history, persist) = loadHistory()
    history.append(attempt)
    if persist { saveHistory(history) }
    print(Style.bold("\nThis attempt: \(sum)/100"))
    print(Style.bold("Your attempts") + Style.dim(" (\(historyPath))"))
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    for past in history.suffix(10) {
      print("  \(formatter.string(from: past.date))  \(progressBar(done: past.total, total: 100)) \(past.total)")
    }
  }

  /// A phase heading reads `N. Title — M min`.
  static func phase(_ section: MarkdownSection) -> Phase? {
    let parts = section.heading.components(separatedBy: " — ")
    guard parts.count == 2, parts[1].hasSuffix("min"), let minutes = Int(parts[1].prefix { $0.isNumber }),
      let dot = parts[0].firstIndex(of: "."), Int(parts[0][..<dot]) != nil
    else { return nil }
    let title = parts[0][parts[0].index(after: dot)...].trimmingCharacters(in: .whitespaces)
    return Phase(title: title, minutes: minutes, body: section.body)
  }

  /// Splits a phase into what is asked (before "### Signals") and what is listened for.
  static func split(_ body: String) -> (String, String) {
    guard let range = body.range(of: "### Signals") else { return (body, "") }
    let asked = body[..<range.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
    return (asked, String(body[range.lowerBound...]))
  }

  /// Rows of a Markdown table `| area | points | full marks look like |`.
  static func rubric(_ body: String) -> [Area] {
    body.components(separatedBy: "\n").compactMap { line in
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 3, let points = Int(cells[1]) else { return nil }
      return Area(name: cells[0], points: points, fullMarks: cells[2])
    }
  }

  static func askScore(_ area: Area) -> Int {
    while true {
      print("  \(area.name) (0–\(area.points)): ", terminator: "")
      fflush(nil)
      guard let line = readLine() else { return 0 }
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty { return 0 }
      if let value = Int(trimmed), (0...area.points).contains(value) { return value }
      print(Style.yellow("    a whole number from 0 to \(area.points), please"))
    }
  }

  static func clock(_ seconds: Int) -> String {
    String(format: "%d:%02d", seconds / 60, seconds % 60)
  }

  /// The attempts so far; none when there is no file yet. A file that cannot be read is renamed
  /// to `drill-history.json.corrupt-<seconds since 1970>` and `report` says so: it is never
  /// overwritten in silence. Should the rename fail, the file is left as it is and the history
  /// starts afresh in memory only (`persist` is false: nothing is written over it).
  static func loadHistory(
    _ file: String = historyPath, now: Date = Date(), report: (String) -> Void = warn
  ) -> (attempts: [Attempt], persist: Bool) {
    guard let data = FileManager.default.contents(atPath: file) else { return ([], true) }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    if let attempts = try? decoder.decode([Attempt].self, from: data) { return (attempts, true) }
    let aside = "\(file).corrupt-\(Int(now.timeIntervalSince1970))"
    guard rename(file, aside) == 0 else {
      report("\(file) cannot be read, nor set aside (\(String(cString: strerror(errno)))): this attempt is not saved, and the file is left as it is.")
      return ([], false)
    }
    report("\(file) cannot be read: it was set aside as \(aside), and your attempts start afresh.")
    return ([], true)
  }

  static func saveHistory(_ history: [Attempt]) {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    guard let data = try? encoder.encode(history) else { return }
    try? FileManager.default.createDirectory(atPath: ".workbook", withIntermediateDirectories: true)
    try? data.write(to: URL(fileURLWithPath: historyPath), options: .atomic)
  }
}
