/// Tells an operation whose cost stays flat as a structure grows (O(1), or O(log n) over a narrow
/// range) from one whose cost grows with it (O(n)), by timing, so that a complexity promise in a
/// chapter's requirements can be graded.
///
/// The check times each named operation on a structure of `baselineSize` elements, then on each
/// of `sizes` (at least two, each larger than the one before), and fails as soon as one costs
/// more than `allowedGrowth` times its baseline. A ratio means something only if each size did the
/// same work, so every round reports it: the operations timed, how many calls each, and, when a
/// call's work can vary (a scroll that may find no rows), the units of work each call did. The
/// check refuses to compare sizes whose work differs: that is a fault of the test, and its message
/// says so. Five things keep load and noise out of the verdict:
/// - each figure is the fastest of up to `rounds` rounds, so a moment of a busy machine does not
///   count;
/// - a size fails only when it grew in each of `attempts` attempts, each against a baseline
///   measured again just before it;
/// - the baseline is the cheapest of every baseline measured so far, and the first is measured
///   twice: a slow baseline (a cold first run, a busy moment) only ever lowers a ratio, so it
///   would let a cost that grows pass, while load can only make a measurement dearer;
/// - a baseline is never taken below `floor` nanoseconds a call, so that a call too cheap to time
///   at the smallest size cannot turn a flat cost into a large ratio;
/// - the threshold sits far from both sides on a log scale: from 100 to 100,000 elements a hash
///   table or a linked list stays within 1–3× (a bigger table misses the processor's caches more
///   often), while a walk over the elements grows 60–1,000×.
///
/// A round of an operation stops as soon as it has cost more than its ceiling allows its calls,
/// and the rounds end once every operation has had a round under its ceiling, so a wrong answer
/// fails about as fast as a right one passes.
///
/// ```swift
/// let verdict = await GrowthCheck(sizes: [1_000, 100_000], unit: "entries").run { size in
///   let store = fill(size)
///   let keys = randomKeys(200)
///   return .ready { timer in
///     await timer.time("get", calls: keys.count) { index in _ = store.get(keys[index]) }
///   }
/// }
/// if let failure = verdict.message(possibleCauses: ["a get that scans the entries"]) { Issue.record(failure) }
/// ```
public struct GrowthCheck: Sendable {
  /// What `run`'s closure builds for one size.
  public enum Workload {
    /// A structure of the size asked for, and one round of timed calls on it (`timer.time` once
    /// per operation). The round is called up to `rounds` times on the same structure, so it
    /// must leave the structure at its size, and it must do the same work at every size.
    case ready((inout CostTimer) async -> Void)
    /// The structure did not hold what it was given; the text says what was expected.
    case broken(String)
  }

  public var baselineSize: Int
  public var sizes: [Int]
  public var allowedGrowth: Double
  /// What the sizes count, for messages: "entries", "elements", "posts".
  public var unit: String
  public var attempts: Int
  public var rounds: Int
  /// The least cost a baseline is taken to have, in nanoseconds a call (or a unit).
  public var floor: Double

  /// - Parameters:
  ///   - allowedGrowth: 20 by default: 7× above the worst an O(1) structure showed from 100 to
  ///     100,000 elements on a loaded 2-core machine, and 3× below the least an O(n) one grew.
  ///   - floor: 50 ns by default: above a dictionary lookup (20–40 ns on Linux), whose own
  ///     cost is mostly the timer's noise, and far below a walk of 10,000 elements (microseconds).
  public init(
    baselineSize: Int = 100, sizes: [Int], allowedGrowth: Double = 20, unit: String,
    attempts: Int = 3, rounds: Int = 7, floor: Double = 50
  ) {
    self.baselineSize = baselineSize
    self.sizes = sizes
    self.allowedGrowth = allowedGrowth
    self.unit = unit
    self.attempts = attempts
    self.rounds = rounds
    self.floor = floor
  }

  /// Measures the baseline, then each size in order, and stops at the first that grew or that
  /// did other work than the baseline. The workload's tasks and actors run on a thread of the
  /// check's own (`DedicatedThreadExecutor`), so a timed hop to an actor never waits behind the
  /// jobs of the tests running beside it; and `settle()` does not count those jobs: seconds of
  /// timing would otherwise keep every other test from settling.
  public func run(_ prepare: (Int) async -> Workload) async -> GrowthVerdict {
    Quiescence.install()
    let executor = DedicatedThreadExecutor(name: "growth check")
    defer { executor.finish() }
    return await withTaskExecutorPreference(executor) { await checkGrowth(prepare) }
  }

  private func checkGrowth(_ prepare: (Int) async -> Workload) async -> GrowthVerdict {
    var report: [String] = []
    func failed(_ text: String, grew: Bool = false) -> GrowthVerdict {
      GrowthVerdict(report: report, failure: text, grew: grew, allowedGrowth: allowedGrowth)
    }
    let ordered = zip([baselineSize] + sizes, sizes).allSatisfy { $0 < $1 }
    guard sizes.count >= 2, ordered, baselineSize > 0 else {
      return failed(
        "This growth check is set up wrong (a fault of the test, not of the code it grades): it needs "
          + "a baseline and at least two larger sizes, each larger than the one before; it was given "
          + "\(baselineSize) then \(sizes).")
    }
    var baseline: Measurement
    switch await measure(baselineSize, ceiling: nil, prepare) {
    case .failure(let why): return failed(why.text)
    case .success(let measured): baseline = measured
    }
    if case .success(let again) = await measure(baselineSize, ceiling: nil, prepare) {
      baseline.costs = baseline.costs.cheapest(with: again.costs)
    }
    report.append("\(baselineSize) \(unit): \(baseline.costs)")
    for size in sizes {
      var measured = baseline
      for attempt in 0..<max(attempts, 1) {
        if attempt > 0, case .success(let fresh) = await measure(baselineSize, ceiling: nil, prepare) {
          baseline.costs = baseline.costs.cheapest(with: fresh.costs)
        }
        let ceiling = baseline.costs.floored(at: floor).scaled(by: allowedGrowth)
        switch await measure(size, ceiling: ceiling, prepare) {
        case .failure(let why): return failed(why.text)
        case .success(let result): measured = result
        }
        if let unequal = baseline.work.difference(from: measured.work, baseline: baselineSize, size: size, unit: unit) {
          return failed(unequal)
        }
        if measured.costs.growth(over: baseline.costs, floor: floor).allSatisfy({ $0.factor <= allowedGrowth }) { break }
      }
      report.append("\(size) \(unit): \(measured.costs) (against \(baseline.costs) at \(baselineSize); \(measured.work))")
      let grown = measured.costs.growth(over: baseline.costs, floor: floor).filter { $0.factor > allowedGrowth }
      if !grown.isEmpty {
        let which = grown.map { "\($0.operation) cost \(whole($0.factor))× what it cost at \(baselineSize) \(unit)" }
        return failed(
          "At \(size) \(unit), \(which.joined(separator: "; ")) (fastest round of each, the same work at both "
            + "sizes, a baseline taken as at least \(whole(floor)) ns); a flat cost stays within \(whole(allowedGrowth))×.",
          grew: true)
      }
    }
    return GrowthVerdict(report: report, failure: nil, grew: false, allowedGrowth: allowedGrowth)
  }

  private struct SetupFailure: Error { var text: String }
  private struct Measurement {
    var costs: OperationCosts
    var work: Work
  }

  private func measure(
    _ size: Int, ceiling: OperationCosts?, _ prepare: (Int) async -> Workload
  ) async -> Result<Measurement, SetupFailure> {
    switch await prepare(size) {
    case .broken(let why):
      return .failure(SetupFailure(text: why))
    case .ready(let round):
      var timer = CostTimer(ceiling: ceiling)
      for _ in 0..<max(rounds, 1) {
        await round(&timer)
        if ceiling != nil, timer.fitsUnderCeiling { break }
      }
      return .success(Measurement(costs: timer.fastest, work: timer.work))
    }
  }
}

/// The work a workload's rounds did at one size, operation by operation: how many calls each
/// round asked for, and the units of work the calls reported, per call (and per unit of `time`'s
/// `units`). A growth check compares only sizes whose work is the same.
public struct Work: Sendable, CustomStringConvertible {
  struct Entry: Sendable, Equatable {
    var calls: Int
    /// Units of work reported, per call made and per unit of cost; nil when the calls report none.
    var reported: Double?
    /// Whether a later round at the same size asked for other calls or reported other work.
    var varied = false

    func matches(_ other: Entry) -> Bool {
      guard !varied, !other.varied, calls == other.calls else { return false }
      switch (reported, other.reported) {
      case (nil, nil): return true
      case (let a?, let b?): return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1)
      default: return false
      }
    }
  }
  private(set) var operations: [String] = []
  private var entries: [String: Entry] = [:]

  init() {}

  /// Records one round of `operation`.
  mutating func record(_ operation: String, _ entry: Entry) {
    guard let earlier = entries[operation] else {
      operations.append(operation)
      entries[operation] = entry
      return
    }
    if !earlier.matches(entry) { entries[operation]?.varied = true }
  }

  /// A maintainer's message when `other` (at `size`) did other work than this (at `baseline`).
  func difference(from other: Work, baseline: Int, size: Int, unit: String) -> String? {
    let differing = Set(operations).union(other.operations).sorted().filter { name in
      guard let mine = entries[name], let theirs = other.entries[name] else { return true }
      return !mine.matches(theirs)
    }
    guard !differing.isEmpty else { return nil }
    func describe(_ work: Work, _ name: String) -> String {
      work.entries[name].map(Self.describe) ?? "not timed"
    }
    let lines = differing.map { name in
      "\(name): \(describe(self, name)) at \(baseline) \(unit), \(describe(other, name)) at \(size) \(unit)"
    }
    return "This growth check compared unequal work, so its ratio would measure the workload rather than the "
      + "code (a fault of the test, not of the code it grades; please report it): "
      + lines.joined(separator: "; ") + ". Every size must time the same operations, the same number of calls, "
      + "each doing the same work."
  }

  static func describe(_ entry: Entry) -> String {
    if entry.varied { return "\(entry.calls) calls a round, with work that changed from round to round" }
    guard let units = entry.reported else { return "\(entry.calls) calls a round" }
    return "\(entry.calls) calls a round, \((units * 100).rounded() / 100) units of work each"
  }

  public var description: String {
    operations.compactMap { name in entries[name].map { "\(name): \(Self.describe($0))" } }.joined(separator: ", ")
  }
}

/// Times the calls of one round, operation by operation, and keeps each operation's fastest round.
public struct CostTimer {
  let ceiling: OperationCosts?
  public private(set) var fastest = OperationCosts()
  /// The work the rounds did, for the check to compare between sizes.
  public private(set) var work = Work()
  private let clock = ContinuousClock()

  init(ceiling: OperationCosts?) { self.ceiling = ceiling }

  /// Calls `call` with 0..<calls and records nanoseconds per call, unless an earlier round of
  /// `operation` was faster. With a ceiling, the round stops once it has spent more than the
  /// ceiling allows all its calls: it has failed, and finishing it would only take longer.
  ///
  /// - Parameter units: how many units of work one call does, when the promise is per unit: a
  ///   delivery to n observers promises a cost per observer, so it passes n, and the cost
  ///   recorded is per observer.
  public mutating func time(_ operation: String, calls: Int, units: Int = 1, _ call: (Int) async -> Void) async {
    await time(operation, calls: calls, units: units, reports: false) { index in
      await call(index)
      return 0
    }
  }

  /// Like `time`, for calls whose work can differ: each call returns the units of work it did
  /// (the rows a scroll covered, the observers a delivery reached), counted outside the time it
  /// costs where it can be, and the check compares that work between sizes before it compares
  /// costs. With `units`, each call's work is divided by `units`, so a delivery to n observers
  /// that reports n calls made does one unit of work per observer at every size.
  public mutating func timeWork(_ operation: String, calls: Int, units: Int = 1, _ call: (Int) async -> Int) async {
    await time(operation, calls: calls, units: units, reports: true, call)
  }

  private mutating func time(
    _ operation: String, calls: Int, units: Int, reports: Bool, _ call: (Int) async -> Int
  ) async {
    let perUnit = Double(max(units, 1))
    let budget = ceiling?[operation].map { $0 * Double(calls) * perUnit } ?? .infinity
    let start = clock.now
    var made = 0
    var done = 0
    for index in 0..<calls {
      done += await call(index)
      made += 1
      if made % 8 == 0, Self.nanoseconds(start.duration(to: clock.now)) > budget { break }
    }
    guard made > 0 else { return }
    let perCall = Self.nanoseconds(start.duration(to: clock.now)) / (Double(made) * perUnit)
    fastest.record(operation, min(fastest[operation] ?? .infinity, perCall))
    work.record(operation, Work.Entry(calls: calls, reported: reports ? Double(done) / (Double(made) * perUnit) : nil))
  }

  var fitsUnderCeiling: Bool {
    guard let ceiling else { return false }
    return ceiling.operations.allSatisfy { name in (fastest[name] ?? .infinity) <= (ceiling[name] ?? .infinity) }
  }

  static func nanoseconds(_ elapsed: Duration) -> Double {
    let (seconds, attoseconds) = elapsed.components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  }
}

/// Nanoseconds per call of each named operation, in the order they were first timed.
public struct OperationCosts: Sendable, CustomStringConvertible {
  public private(set) var operations: [String] = []
  private var values: [String: Double] = [:]

  public init() {}

  public subscript(operation: String) -> Double? { values[operation] }

  mutating func record(_ operation: String, _ nanoseconds: Double) {
    if values[operation] == nil { operations.append(operation) }
    values[operation] = nanoseconds
  }

  /// Each cost raised to at least `floor` nanoseconds.
  func floored(at floor: Double) -> OperationCosts {
    var floored = self
    for name in operations { floored.values[name] = values[name].map { max($0, floor) } }
    return floored
  }

  /// Each operation at the lower of its cost here and in `other`.
  func cheapest(with other: OperationCosts) -> OperationCosts {
    var cheapest = self
    for name in other.operations {
      cheapest.record(name, min(values[name] ?? .infinity, other[name] ?? .infinity))
    }
    return cheapest
  }

  func scaled(by factor: Double) -> OperationCosts {
    var scaled = self
    for name in operations { scaled.values[name] = values[name].map { $0 * factor } }
    return scaled
  }

  /// Each operation's cost divided by its cost in `baseline`, taken as at least `floor`.
  public func growth(over baseline: OperationCosts, floor: Double = 0) -> [(operation: String, factor: Double)] {
    operations.map { name in (name, (values[name] ?? .infinity) / max(baseline[name] ?? .infinity, floor)) }
  }

  public var description: String {
    operations.map { name in "\(name) \(whole(values[name] ?? .infinity)) ns" }.joined(separator: ", ")
  }
}

/// A cost or a ratio as a whole number, and "∞" for what cannot be one.
func whole(_ value: Double) -> String {
  value.isFinite && abs(value) < 1e15 ? String(Int(value.rounded())) : "∞"
}

/// What a `GrowthCheck` found: a line per size measured and, when one grew, what grew.
public struct GrowthVerdict: Sendable {
  /// "100 entries: get 35 ns, set 41 ns", one line per size.
  public var report: [String]
  /// nil when every operation stayed flat at every size.
  public var failure: String?
  /// Whether the failure is an operation that grew (rather than a structure that could not be
  /// built, which is the job of the exercise's other tests to explain).
  public var grew: Bool
  public var allowedGrowth: Double

  /// The failure; when an operation grew, then what could have made it grow (each a
  /// possibility, for the reader to check: the measurement cannot tell which) and the
  /// measurements. nil when it passed.
  public func message(possibleCauses: [String]) -> String? {
    guard let failure else { return nil }
    guard grew else { return failure }
    let causes =
      possibleCauses + [
        "a machine so busy that only the larger sizes were slowed (if the code does none of the above, run the test again)"
      ]
    return "\(failure) Possible causes: \(causes.joined(separator: "; ")). Fastest round of each:\n\(report.joined(separator: "\n"))"
  }
}
