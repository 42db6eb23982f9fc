import Testing
import WorkbookTesting

/// The harness every model-based test goes through: it must find a wrong component, shrink what
/// it found to the shortest failing sequence, and replay a seed exactly.
@Suite("WorkbookTesting — a component checked against a model", .timeLimit(.minutes(1)))
struct ModelCheckTests {
  /// A toy store's operations over four keys, so keys collide often.
  enum ToyStep: CustomStringConvertible, Equatable {
    case set(Int, key: Int)
    case remove(Int)
    case get(Int)

    var description: String {
      switch self {
      case .set(let value, let key): "set(\(value), for: \(key))"
      case .remove(let key): "remove(\(key))"
      case .get(let key): "get(\(key))"
      }
    }

    static func random(using random: inout SeededRandom) -> ToyStep {
      let key = Int.random(in: 0..<4, using: &random)
      switch Int.random(in: 0..<3, using: &random) {
      case 0: return .set(Int.random(in: 0..<10, using: &random), key: key)
      case 1: return .remove(key)
      default: return .get(key)
      }
    }
  }

  /// A dictionary-backed store; `forgetsSetsAfterRemove` makes it ignore a set of a key that
  /// was removed before (it keeps the tombstone), the mistake the harness must find.
  final class ToyStore {
    var storage: [Int: Int] = [:]
    var removed: Set<Int> = []
    let forgetsSetsAfterRemove: Bool

    init(forgetsSetsAfterRemove: Bool) { self.forgetsSetsAfterRemove = forgetsSetsAfterRemove }

    func set(_ value: Int, for key: Int) {
      if forgetsSetsAfterRemove && removed.contains(key) { return }
      storage[key] = value
    }

    func remove(_ key: Int) {
      removed.insert(key)
      storage[key] = nil
    }

    func get(_ key: Int) -> Int? { storage[key] }
  }

  static func check(wrong: Bool, seeds: ClosedRange<UInt64> = 1...100) -> ModelCheck<ToyStep, [Int: Int], ToyStore> {
    ModelCheck(
      "ToyStore against a Dictionary", seeds: seeds, steps: 50, replay: "swift test --filter ModelCheckTests", environment: [:],
      generate: { ToyStep.random(using: &$0) },
      model: { [:] }, system: { ToyStore(forgetsSetsAfterRemove: wrong) },
      step: { step, model, store, check in
        switch step {
        case .set(let value, let key):
          store.set(value, for: key)
          model[key] = value
        case .remove(let key):
          store.remove(key)
          model[key] = nil
        case .get(let key):
          check.same("\(step)", model: model[key], component: store.get(key))
        }
      })
  }

  @Test("a wrong component is caught and shrunk to its three-step minimum: remove, set, get of one key")
  func wrongComponentIsShrunk() async throws {
    let failure = try #require(await Self.check(wrong: true).run(), "the toy store that ignores a set after a remove passed")
    #expect(failure.steps.count == 3, "shrunk to \(failure.steps.count) steps, not 3:\n\(failure)")
    let key = try #require(failure.steps.first.flatMap { $0.hasPrefix("remove(") ? $0.dropFirst(7).dropLast() : nil })
    #expect(failure.steps[1].hasPrefix("set(") && failure.steps[1].hasSuffix("for: \(key))"), "\(failure)")
    #expect(failure.steps[2] == "get(\(key))", "\(failure)")
    #expect(failure.failingStep == 2)
    #expect(failure.originalLength >= 3)
    #expect(failure.problems.count == 1 && failure.problems[0].contains("the model expected"), "\(failure.problems)")
  }

  @Test("the failure prints the seed, the steps numbered, what the model expected and how to replay it")
  func failureIsReadable() async throws {
    let failure = try #require(await Self.check(wrong: true).run())
    let text = failure.description
    #expect(text.hasPrefix("ToyStore against a Dictionary: SEED=\(failure.seed) disagrees with the model at step 3 of the 3 below"), "\(text)")
    #expect(text.components(separatedBy: "\n")[1].hasPrefix("  - get("), "what disagreed comes right after the first line: \(text)")
    #expect(text.contains("  1. remove("), "\(text)")
    #expect(text.contains("  3. get("), "\(text)")
    #expect(text.contains("the model expected "), "\(text)")
    #expect(text.contains(", the component gave nil"), "\(text)")
    #expect(text.contains("Replay: SEED=\(failure.seed) swift test --filter ModelCheckTests"), "\(text)")
  }

  @Test("the same seed gives the same sequence, the same failure and the same shrunk steps")
  func sameSeedSameRun() async throws {
    let check = Self.check(wrong: true)
    #expect(check.operations(seed: 7).map(\.description) == check.operations(seed: 7).map(\.description))
    #expect(check.operations(seed: 7).map(\.description) != check.operations(seed: 8).map(\.description))
    let first = try #require(await check.run())
    let replayed = try #require(await Self.check(wrong: true, seeds: first.seed...first.seed).run())
    #expect(replayed.steps == first.steps)
    #expect(replayed.problems == first.problems)
    #expect(first.passedBefore == first.seed - 1, "seeds run in order, and the first failing one is reported")
  }

  @Test("a right component passes every seed")
  func rightComponentPasses() async {
    let failure = await Self.check(wrong: false).run()
    #expect(failure == nil, "\(failure.map(\.description) ?? "")")
  }

  @Test("SEED=n replays one seed; without it, or with a SEED that is not a number, the default range runs")
  func seedFromTheEnvironment() {
    let replayed = ModelCheck<ToyStep, Int, Int>(
      "-", seeds: 1...100, replay: "-", environment: ["SEED": "9"], generate: { ToyStep.random(using: &$0) },
      model: { 0 }, system: { 0 }, step: { _, _, _, _ in })
    #expect(replayed.seeds == 9...9)
    #expect(ModelCheck<ToyStep, Int, Int>.seeds(default: 1...100, environment: ["SEED": "42"]) == 42...42)
    #expect(ModelCheck<ToyStep, Int, Int>.seeds(default: 1...100, environment: [:]) == 1...100)
    #expect(ModelCheck<ToyStep, Int, Int>.seeds(default: 1...100, environment: ["SEED": "x"]) == 1...100)
  }

  @Test("an error thrown out of a step is a disagreement, and a value prints as a learner writes it")
  func thrownErrorDisagrees() async throws {
    struct Broke: Error {}
    let check = ModelCheck<ToyStep, Int, Int>(
      "throws", seeds: 1...1, steps: 5, replay: "-", environment: [:], generate: { ToyStep.random(using: &$0) },
      model: { 0 }, system: { 0 }, step: { step, _, _, _ in if case .get = step { throw Broke() } })
    let failure = try #require(await check.run())
    #expect(failure.steps.count == 1 && failure.problems[0].contains("threw Broke()"), "\(failure)")
    #expect(Agreement.show(Int?.some(3) as Any) == "3")
    #expect(Agreement.show(Int?.none as Any) == "nil")
    #expect(Agreement.show("a\"b") == #""a\"b""#)
  }
}
