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

extension ZipfWorkload {
  /// The same requests with a scan every `period` requests: `length` keys that are asked for once
  /// each, one after the other, and never again, as when a user scrolls a feed to the bottom once.
  /// Scanned keys are numbered from `keys` up, so they never collide with the popular ones.
  func requestsWithScans(count: Int, seed: UInt64, period: Int, length: Int) -> [Int] {
    var result: [Int] = []
    var nextScanned = keys
    for (index, key) in requests(count: count, seed: seed).enumerated() {
      if index > 0 && index % period == 0 {
        result.append(contentsOf: nextScanned..<(nextScanned + length))
        nextScanned += length
      }
      result.append(key)
    }
    return result
  }
}

extension SimpleCache {
  /// Belady's MIN: on a miss with a full cache, evict the resident key whose next request is
  /// farthest in the future (or never comes). It needs the future, so no real cache can run it,
  /// but no policy that must store what it fetches can have a higher hit rate: it is the limit the
  /// others are measured against (L. A. Belady, "A study of replacement algorithms for a
  /// virtual-storage computer", IBM Systems Journal 5(2), 1966).
  static func beladyHitRate(_ requests: [Int], capacity: Int) -> Double {
    // nextUse[i]: where requests[i]'s key is asked for again (requests.count: never).
    var nextUse = Array(repeating: requests.count, count: requests.count)
    var seen: [Int: Int] = [:]
    for index in requests.indices.reversed() {
      nextUse[index] = seen[requests[index]] ?? requests.count
      seen[requests[index]] = index
    }
    // A max-heap of (next use, key); an entry is stale once its key's next use has moved on.
    var heap = MaxHeap()
    var resident: [Int: Int] = [:]  // key → its next use
    var hits = 0
    for (index, key) in requests.enumerated() {
      if resident[key] != nil {
        hits += 1
      } else if resident.count == capacity {
        while let top = heap.pop() {
          if resident[top.key] == top.nextUse {
            resident[top.key] = nil
            break
          }
        }
      }
      resident[key] = nextUse[index]
      heap.push((nextUse[index], key))
    }
    return Double(hits) / Double(requests.count)
  }

  /// SIEVE (Y. Zhang, J. Yang, Y. Yue, Y. Vigfusson, K. V. Rashmi, "SIEVE is Simpler than LRU: an
  /// Efficient Turn-Key Eviction Algorithm for Web Caches", NSDI 2024): a FIFO queue with one
  /// "visited" bit per entry. A hit only sets the bit. To evict, a hand walks from the oldest
  /// entry towards the newest, clearing set bits, and evicts the first entry whose bit is clear;
  /// the hand stays where it stopped for the next eviction, and new entries join at the newest
  /// end. An entry asked for once (a scan) is evicted at its first visit by the hand, while
  /// popular entries keep their bit set and survive, which LRU cannot tell apart.
  static func sieveHitRate(_ requests: [Int], capacity: Int) -> Double {
    let none = -1
    var keys: [Int] = []
    var visited: [Bool] = []
    var newer: [Int] = []  // towards the head (the newest entry)
    var older: [Int] = []  // towards the tail (the oldest entry)
    var free: [Int] = []
    var slotOf: [Int: Int] = [:]
    var head = none
    var tail = none
    var hand = none
    var hits = 0
    for key in requests {
      if let slot = slotOf[key] {
        visited[slot] = true
        hits += 1
        continue
      }
      if slotOf.count == capacity {
        var slot = hand == none ? tail : hand
        while visited[slot] {
          visited[slot] = false
          slot = newer[slot] == none ? tail : newer[slot]
        }
        hand = newer[slot]
        // Unlink the victim.
        if newer[slot] != none { older[newer[slot]] = older[slot] } else { head = older[slot] }
        if older[slot] != none { newer[older[slot]] = newer[slot] } else { tail = newer[slot] }
        slotOf[keys[slot]] = nil
        free.append(slot)
      }
      let slot: Int
      if let reused = free.popLast() {
        slot = reused
        keys[slot] = key
        visited[slot] = false
      } else {
        slot = keys.count
        keys.append(key)
        visited.append(false)
        newer.append(none)
        older.append(none)
      }
      newer[slot] = none
      older[slot] = head
      if head != none { newer[head] = slot } else { tail = slot }
      head = slot
      slotOf[key] = slot
    }
    return Double(hits) / Double(requests.count)
  }
}

/// A binary max-heap of (next use, key), ordered by next use, then key, so ties break the same
/// way on every run.
struct MaxHeap {
  private var items: [(nextUse: Int, key: Int)] = []

  private static func above(_ a: (nextUse: Int, key: Int), _ b: (nextUse: Int, key: Int)) -> Bool {
    a.nextUse != b.nextUse ? a.nextUse > b.nextUse : a.key > b.key
  }

  mutating func push(_ item: (nextUse: Int, key: Int)) {
    items.append(item)
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard Self.above(items[child], items[parent]) else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  mutating func pop() -> (nextUse: Int, key: Int)? {
    guard let top = items.first else { return nil }
    let last = items.removeLast()
    guard !items.isEmpty else { return top }
    items[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var largest = parent
      if left < items.count && Self.above(items[left], items[largest]) { largest = left }
      if right < items.count && Self.above(items[right], items[largest]) { largest = right }
      if largest == parent { break }
      items.swapAt(parent, largest)
      parent = largest
    }
    return top
  }
}
