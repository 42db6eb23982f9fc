import WorkbookTesting

/// One call on a key-value store, for the model-based tests that hold a store to a `Dictionary`:
/// the plain calls, an update whose transform adds, removes, inserts or throws, and a transaction
/// made of several changes that may throw part-way.
enum DictionaryStep: CustomStringConvertible {
  case set(Int, key: Int)
  case remove(Int)
  case get(Int)
  case removeAll
  case replaceAll([Int: Int])
  case update(Int, Transform)
  /// Changes applied in order to the transaction's copy; with `throwingAfter`, the body throws
  /// once that many of them are made.
  case transaction([Change], throwingAfter: Int?)

  enum Transform: CustomStringConvertible {
    case add(Int)
    case returnNil
    case insertIfMissing(Int)
    case throwError

    func callAsFunction(_ value: Int?) throws -> Int? {
      switch self {
      case .add(let amount): return value.map { $0 + amount }
      case .returnNil: return nil
      case .insertIfMissing(let fresh): return value ?? fresh
      case .throwError: throw TransformFailed()
      }
    }

    var description: String {
      switch self {
      case .add(let amount): "{ $0.map { $0 + \(amount) } }"
      case .returnNil: "{ _ in nil }"
      case .insertIfMissing(let fresh): "{ $0 ?? \(fresh) }"
      case .throwError: "{ _ in throw TransformFailed() }"
      }
    }
  }

  enum Change: CustomStringConvertible {
    case set(Int, key: Int)
    case remove(Int)
    case add(Int, key: Int)

    func apply(to contents: inout [Int: Int]) {
      switch self {
      case .set(let value, let key): contents[key] = value
      case .remove(let key): contents[key] = nil
      case .add(let amount, let key): contents[key] = (contents[key] ?? 0) + amount
      }
    }

    var description: String {
      switch self {
      case .set(let value, let key): "$0[\(key)] = \(value)"
      case .remove(let key): "$0[\(key)] = nil"
      case .add(let amount, let key): "$0[\(key), default: 0] += \(amount)"
      }
    }
  }

  struct TransformFailed: Error {}

  /// Applies a transaction's changes to `contents`, throwing where the step says.
  static func run(_ changes: [Change], throwingAfter: Int?, on contents: inout [Int: Int]) throws -> Int {
    for (index, change) in changes.enumerated() {
      if index == throwingAfter { throw TransformFailed() }
      change.apply(to: &contents)
    }
    if throwingAfter == changes.count { throw TransformFailed() }
    return contents.count
  }

  var description: String {
    switch self {
    case .set(let value, let key): return "set(\(value), for: \(key))"
    case .remove(let key): return "remove(\(key))"
    case .get(let key): return "get(\(key))"
    case .removeAll: return "removeAll()"
    case .replaceAll(let values): return "replaceAll(with: \(values.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }))"
    case .update(let key, let transform): return "update(\(key)) \(transform)"
    case .transaction(let changes, let throwingAfter):
      let body = changes.map(\.description) + (throwingAfter.map { ["throw after \($0) change\($0 == 1 ? "" : "s")"] } ?? [])
      return "transaction { \(body.joined(separator: "; ")) }"
    }
  }

  /// A step over keys 0 to 5, so keys collide often. `calls` are the kinds the store has;
  /// `throwing` is false for a store whose update takes a transform that cannot throw.
  static func random(_ calls: Set<Kind>, throwing: Bool = true, using random: inout SeededRandom) -> DictionaryStep {
    func key() -> Int { Int.random(in: 0..<6, using: &random) }
    while true {
      let kind = random.pick(Kind.allCases)
      guard calls.contains(kind) else { continue }
      switch kind {
      case .set: return .set(Int.random(in: 0..<100, using: &random), key: key())
      case .remove: return .remove(key())
      case .get: return .get(key())
      case .removeAll: return .removeAll
      case .replaceAll: return .replaceAll(Dictionary((0..<Int.random(in: 0..<3, using: &random)).map { _ in (key(), 7) }) { a, _ in a })
      case .update:
        let transform = random.pick([Transform.add(1), .returnNil, .insertIfMissing(50)] + (throwing ? [.throwError] : []))
        return .update(key(), transform)
      case .transaction:
        let changes = (0..<Int.random(in: 0..<4, using: &random)).map { _ in
          random.pick([Change.set(Int.random(in: 0..<100, using: &random), key: key()), .remove(key()), .add(1, key: key())])
        }
        return .transaction(changes, throwingAfter: random.chance(30) ? Int.random(in: 0...changes.count, using: &random) : nil)
      }
    }
  }

  enum Kind: CaseIterable {
    case set, remove, get, removeAll, replaceAll, update, transaction
  }
}
