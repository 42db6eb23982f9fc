// Exercise 1 — A priority queue with aging (beginner)
//
// Pending downloads wait in three lines: high, normal and low. The next one out is the oldest of
// the highest line, and work that has waited for `agingBound` moves up one line, so a steady
// stream of high priority work cannot keep low priority work waiting forever. Implement
// `enqueue`, `dequeue`, `peek`, `remove`, `changePriority` and `priority(of:)`.
//
// The queue is `Sendable` when its elements are (the extension at the bottom), so a storage type
// you nest in it must be as well, under the same condition, for example
// `extension PriorityQueue.Entry: Sendable where Element: Sendable, C: Sendable {}`.
import Workbook

/// How urgent a pending download is. Higher raw values run first.
public nonisolated enum DownloadPriority: Int, Comparable, CaseIterable, Sendable, Codable {
  case low = 0
  case normal = 1
  case high = 2

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Names one element in a `PriorityQueue`, to change its priority or take it out.
public nonisolated struct QueueTicket: Hashable, Sendable, CustomStringConvertible {
  public let rawValue: UInt64
  public init(rawValue: UInt64) { self.rawValue = rawValue }
  public var description: String { "#\(rawValue)" }
}

/// A priority queue of pending work with three levels, FIFO within a level, and aging.
///
/// Aging: an element that has waited `agingBound` since it was enqueued (or since its priority was
/// last changed) counts one level higher, from the instant it has waited exactly one bound; two
/// bounds two levels higher, up to `.high`. Elements at the same effective level leave in the
/// order they arrived. Time comes from the injected clock, so tests and simulations drive aging
/// on virtual time. `agingBound: nil` disables aging.
///
/// Complexity: `enqueue`, `changePriority` and `remove` are O(1) amortized (a removed or moved
/// element leaves a stale slot that `dequeue` skips); `dequeue` and `peek` look at the front of
/// each of the three lines only, because the front of a line is its oldest, most aged element.
public nonisolated struct PriorityQueue<Element, C: Clock> where C.Duration == Duration {
  struct Entry {
    let ticket: QueueTicket
    /// Arrival order; a change of priority counts as a new arrival.
    let sequence: UInt64
    let priority: DownloadPriority
    let since: C.Instant
    let element: Element
  }

  /// The clock aging is measured on.
  public let clock: C
  /// How long an element waits before it counts one level higher; nil disables aging, and so
  /// does a zero or negative bound, whether given to `init` or set later: nothing is promoted.
  public var agingBound: Duration?

  /// One FIFO line per level, indexed by raw value; `heads[i]` is the first unread slot.
  var lines: [[Entry]] = [[], [], []]
  var heads: [Int] = [0, 0, 0]
  /// The live entry of every queued ticket: a slot whose sequence differs is stale.
  var live: [QueueTicket: Entry] = [:]
  var nextSequence: UInt64 = 0

  /// A queue on `clock`. A zero or negative bound is treated as no aging.
  public init(clock: C, agingBound: Duration? = .seconds(30)) {
    self.clock = clock
    self.agingBound = agingBound
  }

  /// How many elements are waiting.
  public var count: Int { live.count }
  public var isEmpty: Bool { live.isEmpty }

  /// Adds `element` at the back of its level's line and returns its ticket. O(1) amortized.
  @discardableResult
  public mutating func enqueue(_ element: Element, priority: DownloadPriority) -> QueueTicket {
    nextSequence += 1
    let ticket = QueueTicket(rawValue: nextSequence)
    append(Entry(ticket: ticket, sequence: nextSequence, priority: priority, since: clock.now, element: element))
    return ticket
  }

  /// Takes out the element that should run next: the highest effective level, oldest first.
  public mutating func dequeue() -> Element? {
    guard let entry = front() else { return nil }
    live[entry.ticket] = nil
    heads[entry.priority.rawValue] += 1
    compact(entry.priority.rawValue)
    return entry.element
  }

  /// The element `dequeue` would return now, without taking it out.
  public mutating func peek() -> Element? {
    front()?.element
  }

  /// The ticket of the element `dequeue` would return now.
  public mutating func peekTicket() -> QueueTicket? {
    front()?.ticket
  }

  /// Takes `ticket`'s element out wherever it waits. Returns nil for an unknown ticket. O(1).
  @discardableResult
  public mutating func remove(_ ticket: QueueTicket) -> Element? {
    live.removeValue(forKey: ticket)?.element
  }

  /// Moves a waiting element to `priority`: it joins the back of that line and its aging starts
  /// again, even when `priority` is the level it already has (a change is a new arrival: the
  /// element goes behind the others of that level). Returns false for an unknown ticket, and for
  /// a ticket that was dequeued or removed. O(1) amortized.
  @discardableResult
  public mutating func changePriority(of ticket: QueueTicket, to priority: DownloadPriority) -> Bool {
    guard let old = live[ticket] else { return false }
    nextSequence += 1
    append(Entry(ticket: ticket, sequence: nextSequence, priority: priority, since: clock.now, element: old.element))
    return true
  }

  /// The level `ticket` counts as right now, aging included; nil for an unknown ticket.
  public func priority(of ticket: QueueTicket) -> DownloadPriority? {
    live[ticket].map(effectivePriority)
  }

  /// Whether `ticket` is still waiting.
  public func contains(_ ticket: QueueTicket) -> Bool {
    live[ticket] != nil
  }

  /// The base priority plus one level per `agingBound` waited, capped at `.high`.
  func effectivePriority(_ entry: Entry) -> DownloadPriority {
    guard let bound = agingBound, bound > .zero else { return entry.priority }
    let waited = entry.since.duration(to: clock.now)
    guard waited >= bound else { return entry.priority }
    let steps = Int(min(waited / bound, 2))
    return DownloadPriority(rawValue: min(entry.priority.rawValue + steps, DownloadPriority.high.rawValue)) ?? .high
  }

  mutating func append(_ entry: Entry) {
    live[entry.ticket] = entry
    lines[entry.priority.rawValue].append(entry)
  }

  /// Skips stale slots at the front of every line, then picks the best front.
  mutating func front() -> Entry? {
    var best: (entry: Entry, level: DownloadPriority)?
    for index in lines.indices {
      while heads[index] < lines[index].count {
        let entry = lines[index][heads[index]]
        if live[entry.ticket]?.sequence == entry.sequence { break }
        heads[index] += 1
      }
      compact(index)
      guard heads[index] < lines[index].count else { continue }
      let entry = lines[index][heads[index]]
      let level = effectivePriority(entry)
      if let current = best, current.level > level || (current.level == level && current.entry.sequence < entry.sequence) {
        continue
      }
      best = (entry, level)
    }
    return best?.entry
  }

  /// Drops the consumed prefix of a line once it is at least half of the storage.
  mutating func compact(_ index: Int) {
    if heads[index] == lines[index].count {
      lines[index].removeAll(keepingCapacity: true)
      heads[index] = 0
    } else if heads[index] > 32 && heads[index] * 2 > lines[index].count {
      lines[index].removeFirst(heads[index])
      heads[index] = 0
    }
  }
}

nonisolated extension PriorityQueue: Sendable where Element: Sendable, C: Sendable {}
nonisolated extension PriorityQueue.Entry: Sendable where Element: Sendable, C: Sendable {}

nonisolated extension PriorityQueue where C == ContinuousClock {
  /// A queue that ages on the real clock.
  public init(agingBound: Duration? = .seconds(30)) {
    self.init(clock: ContinuousClock(), agingBound: agingBound)
  }
}
