import Foundation

/// A drill's scenarios and decision points, `scenarios.json` beside its `drill.md`. A phrase in an
/// answer proves that the rubric was read; a choice that flips with the constraints proves that the
/// constraints were. So each scenario states the numbers that matter (traffic, devices, team,
/// budgets, regulation, latency), each decision point asks the candidate to commit to one of a
/// stated set of choices and to give the estimates the choice rests on, and the scenario's key says
/// which choice fits it, which other choices it accepts when their cost and condition are said, what
/// one changed constraint does to the choice (`then`) and a change it survives (`hold`). `workbook check` holds the file to that shape
/// (`problems(round:)`), including that the right choice differs between scenarios and that, in
/// every scenario, each area with decisions has one whose change flips it: a candidate who gives
/// the same choices whatever the scenario cannot reach senior there.
struct DrillScenarios: Decodable, Equatable {
  /// A number a scenario gives: `dau`, "daily active users".
  struct Constraint: Decodable, Equatable {
    let id: String
    let says: String
  }

  /// A number the choice rests on, graded against the scenario's own arithmetic.
  struct Estimate: Decodable, Equatable {
    let id: String
    let question: String
    /// Over the scenario's constraints (`ScenarioFormula`).
    let formula: String
    let unit: String
    /// An answer counts when it is within this factor of the formula's value either way: 2 takes
    /// half to double, the precision of an estimate made aloud.
    let factor: Double
  }

  /// A point in the round where the candidate commits to a choice.
  struct Decision: Decodable, Equatable {
    let id: String
    /// The phase it is asked in (`2`, `4b`).
    let phase: String
    /// As the interviewer asks it, with the choices in it.
    let question: String
    let choices: [String]
    /// What this decision's costs and reasons are about, as words a cost or why line must contain
    /// one of (the start of a word: "socket" takes "sockets"): "battery", "server", "connection".
    /// Broad enough for any honest cost said in the candidate's own words, none of them generic
    /// ("trade-off", "constraint", "complexity"), so filler that names nothing of the choice fails.
    let topics: [String]
    let estimates: [Estimate]
    /// For the interviewer's kit: where to push when the candidate has chosen.
    let probe: String
    /// What a senior and a staff answer to this decision sound like.
    let senior: String
    let staff: String
  }

  /// A choice other than the key's that a scenario accepts, and what an answer must say for it to
  /// score: a candidate who keeps partner-free snapshots under a licence that bans partner photos
  /// has made a defensible call, not a wrong one, when they say what it costs and the condition it
  /// rests on.
  struct Alternative: Decodable, Equatable {
    let choice: String
    /// What the alternative costs, as the key (and the interviewer's kit) states it.
    let cost: String
    /// The condition the answer must name for the alternative to count, as words one of which the
    /// candidate's own cost (or, after a change, their why) contains: "partner" for snapshots kept
    /// without partner photos. A choice without its condition is a guess that happened to be open.
    let mentions: [String]

    /// Whether `text` (the candidate's cost or why) names the condition.
    func isArgued(by text: String?) -> Bool {
      let said = (text ?? "").lowercased()
      return mentions.contains { said.contains($0.lowercased()) }
    }
  }

  /// What a scenario expects of a decision: the choice that fits it, the others that score when
  /// their cost and condition are said, the same after one constraint changes (`then`, which moves
  /// the choice), and a second change that leaves the choice as it is (`hold`): both are asked, in
  /// an order drawn per scenario and decision, so a candidate who always says it changes misses and
  /// neither the number of changes asked nor their order gives the answer away.
  struct Key: Decodable, Equatable {
    struct Then: Decodable, Equatable {
      /// The one constraint changed, with its new value.
      let set: [String: Double]
      /// How the interviewer says the change: "the client team is now two engineers".
      let say: String
      let choice: String
      let because: String
      let accepted: [Alternative]?
    }

    /// A change the choice survives: the key's choice stands, for `because`.
    struct Hold: Decodable, Equatable {
      let set: [String: Double]
      let say: String
      let because: String
    }

    let choice: String
    let because: String
    /// Other choices this scenario accepts, each with the cost and condition an answer must state.
    let accepted: [Alternative]?
    let then: Then
    /// Every key has one (`workbook check`); optional so that a file being written still loads.
    let hold: Hold?

    /// A change the interviewer makes, as the candidate meets it: what is said, the choice that
    /// fits after it and why, the others it accepts, and whether it leaves the key's choice.
    struct Change: Equatable {
      let set: [String: Double]
      let say: String
      let choice: String
      let because: String
      let accepted: [Alternative]?
      let holds: Bool
    }

    /// The changes asked, in the order the round asks them: `then` and, for a key with a `hold`,
    /// the hold, first or second as `holdAskedFirst` draws for this scenario and decision, so that
    /// neither the first change nor the second is always the one that moves the choice.
    func changes(scenario: String, decision: String) -> [Change] {
      let moving = Change(set: then.set, say: then.say, choice: then.choice, because: then.because, accepted: then.accepted, holds: false)
      guard let hold else { return [moving] }
      // A change the choice survives leaves the scenario's call as it was: what it accepted, it still does.
      let kept = Change(set: hold.set, say: hold.say, choice: choice, because: hold.because, accepted: accepted, holds: true)
      return Self.holdAskedFirst(scenario: scenario, decision: decision) ? [kept, moving] : [moving, kept]
    }

    /// Whether the hold is asked before `then`: an FNV-1a hash of the two ids, fixed for the file
    /// (no seed, no clock), so an answers file stays valid and the order differs between decisions.
    static func holdAskedFirst(scenario: String, decision: String) -> Bool {
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      for byte in "\(scenario)/\(decision)".utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0100_0000_01b3
      }
      return hash % 2 == 0
    }

    /// The choices that score before the change, the key's first.
    var acceptedChoices: [String] { [choice] + (accepted ?? []).map(\.choice) }
    /// The choices that score after `then`, the key's first.
    var acceptedAfter: [String] { [then.choice] + (then.accepted ?? []).map(\.choice) }
  }

  /// A deep-dive option as this scenario ranks it, with the reason.
  struct Risk: Decodable, Equatable {
    let dive: String
    let because: String
  }

  struct Scenario: Decodable, Equatable {
    let id: String
    /// The scenario as the interviewer reads it out.
    let card: String
    let values: [String: Double]
    /// Every deep-dive option, riskiest first for this scenario: a candidate who picks the deep
    /// dive is graded on picking the top one.
    let risks: [Risk]
    let keys: [String: Key]
  }

  let constraints: [Constraint]
  let decisions: [Decision]
  let scenarios: [Scenario]

  static let fileName = "scenarios.json"

  /// The scenarios of `drill`; nil when it has none (the drill is marked by its signals alone).
  static func load(_ drill: Drill, root: String = ".") throws -> DrillScenarios? {
    try load(folder: drill.folder, root: root)
  }

  static func load(folder: String, root: String = ".") throws -> DrillScenarios? {
    let relative = "\(folder)/\(fileName)"
    guard let text = TextFile.read(path(relative, in: root)) else { return nil }
    do {
      return try JSONDecoder().decode(DrillScenarios.self, from: Data(text.utf8))
    } catch {
      throw Failure("\(relative) is not valid: \(error)")
    }
  }

  /// The scenario `seed` draws. A SplitMix draw rather than `seed % count`, so the scenario and the
  /// deep dive (`seed % options`) do not move in step.
  func scenario(seed: UInt64) -> Scenario {
    var generator = SeededGenerator(seed: seed)
    return scenarios[Int(generator.next() % UInt64(scenarios.count))]
  }

  func scenario(named id: String) -> Scenario? { scenarios.first { $0.id == id } }

  /// The decisions asked in a run whose deep dive is `deepDive`.
  func decisions(in round: DrillRound, deepDive: String?) -> [Decision] {
    let labels = Set(round.phases(deepDive: deepDive).map(\.label))
    return decisions.filter { labels.contains($0.phase) }
  }

  /// The rubric area a decision is graded in: the row whose phases hold the decision's phase number.
  func area(of decision: Decision, in round: DrillRound) -> DrillRound.Area? {
    let number = Int(decision.phase.prefix { $0.isNumber })
    return round.areas.first { !$0.isCommunication && number.map($0.phases.contains) == true }
  }

  /// The values after a key's change.
  static func changed(_ scenario: Scenario, by then: Key.Then) -> [String: Double] {
    changed(scenario, set: then.set)
  }

  static func changed(_ scenario: Scenario, set: [String: Double]) -> [String: Double] {
    scenario.values.merging(set) { _, new in new }
  }

  /// The scenario card: its story, then each constraint's value.
  func card(_ scenario: Scenario) -> String {
    var lines = [scenario.card, ""]
    for constraint in constraints {
      guard let value = scenario.values[constraint.id] else { continue }
      lines.append("  \(constraint.says): \(Self.shown(value))")
    }
    return lines.joined(separator: "\n")
  }

  /// 2000000 as `2,000,000`, 0.15 as `0.15`.
  static func shown(_ value: Double) -> String {
    // Arithmetic in binary leaves 2999999.9999999995 where 3,000,000 is meant.
    if abs(value - value.rounded()) <= 1e-9 * max(1, abs(value)), abs(value) < 1e15 {
      let value = value.rounded()
      let formatter = NumberFormatter()
      formatter.numberStyle = .decimal
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.usesGroupingSeparator = true
      formatter.groupingSeparator = ","
      formatter.groupingSize = 3
      return formatter.string(from: NSNumber(value: value)) ?? String(Int(value))
    }
    return String(format: "%g", value)
  }
}
