import Foundation

/// One thing an interviewer listens for in a phase, written `- **Cue**: what the answer says`
/// under `### Must-hit signals`, `### Judgment signals` or `### Bonus signals`. After the phase the
/// learner marks it hit or missed; a missed one becomes a review card (`DrillSignalCards`).
struct DrillSignal: Equatable {
  /// What a signal decides. A must-hit signal is what a senior answer cannot do without; a judgment
  /// signal is a staff behaviour (a choice committed to under the stated constraints, its cost,
  /// what would flip it); a bonus signal is depth that is worth saying but decides no level, so
  /// completeness alone never makes staff.
  enum Kind: String, CaseIterable {
    case mustHit = "Must-hit signals"
    case judgment = "Judgment signals"
    case bonus = "Bonus signals"

    /// The list's heading in a drill, `### Judgment signals`.
    var heading: String { rawValue }
  }

  /// The phase's label (`1`, `4b`) or `communication`.
  let phase: String
  /// The bold words that name the signal: short enough to mark at a glance.
  let cue: String
  /// The rest of the bullet: what an answer that hits it says.
  let text: String
  let kind: Kind

  /// A must-hit signal missed keeps the area below senior.
  var mustHit: Bool { kind == .mustHit }

  /// Stable within a drill while the cue stays the same, whichever list holds it:
  /// `4a/two-orders-kept-apart`.
  var id: String { "\(phase)/\(QuestionKey.slug(cue))" }

  /// The signals of one `### … signals` list; a bullet without a bold cue is left out, and `workbook
  /// check` reports it.
  static func parse(_ list: String, phase: String, kind: Kind) -> [DrillSignal] {
    DrillRound.bullets(list).compactMap { bullet in
      guard bullet.hasPrefix("**"), let end = bullet.range(of: "**:", range: bullet.index(bullet.startIndex, offsetBy: 2)..<bullet.endIndex)
      else { return nil }
      let cue = String(bullet[bullet.index(bullet.startIndex, offsetBy: 2)..<end.lowerBound])
      let text = bullet[end.upperBound...].trimmingCharacters(in: .whitespaces)
      return DrillSignal(phase: phase, cue: cue, text: text, kind: kind)
    }
  }
}

/// Where an area of a round stands, from the signals the learner marked.
enum DrillLevel: String, Codable, CaseIterable, Comparable {
  case belowSenior = "below senior"
  case senior
  case staff

  /// Senior when every must-hit signal was hit; staff when, besides, every judgment signal of the
  /// area was. Bonus signals never move the level: an answer that is complete but commits to
  /// nothing under the scenario's constraints stays senior, and missing a must-hit signal is below
  /// senior whatever else was hit. An area with no judgment signal cannot reach staff.
  static func of(_ signals: [DrillSignal], marks: [String: Bool]) -> DrillLevel {
    func hit(_ signal: DrillSignal) -> Bool { marks[signal.id] == true }
    guard signals.filter(\.mustHit).allSatisfy(hit) else { return .belowSenior }
    let judgment = signals.filter { $0.kind == .judgment }
    return !judgment.isEmpty && judgment.allSatisfy(hit) ? .staff : .senior
  }

  static func < (a: DrillLevel, b: DrillLevel) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}

/// A drill written as a real round (the format CONTRIBUTING.md describes): introductions and the
/// candidate's questions timed apart from the design, numbered design phases whose deep dive is
/// one of two or three options (`## 4a.`, `## 4b.`), must-hit, judgment and bonus signals per phase, a
/// `## Communication` section of signals, a `## Pushback` bank, and a rubric of levels.
struct DrillRound {
  struct Timed {
    let minutes: Int
    let text: String
  }

  struct Phase {
    /// `3`, or `4a` for a deep-dive option.
    let label: String
    let number: Int
    /// The option's letter for a deep dive chosen from several; nil for a phase everyone runs.
    let option: Character?
    let title: String
    let minutes: Int
    let prompts: String
    let signals: [DrillSignal]
    /// Where the phase's heading is, for `workbook check`.
    let line: Int
  }

  struct Area {
    let name: String
    /// The phase numbers the area is marked from; empty for communication.
    let phases: [Int]
    let isCommunication: Bool
    let senior: String
    let staff: String
    /// The optional `shown by` cell, held to the same rules as the older rubric's.
    let shownBy: String?
  }

  let title: String
  let intro: String
  let introductions: Timed
  let questions: Timed?
  let phases: [Phase]
  let communication: [DrillSignal]
  let pushback: [String]
  let areas: [Area]
  let redFlags: String

  static let introductionsHeading = "Introductions"
  static let questionsHeading = "Your questions"

  /// The round; nil for a drill in the older format (no `## Introductions — M min`).
  static func parse(_ text: String) -> DrillRound? {
    let sections = markdownSections(text: text)
    guard let start = sections.first(where: { timed($0.heading)?.name == introductionsHeading }),
      let startMinutes = timed(start.heading)?.minutes
    else { return nil }
    let lines = text.components(separatedBy: "\n")
    let title = lines.first { $0.hasPrefix("# ") }.map { String($0.dropFirst(2)) } ?? "Drill"
    let intro = text.components(separatedBy: "\n## ").first?.components(separatedBy: "\n").dropFirst().joined(separator: "\n") ?? ""
    let end = sections.first { timed($0.heading)?.name == questionsHeading }
    let communication = sections.first { $0.heading == "Communication" }.map { signals(of: $0.body, phase: "communication") } ?? []
    return DrillRound(
      title: title, intro: intro.trimmingCharacters(in: .whitespacesAndNewlines),
      introductions: Timed(minutes: startMinutes, text: start.body),
      questions: end.flatMap { section in timed(section.heading).map { Timed(minutes: $0.minutes, text: section.body) } },
      phases: sections.compactMap(phase), communication: communication,
      pushback: bullets(sections.first { $0.heading == "Pushback" }?.body ?? ""),
      areas: rubric(sections.first { $0.heading == "Rubric" }?.body ?? ""),
      redFlags: sections.first { $0.heading == "Red flags" }?.body ?? "")
  }

  /// `Introductions — 3 min` as its name and minutes.
  static func timed(_ heading: String) -> (name: String, minutes: Int)? {
    let parts = heading.components(separatedBy: " — ")
    guard parts.count == 2, parts[1].hasSuffix("min"), let minutes = Int(parts[1].prefix { $0.isNumber }) else { return nil }
    return (parts[0].trimmingCharacters(in: .whitespaces), minutes)
  }

  /// `4b. Deep dive: catch-up — 10 min` as a phase.
  static func phase(_ section: MarkdownSection) -> Phase? {
    guard let (name, minutes) = timed(section.heading), let dot = name.firstIndex(of: ".") else { return nil }
    let label = String(name[..<dot])
    let digits = label.prefix { $0.isNumber }
    guard let number = Int(digits) else { return nil }
    let rest = label.dropFirst(digits.count)
    guard rest.count <= 1, rest.allSatisfy(\.isLowercase) else { return nil }
    let title = name[name.index(after: dot)...].trimmingCharacters(in: .whitespaces)
    let parts = subsections(section.body)
    return Phase(
      label: label, number: number, option: rest.first, title: title, minutes: minutes,
      prompts: parts.first { $0.heading == "Prompts" }?.body ?? "", signals: signals(of: section.body, phase: label),
      line: section.line)
  }

  /// The must-hit, the judgment, then the bonus signals under a section's `###` lists.
  static func signals(of body: String, phase: String) -> [DrillSignal] {
    let parts = subsections(body)
    return DrillSignal.Kind.allCases.flatMap { kind in
      DrillSignal.parse(parts.first { $0.heading == kind.heading }?.body ?? "", phase: phase, kind: kind)
    }
  }

  /// The items of a Markdown list, each with its continuation lines joined.
  static func bullets(_ text: String) -> [String] {
    var items: [String] = []
    for line in text.components(separatedBy: "\n") {
      if line.hasPrefix("- ") {
        items.append(String(line.dropFirst(2)))
      } else if !items.isEmpty, line.hasPrefix("  ") {
        items[items.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
      }
    }
    return items.map { $0.trimmingCharacters(in: .whitespaces) }
  }

  /// Rows of `| area | phases | senior answer shows | staff answer adds | shown by |`.
  static func rubric(_ body: String) -> [Area] {
    body.components(separatedBy: "\n").compactMap { line in
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 4, cells[0] != "area", !cells[0].allSatisfy({ $0 == "-" }) else { return nil }
      let isCommunication = cells[1].lowercased() == "communication"
      let numbers = cells[1].split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
      guard isCommunication || !numbers.isEmpty else { return nil }
      return Area(
        name: cells[0], phases: numbers, isCommunication: isCommunication, senior: cells[2], staff: cells[3],
        shownBy: cells.count > 4 ? cells[4] : nil)
    }
  }

  // MARK: - One run of the round

  /// The deep-dive options: the phases that share a number and carry a letter.
  var options: [Phase] { phases.filter { $0.option != nil } }

  /// The phases run with `seed`: every phase without a letter, and one option of the deep dive,
  /// as an interviewer picks one from what the candidate's design makes interesting.
  func phases(seed: UInt64) -> [Phase] {
    phases(deepDive: deepDive(seed: seed))
  }

  /// The deep-dive option `seed` picks (`4b`); nil for a round without options.
  func deepDive(seed: UInt64) -> String? {
    let options = self.options
    return options.isEmpty ? nil : options[Int(seed % UInt64(options.count))].label
  }

  /// The phases run when the deep dive is `deepDive` (`4a`), whoever picked it.
  func phases(deepDive: String?) -> [Phase] {
    phases.filter { $0.option == nil || $0.label == deepDive }
  }

  /// The design's minutes with one deep dive (options share their length; `workbook check` says so).
  var designMinutes: Int { phases(seed: 0).reduce(0) { $0 + $1.minutes } }
  /// The whole round: introductions, design, the candidate's questions.
  var minutes: Int { introductions.minutes + designMinutes + (questions?.minutes ?? 0) }

  /// One pushback question a phase, drawn without repeats while the bank lasts.
  func pushback(for count: Int, seed: UInt64) -> [String] {
    guard !pushback.isEmpty else { return Array(repeating: "", count: count) }
    var generator = SeededGenerator(seed: seed)
    var drawn: [String] = []
    var bank: [String] = []
    for _ in 0..<count {
      if bank.isEmpty { bank = pushback.shuffled(using: &generator) }
      drawn.append(bank.removeLast())
    }
    return drawn
  }

  /// The signals an area is marked from in a run with `seed`.
  func signals(of area: Area, seed: UInt64) -> [DrillSignal] {
    signals(of: area, deepDive: deepDive(seed: seed))
  }

  /// The signals an area is marked from in a run whose deep dive is `deepDive`.
  func signals(of area: Area, deepDive: String?) -> [DrillSignal] {
    if area.isCommunication { return communication }
    return phases(deepDive: deepDive).filter { area.phases.contains($0.number) }.flatMap(\.signals)
  }

  /// Each area's level from the learner's marks.
  func levels(marks: [String: Bool], seed: UInt64) -> [String: DrillLevel] {
    levels(marks: marks, deepDive: deepDive(seed: seed))
  }

  /// Each area's level from the marks of a run whose deep dive is `deepDive`.
  func levels(marks: [String: Bool], deepDive: String?) -> [String: DrillLevel] {
    Dictionary(uniqueKeysWithValues: areas.map { ($0.name, DrillLevel.of(signals(of: $0, deepDive: deepDive), marks: marks)) })
  }

  /// Every signal of the drill, deep-dive options and communication included, by id.
  var allSignals: [DrillSignal] { phases.flatMap(\.signals) + communication }
}

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
/// the same seed draws the same deep dive and pushback questions on every platform, so `SEED=`
/// repeats a round.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
