import Testing
import WorkbookTesting

/// One step of a model-based test: the same random operations run on a store and on a plain
/// `Dictionary`, and the two must agree after every step.
enum StoreOperation: CustomStringConvertible {
  case set(Int, Int)
  case remove(Int)
  case get(Int)
  case removeAll
  case replaceAll([Int: Int])

  var description: String {
    switch self {
    case .set(let key, let value): "set(\(value), for: \(key))"
    case .remove(let key): "remove(\(key))"
    case .get(let key): "get(\(key))"
    case .removeAll: "removeAll()"
    case .replaceAll(let values): "replaceAll(with: \(values.count) values)"
    }
  }

  /// A reproducible sequence of `count` operations over a few keys, so keys collide often.
  static func sequence(seed: UInt64, count: Int, includeBulk: Bool = true) -> [StoreOperation] {
    var random = SeededRandom(seed: seed)
    return (0..<count).map { _ in
      let key = Int.random(in: 0..<8, using: &random)
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<45: return .set(key, Int.random(in: 0..<1_000, using: &random))
      case 45..<70: return .remove(key)
      case 70..<96: return .get(key)
      case 96..<98 where includeBulk: return .removeAll
      case 98..<100 where includeBulk:
        return .replaceAll([key: 1, key + 1: 2])
      default: return .get(key)
      }
    }
  }
}

/// The seeds every model-based test runs; a failure names the seed and the step.
let modelSeeds: [UInt64] = [1, 2, 3, 42, 2_026]

/// Runs the random operations of `seed` (no bulk ones) on a store and on a `Dictionary` side by
/// side, and records an issue at the first step where the two disagree. `remove` returns what
/// the store's `remove` returned, or nil for a store whose `remove` returns nothing (then
/// `removeReturnsTheValue` is false); `count`, when given, is compared after every step.
func expectAgreesWithADictionary(
  seed: UInt64, set: (_ value: Int, _ key: Int) -> Void, remove: (Int) -> Int?, removeReturnsTheValue: Bool,
  get: (Int) -> Int?, count: (() -> Int)? = nil, snapshot: () -> [Int: Int],
  sourceLocation: SourceLocation = #_sourceLocation
) {
  var model: [Int: Int] = [:]
  for (step, operation) in StoreOperation.sequence(seed: seed, count: 400, includeBulk: false).enumerated() {
    let place = "seed \(seed), step \(step): \(operation)"
    switch operation {
    case .set(let key, let value):
      set(value, key)
      model[key] = value
    case .remove(let key):
      let removed = remove(key)
      let expected = model.removeValue(forKey: key)
      if removeReturnsTheValue && removed != expected {
        Issue.record("\(place) returned \(String(describing: removed)); a Dictionary returns \(String(describing: expected))", sourceLocation: sourceLocation)
        return
      }
    case .get(let key):
      let value = get(key)
      if value != model[key] {
        Issue.record("\(place) returned \(String(describing: value)); a Dictionary returns \(String(describing: model[key]))", sourceLocation: sourceLocation)
        return
      }
    case .removeAll, .replaceAll:
      break
    }
    if let count, count() != model.count {
      Issue.record("\(place): count is \(count()), a Dictionary has \(model.count)", sourceLocation: sourceLocation)
      return
    }
  }
  #expect(snapshot() == model, "seed \(seed): the final snapshot should equal the model", sourceLocation: sourceLocation)
}
