import Foundation

/// The learner's drill attempts, kept in `.workbook/drill-history.json` (git ignores `.workbook/`):
/// an array of attempts, oldest first, each naming its drill (`"drill": "6"`, `"drill": "chat"`).
/// An attempt without `drill` is chapter 6's, the only drill there was before drills had ids.
///
/// Two kinds of attempt share the file. An attempt at a drill written as a round (`DrillRound`)
/// keeps each signal's mark (`signals`, by `DrillSignal.id`), the level of each area (`levels`),
/// the deep dive it ran and its seed, and no score. An older attempt keeps a score per rubric row
/// and a total out of 100. Both are read and written back as they are: nothing is converted, so a
/// file written before the rounds existed stays valid.
///
/// A drill comes back in `make review` when its last attempt did not pass: an area below senior
/// in a round, a score below `passing` (70 of 100) in an older attempt. It comes back from the
/// start of the second calendar day after that attempt (`retryAfterDays`), until an attempt
/// passes. Scored on Monday evening, it is due all of Wednesday. Not the next day: a
/// drill redone at once measures how well the learner remembers the rubric, not how they run the
/// conversation; two days leave time to reread the chapter and the reference design while the
/// weak areas are still fresh. A drill never tried is never due: `make drill` lists it.
struct DrillHistory: Equatable {
  struct Attempt: Codable, Equatable {
    let date: Date
    /// The drill's id; nil in an attempt written before drills had ids (chapter 6's drill).
    var drill: String?
    /// Points per rubric row; empty in an attempt at a round.
    var scores: [String: Int] = [:]
    /// Out of 100; nil in an attempt at a round, which has levels instead.
    var total: Int?
    let secondsPerPhase: [Int]
    /// Each area's level (`DrillLevel`'s raw value), in an attempt at a round.
    var levels: [String: String]?
    /// Each signal's mark, hit or missed, by `DrillSignal.id`, in an attempt at a round.
    var signals: [String: Bool]?
    /// The deep dive the round ran (`4b`) and the seed that chose it; no seed when the candidate
    /// picked it.
    var deepDive: String?
    var seed: UInt64?
    /// The scenario the round's decisions were graded against (`DrillScenarios`), and each
    /// decision's level by its id; nil for a drill without scenarios.
    var scenario: String?
    var decisions: [String: String]?

    /// The id of the drill attempted.
    var id: String { drill ?? DrillHistory.legacyID }

    /// No area below senior in a round; 70 or more in an older attempt.
    var passed: Bool {
      if let levels { return !levels.values.contains(DrillLevel.belowSenior.rawValue) }
      return (total ?? 0) >= DrillHistory.passing
    }

    /// `62/100`, or `staff 2 · senior 3 · below 1` for a round.
    var summary: String {
      guard let levels else { return "\(total ?? 0)/100" }
      let counts = DrillLevel.allCases.reversed().map { level in (level, levels.values.filter { $0 == level.rawValue }.count) }
      return counts.filter { $0.1 > 0 }.map { "\($0.0 == .belowSenior ? "below" : $0.0.rawValue) \($0.1)" }.joined(separator: " · ")
    }
  }

  static let relativePath = ".workbook/drill-history.json"
  /// The drill an attempt without `drill` was: chapter 6's.
  static let legacyID = "6"
  /// A last score below this brings the drill back in `make review`.
  static let passing = 70
  /// Calendar days from a low score to the day the drill is due again.
  static let retryAfterDays = 2

  /// Every attempt, oldest first.
  var attempts: [Attempt]

  /// The history at `root`; empty when there is none or it cannot be read (see `load`).
  static func read(root: String = ".", now: Date = Date(), report: (String) -> Void = warn) -> DrillHistory {
    DrillHistory(attempts: load(path(relativePath, in: root), now: now, report: report).attempts)
  }

  /// The attempts so far; none when there is no file yet. A file that cannot be read is renamed
  /// to `drill-history.json.corrupt-<seconds since 1970>` and `report` says so: it is never
  /// overwritten in silence. Should the rename fail, the file is left as it is and the history
  /// starts afresh in memory only (`persist` is false: nothing is written over it).
  static func load(
    _ file: String, now: Date = Date(), report: (String) -> Void = warn
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

  /// Writes every attempt to `file`, replacing it in one step.
  static func save(_ attempts: [Attempt], to file: String) throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data = try encoder.encode(attempts)
    let folder = (file as NSString).deletingLastPathComponent
    if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
    try data.write(to: URL(fileURLWithPath: file), options: .atomic)
  }

  /// The attempts at drill `id`, oldest first.
  func attempts(of id: String) -> [Attempt] {
    attempts.filter { $0.id == id }
  }

  /// The latest attempt at drill `id`.
  func last(_ id: String) -> Attempt? {
    attempts.last { $0.id == id }
  }

  /// The start of the day drill `id` comes back; nil when it was never tried or its last attempt
  /// passed.
  func dueDate(_ id: String, calendar: Calendar = .current) -> Date? {
    guard let last = last(id), !last.passed else { return nil }
    let day = calendar.startOfDay(for: last.date)
    return calendar.date(byAdding: .day, value: Self.retryAfterDays, to: day)
  }

  func isDue(_ id: String, at now: Date, calendar: Calendar = .current) -> Bool {
    dueDate(id, calendar: calendar).map { $0 <= now } ?? false
  }

  // MARK: - What `make review` shows

  /// For `make review`: the drills due again, of `chapter` only when one is given (a drill beyond
  /// the chapters then is not shown); nil when none is due.
  static func reviewNote(_ catalog: Catalog, chapter: Int?, now: Date, root: String = ".") -> String? {
    let drills = (try? DrillCatalog.load(catalog, root: root))?.drills ?? []
    return read(root: root, now: now).reviewNote(drills, chapter: chapter, now: now)
  }

  func reviewNote(_ drills: [Drill], chapter: Int?, now: Date, calendar: Calendar = .current) -> String? {
    let due = drills.filter { (chapter == nil || $0.chapter == chapter) && isDue($0.id, at: now, calendar: calendar) }
    guard !due.isEmpty else { return nil }
    var lines = ["\(due.count) drill\(due.count == 1 ? "" : "s") due again (an area below senior, or a score below \(Self.passing)):"]
    for drill in due {
      guard let last = last(drill.id) else { continue }
      let when = calendar.shortDay(last.date)
      lines.append("  \(padded("make drill-\(drill.id)", 20)) \(drill.title): \(last.summary) on \(when)")
    }
    return lines.joined(separator: "\n")
  }
}

/// For `make progress`: each chapter's last drill score, and a line for the drills beyond the
/// chapters.
struct DrillProgress {
  let drills: [Drill]
  let history: DrillHistory
  let now: Date
  var calendar: Calendar = .current

  init(drills: [Drill], history: DrillHistory, now: Date, calendar: Calendar = .current) {
    self.drills = drills
    self.history = history
    self.now = now
    self.calendar = calendar
  }

  /// Every drill of `catalog` (none beyond the chapters when `Drills/drills.json` cannot be read)
  /// and the history at `root`.
  init(_ catalog: Catalog, now: Date, root: String = ".") {
    let drills = (try? DrillCatalog.load(catalog, root: root))?.drills ?? []
    self.init(drills: drills, history: DrillHistory.read(root: root, now: now), now: now)
  }

  /// `  drill 72/100`, `  drill 55/100, due`, `  drill not tried`, padded to one width so the
  /// columns after it line up; blank for a chapter with no drill.
  func column(_ chapter: Int) -> String {
    let width = 20
    guard let drill = drills.first(where: { $0.chapter == chapter }) else { return String(repeating: " ", count: width) }
    let (text, styled) = score(drill.id)
    return "  drill " + styled + String(repeating: " ", count: max(0, width - 8 - text.count))
  }

  /// Each tried round's level per area, one line a drill, from its last attempt: `chat
  /// Requirements staff · Protocol senior · …`; empty when no round was tried.
  var levelLines: [String] {
    drills.compactMap { drill in
      guard let levels = history.last(drill.id)?.levels, !levels.isEmpty else { return nil }
      let areas = levels.keys.sorted().map { name -> String in
        let level = levels[name] ?? ""
        let shown = "\(name) \(level)"
        if level == DrillLevel.staff.rawValue { return Style.green(shown) }
        return level == DrillLevel.belowSenior.rawValue ? Style.yellow(shown) : shown
      }
      return "  \(padded("drill-" + drill.id, 12)) " + areas.joined(separator: " · ")
    }
  }

  /// `Drills beyond the chapters: chat 80/100; sync not tried`; nil when there are none.
  var beyondLine: String? {
    let beyond = drills.filter { $0.chapter == nil }
    guard !beyond.isEmpty else { return nil }
    let scores = beyond.map { "\($0.id) \(score($0.id).styled)" }.joined(separator: "; ")
    return "  Drills beyond the chapters: \(scores) (make drill lists them)"
  }

  /// The last score as text, and coloured: green when it passes, yellow when it is below and due
  /// again.
  func score(_ id: String) -> (text: String, styled: String) {
    guard let last = history.last(id) else { return ("not tried", Style.dim("not tried")) }
    var text = "\(last.total ?? 0)/100"
    if let levels = last.levels {
      text = "\(levels.values.filter { $0 != DrillLevel.belowSenior.rawValue }.count)/\(levels.count) senior+"
    }
    if last.passed { return (text, Style.green(text)) }
    return history.isDue(id, at: now, calendar: calendar) ? (text + ", due", Style.yellow(text + ", due")) : (text, text)
  }
}
