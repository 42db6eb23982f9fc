import Foundation

/// Checks a component against an executable model: random sequences of operations, drawn from a
/// seed, run on both, and after every step the two must agree on everything the promises mention.
///
/// The model is small enough to be obviously right (a store is a `Dictionary`, an LRU cache an
/// array ordered by use). The operations include what the world does where a seam reaches the
/// component: a write that fails on a full disk (`FaultyDisk`), a relaunch, a clock that jumps
/// (`ManualClock`), inputs at each stated limit and one past it, strings that need escaping
/// (see `SeededRandom`'s `boundary(_:)` and `awkwardString()`). Nothing waits on the wall clock.
///
/// On a disagreement the check shrinks the sequence: it drops halves, quarters, … and finally
/// single steps while the rest keeps failing (delta debugging, which finds a sequence no single
/// step can be taken out of, not always the shortest of all), and its `Failure`
/// prints that sequence as numbered steps, the seed, what the model expected and what the component
/// did. Seeds run in order and the first failing one is reported, and shrinking is deterministic,
/// so `SEED=n` (read by `seeds(default:)`, as chapter 7's convergence test reads it) replays the
/// same seed to the same shrunk sequence.
///
/// ```swift
/// let check = ModelCheck<StoreStep, [Int: Int], DataStore<Int, Int>>(
///   "DataStore against a Dictionary", replay: "make chapter-1 EXERCISE=1",
///   generate: { random in StoreStep.random(using: &random) },
///   model: { [:] }, system: { DataStore() },
///   step: { step, model, store, check in
///     switch step {
///     case .set(let value, let key): await store.set(value, for: key); model[key] = value
///     case .get(let key): check.same("the value", model: model[key], component: await store.get(key))
///     }
///     check.same("count", model: model.count, component: await store.count)
///   })
/// if let failure = await check.run() { Issue.record("\(failure)") }
/// ```
public struct ModelCheck<Operation: CustomStringConvertible, Model, System> {
  /// What is checked, for the message: "DataStore against a Dictionary".
  public var name: String
  /// The seeds to try, in order: the range given, or the one seed `SEED=` names.
  public var seeds: ClosedRange<UInt64>
  /// How many operations a seed's sequence has.
  public var steps: Int
  /// The command that grades this test, printed after `SEED=n` in a failure.
  public var replay: String
  /// At most this many runs are spent shrinking one failure (each run is one sequence, fresh).
  public var shrinkBudget: Int

  private let generate: (inout SeededRandom) -> Operation
  private let makeModel: () -> Model
  private let makeSystem: () async throws -> System
  private let step: (Operation, inout Model, System, inout Agreement) async throws -> Void
  private let tearDown: (System) async -> Void

  /// - Parameters:
  ///   - seeds: the seeds a run tries; `SEED=n` in `environment` replaces them with `n` alone.
  ///   - generate: draws one operation; it sees only the random source (keep it free of state of
  ///     its own), so a sequence is a function of its seed, and any part of it can run on its own
  ///     while shrinking.
  ///   - model: a fresh model, for each run.
  ///   - system: a fresh component (and whatever world it lives in), for each run.
  ///   - step: applies one operation to both, then compares through `Agreement`. An error thrown
  ///     out of it is a disagreement (catch the errors the model predicts and compare them).
  ///   - tearDown: releases what `system` made (a temporary folder), after each run.
  public init(
    _ name: String, seeds: ClosedRange<UInt64> = 1...100, steps: Int = 50,
    replay: String, shrinkBudget: Int = 2_000, environment: [String: String] = ProcessInfo.processInfo.environment,
    generate: @escaping (inout SeededRandom) -> Operation,
    model: @escaping () -> Model,
    system: @escaping () async throws -> System,
    step: @escaping (Operation, inout Model, System, inout Agreement) async throws -> Void,
    tearDown: @escaping (System) async -> Void = { _ in }
  ) {
    self.name = name
    self.seeds = Self.seeds(default: seeds, environment: environment)
    self.steps = steps
    self.replay = replay
    self.shrinkBudget = shrinkBudget
    self.generate = generate
    self.makeModel = model
    self.makeSystem = system
    self.step = step
    self.tearDown = tearDown
  }

  /// `SEED=n` in the environment gives `n...n`, so one failing seed can be replayed; otherwise
  /// `fallback`. The environment is a parameter so that the rule can be tested.
  public static func seeds(
    default fallback: ClosedRange<UInt64>, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> ClosedRange<UInt64> {
    if let text = environment["SEED"], let seed = UInt64(text) { return seed...seed }
    return fallback
  }

  /// The operations of `seed`, in order: the same on every run and every platform.
  public func operations(seed: UInt64) -> [Operation] {
    var random = SeededRandom(seed: seed)
    return (0..<steps).map { _ in generate(&random) }
  }

  /// Runs every seed until one fails, and returns that failure shrunk, or nil when all agree.
  public func run() async -> Failure? {
    for seed in seeds {
      let operations = operations(seed: seed)
      guard let found = await firstDisagreement(in: operations) else { continue }
      let failing = Array(operations[...found.step])
      let shrunk = await shrink(failing)
      // Run once more for the message; a sequence that fails only sometimes says so.
      let final = await firstDisagreement(in: shrunk)
      let problems =
        final?.problems
        ?? found.problems.map {
          "\($0) (at step \(found.step + 1) of the whole sequence; the shrunk steps then agreed once: does a verdict depend on more than the steps?)"
        }
      return Failure(
        name: name, seed: seed, passedBefore: seed - seeds.lowerBound, originalLength: failing.count,
        steps: shrunk.map(\.description), failingStep: final?.step ?? shrunk.count - 1, problems: problems, replay: replay)
    }
    return nil
  }

  /// Where a run of `operations` first disagrees, and how.
  public func firstDisagreement(in operations: [Operation]) async -> (step: Int, problems: [String])? {
    var model = makeModel()
    let system: System
    do {
      system = try await makeSystem()
    } catch {
      return (0, ["the component could not be made: \(error)"])
    }
    var found: (step: Int, problems: [String])?
    for (index, operation) in operations.enumerated() {
      var agreement = Agreement()
      do {
        try await step(operation, &model, system, &agreement)
      } catch {
        agreement.problems.append("\(operation) threw \(error), which the model did not expect")
      }
      if !agreement.problems.isEmpty {
        found = (index, agreement.problems)
        break
      }
    }
    await tearDown(system)
    return found
  }

  /// The shortest sequence that still fails that this finds: drop chunks of half the sequence,
  /// then quarters, down to single steps, keeping every drop after which the rest still fails
  /// (cut at its new first failure), as delta debugging does.
  private func shrink(_ failing: [Operation]) async -> [Operation] {
    var current = failing
    var runs = 0
    var chunk = max(1, current.count / 2)
    while runs < shrinkBudget {
      var start = 0
      var dropped = false
      while start < current.count, runs < shrinkBudget {
        var candidate = current
        candidate.removeSubrange(start..<min(start + chunk, current.count))
        runs += 1
        if !candidate.isEmpty, let found = await firstDisagreement(in: candidate) {
          current = Array(candidate[...found.step])
          dropped = true
        } else {
          start += chunk
        }
      }
      if chunk == 1 && !dropped { break }
      if !dropped { chunk = max(1, chunk / 2) }
      chunk = min(chunk, max(1, current.count / 2))
    }
    return current
  }

  /// A seed whose sequence broke the model, shrunk, and what broke.
  public struct Failure: Error, CustomStringConvertible {
    public var name: String
    public var seed: UInt64
    /// How many seeds before this one agreed.
    public var passedBefore: UInt64
    /// How long the failing sequence was before shrinking (up to its first disagreement).
    public var originalLength: Int
    /// The shrunk sequence, one operation a line.
    public var steps: [String]
    /// The index in `steps` of the step that disagreed (the last one).
    public var failingStep: Int
    /// What the model expected and what the component did, one line each.
    public var problems: [String]
    public var replay: String

    /// What disagreed comes first and the steps after it: the grader shows a learner the first
    /// lines of a message, and the `modelCheckMarker` in the first line lets it show all of this one.
    public var description: String {
      let list = steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n")
      return """
        \(name): SEED=\(seed) \(Self.modelCheckMarker) at step \(failingStep + 1) of the \(steps.count) below, \
        shrunk from its first \(originalLength) (\(passedBefore) seed\(passedBefore == 1 ? "" : "s") before it agreed). \
        Replay: SEED=\(seed) \(replay)
        \(problems.map { "  - \($0)" }.joined(separator: "\n"))
        \(list)
        """
    }

    /// The words after the seed in a failure's first line; the grader looks for them.
    public static var modelCheckMarker: String { "disagrees with the model" }
  }
}

/// What one step found: each comparison between the model and the component that failed.
public struct Agreement {
  /// One line per disagreement, saying what was compared, what the model expected and what the
  /// component did.
  public var problems: [String] = []

  public init() {}

  /// Compares `what` as the model has it with the component's; a difference is a problem.
  public mutating func same<Value: Equatable>(_ what: String, model: Value, component: Value) {
    if model != component {
      problems.append("\(what): the model expected \(Self.show(model)), the component gave \(Self.show(component))")
    }
  }

  /// Records a problem the step found itself.
  public mutating func fail(_ problem: String) {
    problems.append(problem)
  }

  /// A value as a learner would write it: an optional without `Optional(…)`, a string quoted.
  public static func show(_ value: Any) -> String {
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional {
      guard let wrapped = mirror.children.first?.value else { return "nil" }
      return show(wrapped)
    }
    if let text = value as? String { return text.debugDescription }
    return String(describing: value)
  }

  /// An optional as `show(_:)` writes it, taken as an optional: passing one where `Any` is
  /// expected is a coercion the compiler warns about.
  public static func show<Wrapped>(_ value: Wrapped?) -> String {
    guard let value else { return "nil" }
    return show(value as Any)
  }
}
