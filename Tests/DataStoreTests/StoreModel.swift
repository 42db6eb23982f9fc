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
