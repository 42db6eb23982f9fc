import Foundation
import WorkbookTesting

/// Requests whose popularity follows Zipf's law: key k (from 1) is asked for with probability
/// proportional to 1 / kˢ, the usual shape of image popularity in a feed.
struct ZipfWorkload {
  let keys: Int
  let exponent: Double
  private let cumulative: [Double]

  init(keys: Int, exponent: Double) {
    self.keys = keys
    self.exponent = exponent
    var running = 0.0
    var cumulative: [Double] = []
    cumulative.reserveCapacity(keys)
    for k in 1...keys {
      running += 1 / pow(Double(k), exponent)
      cumulative.append(running)
    }
    self.cumulative = cumulative.map { $0 / running }
  }

  /// A reproducible sequence of `count` keys in `0..<keys` (most popular first).
  func requests(count: Int, seed: UInt64) -> [Int] {
    var random = SeededRandom(seed: seed)
    return (0..<count).map { _ in
      let target = random.unit()
      var low = 0
      var high = cumulative.count - 1
      while low < high {
        let middle = (low + high) / 2
        if cumulative[middle] < target { low = middle + 1 } else { high = middle }
      }
      return low
    }
  }
}

/// The eviction policies the chapter compares LRU against, as plain reference models.
enum SimpleCache {
  /// Evicts the oldest insertion, however often it was used since.
  static func fifoHitRate(_ requests: [Int], capacity: Int) -> Double {
    var present = Set<Int>()
    var order: [Int] = []
    var head = 0
    var hits = 0
    for key in requests {
      if present.contains(key) {
        hits += 1
        continue
      }
      if present.count == capacity {
        present.remove(order[head])
        head += 1
      }
      present.insert(key)
      order.append(key)
    }
    return Double(hits) / Double(requests.count)
  }

  /// Evicts a random resident entry.
  static func randomHitRate(_ requests: [Int], capacity: Int, seed: UInt64) -> Double {
    var random = SeededRandom(seed: seed)
    var slots: [Int] = []
    var index: [Int: Int] = [:]
    var hits = 0
    for key in requests {
      if index[key] != nil {
        hits += 1
        continue
      }
      if slots.count == capacity {
        let victim = Int(random.next() % UInt64(capacity))
        index[slots[victim]] = nil
        slots[victim] = key
        index[key] = victim
      } else {
        index[key] = slots.count
        slots.append(key)
      }
    }
    return Double(hits) / Double(requests.count)
  }
}
