/// Tells an operation whose cost stays flat as a structure grows (O(1), or O(log n) over a narrow
/// range) from one whose cost grows with it (O(n)), by timing, so that a complexity promise in a
/// chapter's requirements can be graded.
///
/// The check times each named operation on a structure of `baselineSize` elements, then on each
/// of `sizes`, and fails as soon as one costs more than `allowedGrowth` times its baseline. Three
/// things keep load out of the verdict:
/// - each figure is the fastest of up to `rounds` rounds, so a moment of a busy machine does not
///   count;
/// - a size fails only when it grew in each of `attempts` attempts, each against a fresh baseline
///   measured just before it;
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
/// if let failure = verdict.message(advice: "Look the key up in the dictionary.") { Issue.record(failure) }
/// ```
public struct GrowthCheck: Sendable {
  /// What `run`'s closure builds for one size.
  public enum Workload {
    /// A structure of the size asked for, and one round of timed calls on it (`timer.time` once
    /// per operation). The round is called up to `rounds` times on the same structure, so it
    /// must leave the structure at its size.
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

  /// - Parameters:
  ///   - allowedGrowth: 20 by default: 7× above the worst an O(1) structure showed from 100 to
  ///     100,000 elements on a loaded 2-core machine, and 3× below the least an O(n) one grew.
  public init(
    baselineSize: Int = 100, sizes: [Int], allowedGrowth: Double = 20, unit: String,
    attempts: Int = 3, rounds: Int = 7
  ) {
    self.baselineSize = baselineSize
    self.sizes = sizes
    self.allowedGrowth = allowedGrowth
    self.unit = unit
    self.attempts = attempts
    self.rounds = rounds
  }

  /// Measures the baseline, then each size in order, and stops at the first that grew.
  public func run(_ prepare: (Int) async -> Workload) async -> GrowthVerdict {
    var report: [String] = []
    func failed(_ text: String, grew: Bool = false) -> GrowthVerdict {
      GrowthVerdict(report: report, failure: text, grew: grew, allowedGrowth: allowedGrowth)
    }
    var baseline: OperationCosts
    switch await measure(baselineSize, ceiling: nil, prepare) {
    case .failure(let why): return failed(why.text)
    case .success(let costs): baseline = costs
    }
    report.append("\(baselineSize) \(unit): \(baseline)")
    for size in sizes {
      var costs = baseline
      for attempt in 0..<max(attempts, 1) {
        if attempt > 0, case .success(let fresh) = await measure(baselineSize, ceiling: nil, prepare) {
          baseline = fresh
        }
        switch await measure(size, ceiling: baseline.scaled(by: allowedGrowth), prepare) {
        case .failure(let why): return failed(why.text)
        case .success(let measured): costs = measured
        }
        if costs.growth(over: baseline).allSatisfy({ $0.factor <= allowedGrowth }) { break }
      }
      report.append("\(size) \(unit): \(costs) (against \(baseline) at \(baselineSize))")
      let grown = costs.growth(over: baseline).filter { $0.factor > allowedGrowth }
      if !grown.isEmpty {
        let which = grown.map { "\($0.operation) costs \(whole($0.factor))× or more what it cost at \(baselineSize) \(unit)" }
        return failed("At \(size) \(unit), \(which.joined(separator: "; ")); a flat cost stays within \(whole(allowedGrowth))×.", grew: true)
      }
    }
    return GrowthVerdict(report: report, failure: nil, grew: false, allowedGrowth: allowedGrowth)
  }

  private struct SetupFailure: Error { var text: String }

  private func measure(
    _ size: Int, ceiling: OperationCosts?, _ prepare: (Int) async -> Workload
  ) async -> Result<OperationCosts, SetupFailure> {
    switch await prepare(size) {
    case .broken(let why):
      return .failure(SetupFailure(text: why))
    case .ready(let round):
      var timer = CostTimer(ceiling: ceiling)
      for _ in 0..<max(rounds, 1) {
        await round(&timer)
        if ceiling != nil, timer.fitsUnderCeiling { break }
      }
      return .success(timer.fastest)
    }
  }
}

/// Times the calls of one round, operation by operation, and keeps each operation's fastest round.
public struct CostTimer {
  let ceiling: OperationCosts?
  public private(set) var fastest = OperationCosts()
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
    let units = Double(max(units, 1))
    let budget = ceiling?[operation].map { $0 * Double(calls) * units } ?? .infinity
    let start = clock.now
    var made = 0
    for index in 0..<calls {
      await call(index)
      made += 1
      if made % 8 == 0, Self.nanoseconds(start.duration(to: clock.now)) > budget { break }
    }
    guard made > 0 else { return }
    let perCall = Self.nanoseconds(start.duration(to: clock.now)) / (Double(made) * units)
    fastest.record(operation, min(fastest[operation] ?? .infinity, perCall))
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

  func scaled(by factor: Double) -> OperationCosts {
    var scaled = self
    for name in operations { scaled.values[name] = values[name].map { $0 * factor } }
    return scaled
  }

  /// Each operation's cost divided by its cost in `baseline`.
  public func growth(over baseline: OperationCosts) -> [(operation: String, factor: Double)] {
    operations.map { name in (name, (values[name] ?? .infinity) / (baseline[name] ?? .infinity)) }
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

  /// The failure; when an operation grew, then `advice` (what to change) and the measurements.
  /// nil when it passed.
  public func message(advice: String) -> String? {
    guard let failure else { return nil }
    guard grew else { return failure }
    return "\(failure) \(advice) Fastest round of each:\n\(report.joined(separator: "\n"))"
  }
}
