import Foundation

/// `make drill`: every mock system-design interview (`DrillCatalog`) with its length and the
/// learner's last score; `make drill-N` or `make drill-<name>` runs one.
///
/// A drill is Markdown in one of two formats. A round (`DrillRound`, run by `runRound`) times
/// introductions and the candidate's questions apart from the design, picks one deep dive with a
/// seed, asks a pushback question after each phase, and has the learner mark each signal hit or
/// missed; the levels per area follow. The older format: every `## N. Title — M min` section is a
/// phase with prompts and the signals an interviewer listens for; `## Rubric` is a table of areas,
/// points, what full marks look like and where the workbook's code shows it; `## Red flags` closes
/// the drill. On a terminal each phase is timed and the learner scores themself; the attempt is
/// saved in
/// `.workbook/drill-history.json` (`DrillHistory`). Then, or at once without a terminal (which
/// prints the whole drill and records nothing), the reference design is shown: its picture's path
/// and its outline.
struct DrillCommand: Command {
  static let name = "drill"
  static let arguments = "[ID] [--answers FILE] [--role interviewer] [--key]"
  static let summary = "list the design drills, or run one: ID is a chapter's number or chat, upload, analytics, assistant"

  /// The drill to run, as `DrillCatalog.normalized` spells it; nil lists them.
  let id: String?
  /// `--answers FILE` (`make drill-chat ANSWERS=file`): score the answers written there instead of
  /// running the round on a terminal.
  let answers: String?
  /// `--role interviewer` (`make drill-chat ROLE=interviewer`): print the interviewer's kit
  /// (`InterviewerKit`) instead of running the round.
  let interviewer: Bool
  /// `--key` (`make drill-chat ANSWERS=file KEY=1`): after a missed decision, print what the
  /// scenario's key says (its choice and reason, the arithmetic); without it the result says only
  /// which part missed and what to weigh, so the decision can be answered again unspoiled.
  let showKey: Bool

  init(_ arguments: [String]) throws {
    let parsed = try Arguments(
      arguments, flags: ["--key"],
      options: [
        "--answers": "a file of answers (make drill-chat ANSWERS=answers.md)",
        "--role": "interviewer: the kit for a peer who runs the round (make drill-chat ROLE=interviewer)",
      ], positionals: 0...1)
    id = parsed.positionals.first.map(DrillCatalog.normalized)
    answers = parsed.options["--answers"]
    let role = parsed.options["--role"]?.lowercased()
    if let role, !["interviewer", "candidate"].contains(role) {
      throw UsageError("ROLE= is interviewer (the kit for a peer who runs the round) or candidate (the round), not \(role)")
    }
    interviewer = role == "interviewer"
    showKey = parsed.has("--key")
    if interviewer && (id == nil || answers != nil) {
      throw UsageError("ROLE=interviewer needs a drill and no ANSWERS=: make drill-chat ROLE=interviewer")
    }
    if let answers, ["1", "yes", "true"].contains(answers.lowercased()) {
      throw UsageError("ANSWERS= names a file of answers for a drill (ANSWERS=answers.md), not \(answers)")
    }
    if answers != nil && id == nil { throw UsageError("--answers needs a drill: make drill-chat ANSWERS=answers.md") }
  }

  func run() throws -> Bool {
    let catalog = try Catalog.load()
    let drills = try DrillCatalog.load(catalog)
    let now = SystemClock().now()
    guard let id else {
      print(Self.listing(drills, history: DrillHistory.read(now: now), now: now))
      return true
    }
    let seed = ProcessInfo.processInfo.environment["SEED"].flatMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
    if interviewer {
      try Self.kit(drills.drill(id), console: .terminal(), seed: seed, now: now)
      return true
    }
    if let answers {
      try Self.score(drills.drill(id), answers: answers, console: .terminal(), seed: seed, showKey: showKey)
      return true
    }
    try Self.run(drills.drill(id), console: .terminal(), seed: seed, showKey: showKey)
    return true
  }

  /// The interviewer's kit for `drill`: `seed`'s scenario and, without one, the day's, as the
  /// round without a terminal draws it.
  static func kit(_ drill: Drill, root: String = ".", console: Console, seed: UInt64?, now: Date) throws {
    let text = try TextFile.contents(path(drill.file, in: root), shown: drill.file)
    guard let round = DrillRound.parse(text) else {
      throw Failure("\(drill.file) is in the older format; ROLE=interviewer prints the kit of a round")
    }
    let drawn = seed ?? UInt64(max(0, Int(now.timeIntervalSince1970 / 86_400)))
    let scenarios = try DrillScenarios.load(drill, root: root)
    console.write(InterviewerKit.render(round, drill: drill, scenarios: scenarios, seed: drawn) + "\n")
  }

  // MARK: - The list

  /// Every drill with its id, title, length and last score, and how to run one.
  static func listing(
    _ catalog: DrillCatalog, history: DrillHistory, now: Date, root: String = ".", calendar: Calendar = .current
  ) -> String {
    guard let first = catalog.drills.first else {
      return "No drill yet: a chapter names its drill in exercises.json (\"extras\": { \"drill\": \"drill.md\" })."
    }
    func named(_ drill: Drill) -> String {
      drill.title + (drill.reuses.isEmpty ? "" : " (ch. \(drill.reuses.map(String.init).joined(separator: ", ")))")
    }
    let width = catalog.drills.map { named($0).count }.max().map { $0 + 2 } ?? 0
    var lines = [Style.bold("Design drills") + Style.dim(" (timed mock system-design interviews)"), ""]
    lines.append(Style.dim("  \(padded("id", 11))\(padded("drill", width))\(padded("length", 9))last score"))
    for drill in catalog.drills {
      let text = try? TextFile.contents(path(drill.file, in: root), shown: drill.file)
      let minutes = text.map { DrillRound.parse($0)?.minutes ?? script($0).minutes }.map { "\($0) min" }
      var score = Style.dim("not tried")
      if let last = history.last(drill.id) {
        score = "\(last.summary) on \(calendar.shortDay(last.date))"
        if let due = history.dueDate(drill.id, calendar: calendar) {
          score += Style.yellow(due <= now ? ", due again" : ", back on \(calendar.shortDay(due))")
        }
      }
      lines.append("  \(padded(drill.id, 11))\(padded(named(drill), width))\(padded(minutes ?? "missing", 9))\(score)")
    }
    let other = catalog.drills.first { $0.chapter == nil }.map { " or make drill-\($0.id)" } ?? ""
    lines.append("")
    lines.append("Run one: make drill-\(first.id)\(other) (SEED=N repeats a round's deep dive). On a terminal each phase is timed")
    lines.append("and you mark each signal hit or missed; an area below senior brings the drill back in make review")
    lines.append(
      "\(DrillHistory.retryAfterDays) days later, and each missed signal comes back there as a card. "
        + Style.dim("Attempts: \(DrillHistory.relativePath)"))
    return lines.joined(separator: "\n")
  }

  // MARK: - Running a drill

  /// Where a drill reads the learner's Enter presses and scores and writes what it shows.
  struct Console {
    /// A terminal: phases are timed and the learner scores themself. Otherwise the drill prints
    /// whole and records nothing.
    var interactive: Bool
    var readLine: () -> String?
    var write: (String) -> Void

    static func terminal() -> Console {
      Console(
        interactive: isatty(STDIN_FILENO) != 0, readLine: { Swift.readLine() },
        write: { text in
          print(text, terminator: "")
          fflush(nil)
        })
    }
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
    /// The `shown by` cell: where the workbook's code shows the behaviour the row scores; nil in a
    /// table of three columns.
    let shownBy: String?
  }

  /// A drill's text, parsed.
  struct Script {
    let title: String
    let intro: String
    let phases: [Phase]
    let areas: [Area]
    let redFlags: String

    var minutes: Int { phases.reduce(0) { $0 + $1.minutes } }
  }

  static func script(_ text: String) -> Script {
    let lines = text.components(separatedBy: "\n")
    let title = lines.first { $0.hasPrefix("# ") }.map { String($0.dropFirst(2)) } ?? "Drill"
    let intro = text.components(separatedBy: "\n## ").first?.components(separatedBy: "\n").dropFirst().joined(separator: "\n") ?? ""
    let sections = markdownSections(text: text)
    return Script(
      title: title, intro: intro.trimmingCharacters(in: .whitespacesAndNewlines), phases: sections.compactMap(phase),
      areas: rubric(sections.first { $0.heading == "Rubric" }?.body ?? ""),
      redFlags: sections.first { $0.heading == "Red flags" }?.body ?? "")
  }

  /// Runs `drill`: its phases (timed on a terminal), the rubric and red flags, the learner's scores
  /// (on a terminal, saved in the history at `root`), then the reference design.
  static func run(
    _ drill: Drill, root: String = ".", console: Console, now: () -> Date = Date.init, calendar: Calendar = .current,
    seed: UInt64? = nil, showKey: Bool = false
  ) throws {
    let text = try TextFile.contents(path(drill.file, in: root), shown: drill.file)
    if let round = DrillRound.parse(text) {
      try runRound(round, drill: drill, root: root, console: console, now: now, calendar: calendar, seed: seed, showKey: showKey)
      return
    }
    let script = script(text)
    guard !script.phases.isEmpty, !script.areas.isEmpty else { throw Failure("\(drill.file) needs timed phases and a rubric") }
    func say(_ text: String) { console.write(text + "\n") }
    func ask(_ text: String) -> String? {
      console.write(text)
      return console.readLine()
    }

    say(Style.bold(script.title))
    say(script.intro)
    say(Style.dim("\n\(script.phases.count) phases, \(script.minutes) minutes in all."))

    var seconds: [Int] = []
    for (index, phase) in script.phases.enumerated() {
      say(Style.bold("\nPhase \(index + 1) of \(script.phases.count): \(phase.title)") + " — \(phase.minutes) min")
      let (prompts, signals) = split(phase.body)
      say(WalkthroughCommand.render(prompts))
      if console.interactive {
        _ = ask(Style.dim("  [Enter] start the clock and answer out loud"))
        let start = now()
        _ = ask(Style.dim("  … talking. [Enter] when you are done"))
        let elapsed = max(0, Int(now().timeIntervalSince(start)))
        seconds.append(elapsed)
        let box = phase.minutes * 60
        let verdict = elapsed <= box ? Style.green("within the box") : Style.yellow("over by \(clock(elapsed - box))")
        say("  You took \(clock(elapsed)) of \(clock(box)): \(verdict)")
      }
      say(WalkthroughCommand.render(signals))
    }

    say(Style.bold("\nRubric (100 points)"))
    for area in script.areas {
      say("  \(padded(area.name, 20)) \(padded(String(area.points), 4)) \(area.fullMarks)")
      if let shownBy = area.shownBy, !shownBy.isEmpty { say(Style.dim("  \(padded("", 25))shown by: \(shownBy)")) }
    }
    say(Style.bold("\nRed flags"))
    say(WalkthroughCommand.render(script.redFlags))

    guard console.interactive else {
      say(referenceDesign(drill, root: root))
      say(
        Style.dim(
          "\nNothing was recorded: scoring needs a terminal. Run make drill-\(drill.id) in one to time the phases and score yourself."
        ))
      return
    }
    say(Style.bold("\nScore yourself honestly"))
    var scores: [String: Int] = [:]
    for area in script.areas {
      guard let score = askScore(area, ask: ask, say: say) else {
        say(referenceDesign(drill, root: root))
        say(Style.yellow("\nInput ended before every area was scored: nothing was recorded."))
        return
      }
      scores[area.name] = score
    }
    let sum = scores.values.reduce(0, +)
    let date = now()
    let file = path(DrillHistory.relativePath, in: root)
    var (attempts, persist) = DrillHistory.load(file, now: date)
    attempts.append(DrillHistory.Attempt(date: date, drill: drill.id, scores: scores, total: sum, secondsPerPhase: seconds))
    if persist {
      do {
        try DrillHistory.save(attempts, to: file)
      } catch {
        warn("this attempt is not saved: \(file) cannot be written (\(error))")
      }
    }
    let history = DrillHistory(attempts: attempts)
    say(Style.bold("\nThis attempt: \(sum)/100"))
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withFullDate]
    say(Style.bold("Your attempts at this drill") + Style.dim(" (\(DrillHistory.relativePath))"))
    for past in history.attempts(of: drill.id).suffix(10) {
      guard let total = past.total else {
        say("  \(formatter.string(from: past.date))  \(past.summary)")
        continue
      }
      say("  \(formatter.string(from: past.date))  \(progressBar(done: total, total: 100)) \(total)")
    }
    if let due = history.dueDate(drill.id, calendar: calendar) {
      say(
        "Below \(DrillHistory.passing): make review brings this drill back on \(calendar.shortDay(due)). "
          + "Reread the rows you scored lowest, and the reference design below.")
    }
    say(referenceDesign(drill, root: root))
  }

  /// The reference design, after the learner's own attempt: where its picture is and its outline.
  static func referenceDesign(_ drill: Drill, root: String = ".") -> String {
    var lines = [Style.bold("\nReference design")]
    let description = path(drill.referenceDescription, in: root)
    guard FileManager.default.fileExists(atPath: description) else {
      lines.append(Style.dim("  none yet: \(drill.referenceDescription) is missing"))
      return lines.joined(separator: "\n")
    }
    if FileManager.default.fileExists(atPath: path(drill.referenceDrawing, in: root)) {
      lines.append("  picture: \(drill.referenceDrawing) (open it in a browser)")
    } else {
      lines.append(Style.dim("  picture: not drawn yet; make figures draws \(drill.referenceDrawing)"))
    }
    do {
      let diagram = try ArchitectureDiagram.load(description)
      lines += diagram.outline.components(separatedBy: "\n").map { $0.isEmpty ? "" : "  " + $0 }
    } catch {
      lines.append(Style.yellow("  \(drill.referenceDescription) cannot be read: \(error)"))
    }
    return lines.joined(separator: "\n")
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

  /// Rows of a Markdown table `| area | points | full marks look like | shown by |` (the last
  /// column may be missing).
  static func rubric(_ body: String) -> [Area] {
    body.components(separatedBy: "\n").compactMap { line in
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 3, let points = Int(cells[1]) else { return nil }
      return Area(name: cells[0], points: points, fullMarks: cells[2], shownBy: cells.count > 3 ? cells[3] : nil)
    }
  }

  /// The learner's score for `area`; Enter alone is 0, and nil means the input ended (Ctrl-D).
  static func askScore(_ area: Area, ask: (String) -> String?, say: (String) -> Void) -> Int? {
    while true {
      guard let line = ask("  \(area.name) (0–\(area.points)): ") else { return nil }
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty { return 0 }
      if let value = Int(trimmed), (0...area.points).contains(value) { return value }
      say(Style.yellow("    a whole number from 0 to \(area.points), please"))
    }
  }

  static func clock(_ seconds: Int) -> String {
    String(format: "%d:%02d", seconds / 60, seconds % 60)
  }
}
