import Foundation

/// The limits a drill written as a round is held to (rule `extras`; CONTRIBUTING.md, "Drills").
enum DrillRoundLimits {
  /// A 45-minute round leaves 35 to 40 for the design once introductions and questions are timed.
  static let designMinutes = 35...40
  /// The whole round, introductions and questions included.
  static let roundMinutes = 40...50
  /// Introductions and the candidate's questions each get a slot of this many minutes.
  static let bookendMinutes = 2...7
  /// Distinct phase numbers at least (requirements, design, a deep dive, the staff phase…).
  static let phases = 5
  /// Deep-dive options: the interviewer chooses one of two or three.
  static let options = 2...3
  /// Per phase and for communication: the least of each kind of signal. Every area needs a
  /// judgment signal, or it could never reach staff; bonus signals are optional depth.
  static func least(_ kind: DrillSignal.Kind) -> Int {
    switch kind {
    case .mustHit: 2
    case .judgment: 1
    case .bonus: 0
    }
  }
  /// The last phase's title starts so: build versus buy, boundaries, migration, rollout, SLOs, cost.
  static let staffPrefix = "Staff"
}

extension Checker {
  /// A round: its timed slots, a deep dive of two or three options of one length, signals with
  /// cues under every phase and under `## Communication`, a pushback bank with a question for each
  /// phase, a rubric whose rows say what a senior answer shows and what a staff answer adds and
  /// together cover every phase once, and red flags. A `shown by` cell is optional and, when
  /// present, held to the older format's rules; no row may rest on the timer.
  func roundProblems(_ relative: String, _ round: DrillRound, text: String, owner: DrillOwner) -> [Problem] {
    var found: [Problem] = []
    func problem(_ message: String) { found.append(Problem(rule: .extras, message: "\(relative): \(message)")) }
    let sections = markdownSections(text: text)
    for section in sections where section.heading.first?.isNumber == true && DrillRound.phase(section) == nil {
      problem("line \(section.line): “\(section.heading)” is not a phase heading; write `## N. Title — M min` or `## 4a. …`")
    }
    if !DrillRoundLimits.bookendMinutes.contains(round.introductions.minutes) {
      problem("introductions get \(round.introductions.minutes) min; give them \(range(DrillRoundLimits.bookendMinutes)) minutes")
    }
    if let questions = round.questions {
      if !DrillRoundLimits.bookendMinutes.contains(questions.minutes) {
        problem("the candidate's questions get \(questions.minutes) min; give them \(range(DrillRoundLimits.bookendMinutes)) minutes")
      }
    } else {
      problem("no `## \(DrillRound.questionsHeading) — M min` section: a round keeps time for the candidate's questions")
    }
    let numbers = Set(round.phases.map(\.number))
    if numbers.count < DrillRoundLimits.phases {
      problem("\(numbers.count) design phases; a round has at least \(DrillRoundLimits.phases)")
    }
    let options = round.options
    let optionNumbers = Set(options.map(\.number))
    if optionNumbers.count != 1 || !DrillRoundLimits.options.contains(options.count) {
      problem(
        "the deep dive is one phase number with \(range(DrillRoundLimits.options)) lettered options (`## 4a.`, `## 4b.`); "
          + "found \(options.map(\.label).joined(separator: ", ").ifEmpty("none"))")
    }
    if Set(options.map(\.minutes)).count > 1 {
      problem("the deep-dive options differ in length (\(options.map { "\($0.label): \($0.minutes)" }.joined(separator: ", "))); give them one")
    }
    if let number = optionNumbers.first, round.phases.contains(where: { $0.number == number && $0.option == nil }) {
      problem("phase \(number) is both a deep-dive option and a plain phase")
    }
    if !DrillRoundLimits.designMinutes.contains(round.designMinutes) {
      problem(
        "the design phases add up to \(round.designMinutes) minutes with one deep dive; a 45-minute round leaves "
          + "\(range(DrillRoundLimits.designMinutes)) after introductions and questions: change the time boxes")
    }
    if !DrillRoundLimits.roundMinutes.contains(round.minutes) {
      problem("the round takes \(round.minutes) minutes in all; it runs \(range(DrillRoundLimits.roundMinutes))")
    }
    if let last = round.phases.max(by: { $0.number < $1.number }), !last.title.hasPrefix(DrillRoundLimits.staffPrefix) {
      problem(
        "the last phase, “\(last.title)”, is not the staff phase; end with `## N. \(DrillRoundLimits.staffPrefix): …` on build "
          + "versus buy, module and team boundaries, migration, rollout and kill switch, SLOs and cost")
    }
    for section in sections {
      let place: String
      if let phase = DrillRound.phase(section) {
        place = "phase \(phase.label)"
      } else if section.heading == "Communication" {
        place = "`## Communication`"
      } else {
        continue
      }
      let label = DrillRound.phase(section)?.label ?? "communication"
      let parts = subsections(section.body)
      for kind in DrillSignal.Kind.allCases {
        let name = kind.heading
        let least = DrillRoundLimits.least(kind)
        let list = parts.first { $0.heading == name }?.body ?? ""
        let bullets = DrillRound.bullets(list)
        let signals = DrillSignal.parse(list, phase: label, kind: kind)
        if signals.count < least {
          problem("\(place) has \(signals.count) under `### \(name)`; write at least \(least), each `- **Cue**: what the answer says`")
        }
        for bullet in bullets where !bullet.hasPrefix("**") || !bullet.contains("**:") {
          problem("\(place), `### \(name)`: “\(bullet.prefix(50))…” has no cue; start it `**Cue**: `, the words the learner marks")
        }
      }
    }
    if round.communication.isEmpty && !sections.contains(where: { $0.heading == "Communication" }) {
      problem("no `## Communication` section: communication is marked from signals, not shown by a timer")
    }
    var seen: Set<String> = []
    for signal in round.allSignals where !seen.insert(signal.id).inserted {
      problem("two signals of \(signal.phase) have the cue “\(signal.cue)”; each cue names one signal")
    }
    if round.pushback.count < numbers.count {
      problem("the `## Pushback` bank has \(round.pushback.count) questions; it needs one for each of the \(numbers.count) phases")
    }
    if round.areas.isEmpty {
      problem("no rubric rows; write `| area | phases | senior answer shows | staff answer adds | shown by |`")
    }
    var covered: [Int: [String]] = [:]
    for area in round.areas {
      if area.senior.isEmpty || area.staff.isEmpty {
        problem("the rubric row “\(area.name)” needs what a senior answer shows and what a staff answer adds")
      }
      for number in area.phases {
        covered[number, default: []].append(area.name)
        if !numbers.contains(number) { problem("the rubric row “\(area.name)” names phase \(number), which does not exist") }
      }
      if area.shownBy == DrillLimits.timerRow {
        problem("the rubric row “\(area.name)” is shown by the timer; a timer shows time kept, not communication: mark signals")
      }
    }
    for number in numbers.sorted() where covered[number]?.count != 1 {
      let rows = covered[number] ?? []
      problem("phase \(number) is scored by \(rows.isEmpty ? "no rubric row" : rows.joined(separator: " and ")); one row scores each phase")
    }
    if round.areas.filter(\.isCommunication).count != 1 {
      problem("one rubric row has `communication` in its phases column; it is marked from `## Communication`")
    }
    let cells = round.areas.filter { ![nil, "", DrillLimits.timerRow, DrillLimits.notBuiltHere].contains($0.shownBy) }.map {
      DrillCommand.Area(name: $0.name, points: 0, fullMarks: $0.senior, shownBy: $0.shownBy)
    }
    if !cells.isEmpty { found += shownByProblems(relative, cells, owner: owner) }
    if round.redFlags.isEmpty { problem("no `## Red flags` section, or it is empty") }
    found += scenarioProblems(relative, round)
    return found
  }

  /// The drill's `scenarios.json`, when it has one, against its round (`DrillScenarios.problems`).
  func scenarioProblems(_ relative: String, _ round: DrillRound) -> [Problem] {
    let folder = (relative as NSString).deletingLastPathComponent
    let shown = "\(folder)/\(DrillScenarios.fileName)"
    do {
      guard let scenarios = try DrillScenarios.load(folder: folder, root: root) else { return [] }
      var found = scenarios.problems(round: round).map { Problem(rule: .extras, message: "\(shown): \($0)") }
      for level in [DrillLevel.senior, .staff] {
        let file = "\(folder)/\(DrillExemplars.folder)/\(DrillExemplars.fileName(level))"
        for message in DrillExemplars.problems(path(file, in: root), level: level, round: round, scenarios: scenarios, drillFile: relative) {
          found.append(Problem(rule: .extras, message: "\(file): \(message)"))
        }
      }
      return found
    } catch {
      return [Problem(rule: .extras, message: "\(error)")]
    }
  }

  private func range(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound) to \(range.upperBound)" }
}

extension String {
  fileprivate func ifEmpty(_ other: String) -> String { isEmpty ? other : self }
}
