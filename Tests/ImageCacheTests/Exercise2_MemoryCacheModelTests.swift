import Testing
import WorkbookTesting

@testable import ImageCache

/// One thing the app or the world does to a memory cache. Values encode their cost in their last
/// two digits (`value % 100`), so a test picks a cost by picking a value.
enum CacheStep: CustomStringConvertible {
  case get(Int)
  case set(value: Int, key: Int)
  case remove(Int)
  case contains(Int)
  case removeAll
  case memoryWarning
  case background
  case trim(toCost: Int)
  /// The injected clock moves on.
  case clockJumps(seconds: Int)

  var description: String {
    switch self {
    case .get(let key): "value(forKey: \(key))"
    case .set(let value, let key): "setValue(\(value), forKey: \(key)) (cost \(value % 100))"
    case .remove(let key): "removeValue(forKey: \(key))"
    case .contains(let key): "contains(\(key))"
    case .removeAll: "removeAll()"
    case .memoryWarning: "handle(.memoryWarning)"
    case .background: "handle(.didEnterBackground)"
    case .trim(let cost): "trim(toCost: \(cost))"
    case .clockJumps(let seconds): "the clock moves \(seconds) s on"
    }
  }
}

/// The cache as it should be: entries in an array from most to least recently used, each with
/// its cost and the instant it expires, and the three counters. O(n) a step, and plainly right.
struct LRUArrayModel {
  struct Entry: Equatable {
    var key: Int
    var value: Int
    var cost: Int
    var expires: Duration?
  }

  let configuration: MemoryCache<Int, Int>.Configuration
  var entries: [Entry] = []
  var statistics = MemoryCache<Int, Int>.Statistics()
  var now = Duration.zero

  var totalCost: Int { entries.reduce(0) { $0 + $1.cost } }

  mutating func get(_ key: Int) -> Int? {
    guard let index = entries.firstIndex(where: { $0.key == key }) else {
      statistics.misses += 1
      return nil
    }
    if let expires = entries[index].expires, now >= expires {
      entries.remove(at: index)  // a miss, not an eviction
      statistics.misses += 1
      return nil
    }
    statistics.hits += 1
    let entry = entries.remove(at: index)
    entries.insert(entry, at: 0)
    return entry.value
  }

  mutating func set(_ value: Int, _ key: Int) -> Bool {
    let cost = value % 100
    entries.removeAll { $0.key == key }
    guard Double(cost) <= Double(configuration.costLimit) * configuration.maximumEntryFraction, configuration.countLimit > 0 else {
      return false
    }
    entries.insert(Entry(key: key, value: value, cost: cost, expires: configuration.ttl.map { now + $0 }), at: 0)
    evict(downTo: configuration.costLimit)
    return true
  }

  mutating func remove(_ key: Int) -> Int? {
    guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
    return entries.remove(at: index).value
  }

  /// Removes from the least recently used end until both limits hold; each removal is an eviction.
  mutating func evict(downTo cost: Int) {
    while totalCost > cost || entries.count > configuration.countLimit, !entries.isEmpty {
      entries.removeLast()
      statistics.evictions += 1
    }
  }
}

@Suite("Exercise 2 — An LRU memory cache (against a model)", .timeLimit(.minutes(1)))
struct Exercise2_MemoryCacheModelTests {
  /// Two caches: one with a TTL and small entries only, one that keeps entries until evicted.
  static let configurations: [MemoryCache<Int, Int>.Configuration] = [
    .init(costLimit: 100, countLimit: 4, maximumEntryFraction: 0.3, ttl: .seconds(10)),
    .init(costLimit: 60, countLimit: 3, maximumEntryFraction: 1),
  ]

  @Test(
    "reads, stores at and past the limits, removals, trims, memory events and clock jumps agree with an array ordered by use",
    arguments: configurations.indices)
  func modelBased(configuration index: Int) async {
    let configuration = Self.configurations[index]
    let largest = Int(Double(configuration.costLimit) * configuration.maximumEntryFraction)
    let check = ModelCheck<CacheStep, LRUArrayModel, (cache: MemoryCache<Int, Int>, clock: ManualClock)>(
      "MemoryCache (cost limit \(configuration.costLimit), count limit \(configuration.countLimit), maximumEntryFraction "
        + "\(configuration.maximumEntryFraction), ttl \(configuration.ttl.map { "\($0)" } ?? "none")) against an array ordered by use",
      steps: 50, replay: "make chapter-4 EXERCISE=2",
      generate: { random in
        let key = Int.random(in: 0..<6, using: &random)
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<30: return .get(key)
        case 30..<60:
          let cost = random.chance(50) ? random.boundary(largest) : Int.random(in: 1...largest, using: &random)
          return .set(value: Int.random(in: 1..<100, using: &random) * 100 + cost, key: key)
        case 60..<68: return .remove(key)
        case 68..<74: return .contains(key)
        case 74..<76: return .removeAll
        case 76..<78: return .memoryWarning
        case 78..<82: return .background
        case 82..<86: return .trim(toCost: random.boundary(configuration.costLimit / 2))
        default: return .clockJumps(seconds: random.pick([1, 4, 9, 10, 11]))
        }
      },
      model: { LRUArrayModel(configuration: configuration) },
      system: {
        let clock = ManualClock()
        return (MemoryCache<Int, Int>(configuration: configuration, clock: clock) { $0 % 100 }, clock)
      },
      step: { step, model, world, check in
        let cache = world.cache
        switch step {
        case .get(let key):
          check.same("what \(step) returned", model: model.get(key), component: cache.value(forKey: key))
        case .set(let value, let key):
          check.same("what \(step) returned", model: model.set(value, key), component: cache.setValue(value, forKey: key))
        case .remove(let key):
          check.same("what \(step) returned", model: model.remove(key), component: cache.removeValue(forKey: key))
        case .contains(let key):
          check.same("what \(step) returned", model: model.entries.contains { $0.key == key }, component: cache.contains(key))
        case .removeAll:
          cache.removeAll()
          model.entries.removeAll()
        case .memoryWarning:
          cache.handle(.memoryWarning)
          model.entries.removeAll()
        case .background:
          cache.handle(.didEnterBackground)
          model.evict(downTo: configuration.costLimit / 2)
        case .trim(let cost):
          cache.trim(toCost: cost)
          model.evict(downTo: cost)
        case .clockJumps(let seconds):
          Self.move(world.clock, by: .seconds(seconds))
          model.now += .seconds(seconds)
        }
        check.same("keysByRecency", model: model.entries.map(\.key), component: cache.keysByRecency)
        check.same("count", model: model.entries.count, component: cache.count)
        check.same("totalCost", model: model.totalCost, component: cache.totalCost)
        check.same("statistics", model: model.statistics, component: cache.statistics)
      })
    if let failure = await check.run() { Issue.record("\(failure)") }
  }

  /// Moves the clock without waiting for anyone: nothing sleeps on it here.
  static func move(_ clock: ManualClock, by duration: Duration) {
    clock.advance(by: duration)
  }
}
