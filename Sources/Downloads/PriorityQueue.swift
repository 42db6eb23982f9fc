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
/// (A simpler O(n) scan over all waiting elements is a fine first version.)
public nonisolated struct PriorityQueue<Element, C: Clock> where C.Duration == Duration {
  // TODO: add your storage: the waiting elements with their priority, arrival order and the
  // instant their aging started, and a way to find an element by its ticket.

  /// The clock aging is measured on.
  public let clock: C
  /// How long an element waits before it counts one level higher; nil disables aging, and so
  /// does a zero or negative bound, whether given to `init` or set later: nothing is promoted.
  public var agingBound: Duration?

  var nextSequence: UInt64 = 0

  /// A queue on `clock`. A zero or negative bound is treated as no aging.
  public init(clock: C, agingBound: Duration? = .seconds(30)) {
    self.clock = clock
    self.agingBound = agingBound
  }

  /// How many elements are waiting.
  // TODO: count the waiting elements (placeholder: 0).
  public var count: Int { 0 }
  public var isEmpty: Bool { count == 0 }

  /// Adds `element` at the back of its level's line and returns its ticket. O(1) amortized.
  @discardableResult
  public mutating func enqueue(_ element: Element, priority: DownloadPriority) -> QueueTicket {
    // TODO: put the element at the back of its level's line (placeholder: a ticket, nothing stored).
    nextSequence += 1
    return QueueTicket(rawValue: nextSequence)
  }

  /// Takes out the element that should run next: the highest effective level, oldest first.
  public mutating func dequeue() -> Element? {
    // TODO: take the oldest of the highest effective level, aging included (placeholder: nil).
    nil
  }

  /// The element `dequeue` would return now, without taking it out.
  public mutating func peek() -> Element? {
    // TODO: what `dequeue` would return, left in place (placeholder: nil).
    nil
  }

  /// The ticket of the element `dequeue` would return now.
  public mutating func peekTicket() -> QueueTicket? {
    // TODO: the ticket of that element (placeholder: nil).
    nil
  }

  /// Takes `ticket`'s element out wherever it waits. Returns nil for an unknown ticket. O(1).
  @discardableResult
  public mutating func remove(_ ticket: QueueTicket) -> Element? {
    // TODO: take the ticket's element out wherever it waits (placeholder: nil).
    nil
  }

  /// Moves a waiting element to `priority`: it joins the back of that line and its aging starts
  /// again, even when `priority` is the level it already has (a change is a new arrival: the
  /// element goes behind the others of that level). Returns false for an unknown ticket, and for
  /// a ticket that was dequeued or removed. O(1) amortized.
  @discardableResult
  public mutating func changePriority(of ticket: QueueTicket, to priority: DownloadPriority) -> Bool {
    // TODO: move it to the back of the new line, aging restarted (placeholder: false).
    false
  }

  /// The level `ticket` counts as right now, aging included; nil for an unknown ticket.
  public func priority(of ticket: QueueTicket) -> DownloadPriority? {
    // TODO: its level raised by the time it has waited (placeholder: nil).
    nil
  }

  /// Whether `ticket` is still waiting.
  public func contains(_ ticket: QueueTicket) -> Bool {
    // TODO: whether the ticket still waits (placeholder: false).
    false
  }
}

nonisolated extension PriorityQueue: Sendable where Element: Sendable, C: Sendable {}

nonisolated extension PriorityQueue where C == ContinuousClock {
  /// A queue that ages on the real clock.
  public init(agingBound: Duration? = .seconds(30)) {
    self.init(clock: ContinuousClock(), agingBound: agingBound)
  }
}
