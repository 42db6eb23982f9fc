import Testing
import WorkbookTesting

@testable import Downloads

@Suite("Exercise 1 — A priority queue with aging", .timeLimit(.minutes(1)))
struct Exercise1_PriorityQueueTests {
  func drain(_ queue: inout PriorityQueue<String, ManualClock>) -> [String] {
    var order: [String] = []
    while let next = queue.dequeue() { order.append(next) }
    return order
  }

  @Test func highBeforeNormalBeforeLow() {
    var queue = PriorityQueue<String, ManualClock>(clock: ManualClock(), agingBound: nil)
    queue.enqueue("low", priority: .low)
    queue.enqueue("normal", priority: .normal)
    queue.enqueue("high", priority: .high)
    #expect(queue.count == 3, "three elements were enqueued")
    let order = drain(&queue)
    #expect(order == ["high", "normal", "low"], "the highest level must leave first, got \(order)")
    #expect(queue.isEmpty, "dequeue should have emptied the queue")
  }

  @Test func firstInFirstOutWithinALevel() {
    var queue = PriorityQueue<String, ManualClock>(clock: ManualClock(), agingBound: nil)
    for name in ["a", "b", "c"] { queue.enqueue(name, priority: .normal) }
    queue.enqueue("x", priority: .high)
    for name in ["d", "e"] { queue.enqueue(name, priority: .normal) }
    let order = drain(&queue)
    #expect(order == ["x", "a", "b", "c", "d", "e"], "within one level the oldest leaves first (FIFO), got \(order)")
  }

  @Test func peekDoesNotRemove() {
    var queue = PriorityQueue<String, ManualClock>(clock: ManualClock())
    #expect(queue.peek() == nil, "an empty queue has nothing to peek at")
    #expect(queue.dequeue() == nil, "an empty queue must return nil, not crash")
    queue.enqueue("a", priority: .low)
    queue.enqueue("b", priority: .high)
    #expect(queue.peek() == "b", "peek shows what dequeue would return")
    #expect(queue.count == 2, "peek must not take the element out")
  }

  @Test("low priority work that waited the aging bound is promoted, so it is not starved")
  func agingPromotesWaitingWork() {
    let clock = ManualClock()
    var queue = PriorityQueue<String, ManualClock>(clock: clock, agingBound: .seconds(10))
    let old = queue.enqueue("old-low", priority: .low)
    clock.advance(by: .seconds(10))
    queue.enqueue("new-normal", priority: .normal)
    #expect(queue.priority(of: old) == .normal, "after one bound, low counts as normal")
    #expect(
      queue.dequeue() == "old-low",
      "the low element waited one aging bound: it counts as normal now and is older than the new normal one")
    #expect(queue.dequeue() == "new-normal", "then the normal element")
    queue.enqueue("waiting-low", priority: .low)
    clock.advance(by: .seconds(20))
    queue.enqueue("fresh-high", priority: .high)
    #expect(
      queue.dequeue() == "waiting-low",
      "after two bounds low work counts as high, and it arrived before the fresh high element")
  }

  @Test("just before the bound, nothing is promoted")
  func noPromotionBeforeTheBound() {
    let clock = ManualClock()
    var queue = PriorityQueue<String, ManualClock>(clock: clock, agingBound: .seconds(10))
    queue.enqueue("low", priority: .low)
    clock.advance(by: .seconds(9))
    queue.enqueue("normal", priority: .normal)
    #expect(queue.dequeue() == "normal", "9 s is less than the 10 s bound: the low element keeps its level")
  }

  @Test("with aging disabled, low work waits behind any amount of higher work")
  func agingCanBeDisabled() {
    let clock = ManualClock()
    var queue = PriorityQueue<String, ManualClock>(clock: clock, agingBound: nil)
    let low = queue.enqueue("low", priority: .low)
    clock.advance(by: .seconds(3600))
    queue.enqueue("normal", priority: .normal)
    #expect(queue.dequeue() == "normal", "agingBound nil disables aging: an hour of waiting changes nothing")
    #expect(queue.priority(of: low) == .low, "without aging the level stays low")
  }

  @Test("the aging bound can be changed on a live queue")
  func agingBoundIsConfigurable() {
    let clock = ManualClock()
    var queue = PriorityQueue<String, ManualClock>(clock: clock, agingBound: nil)
    let ticket = queue.enqueue("low", priority: .low)
    clock.advance(by: .seconds(5))
    queue.agingBound = .seconds(5)
    #expect(queue.priority(of: ticket) == .normal, "with a 5 s bound, 5 s of waiting promotes low to normal")
  }

  @Test func changePriorityWhileQueued() {
    var queue = PriorityQueue<String, ManualClock>(clock: ManualClock(), agingBound: nil)
    let a = queue.enqueue("a", priority: .low)
    queue.enqueue("b", priority: .normal)
    queue.enqueue("c", priority: .high)
    let changed = queue.changePriority(of: a, to: .high)
    #expect(changed, "a is queued, so its priority can change")
    #expect(queue.priority(of: a) == .high, "the new priority should be reported")
    #expect(queue.count == 3, "changing a priority must not add or lose elements")
    let order = drain(&queue)
    #expect(order == ["c", "a", "b"], "a joins the back of the high line, behind c; got \(order)")
    let changedAfterLeaving = queue.changePriority(of: a, to: .low)
    #expect(!changedAfterLeaving, "a ticket that left the queue cannot change")
  }

  @Test func loweringAPriorityTakesEffect() {
    var queue = PriorityQueue<String, ManualClock>(clock: ManualClock(), agingBound: nil)
    let a = queue.enqueue("a", priority: .high)
    queue.enqueue("b", priority: .normal)
    queue.changePriority(of: a, to: .low)
    let order = drain(&queue)
    #expect(order == ["b", "a"], "a was lowered to low, so b must come first; got \(order)")
  }

  @Test func removeTakesOneElementOut() {
    var queue = PriorityQueue<String, ManualClock>(clock: ManualClock())
    queue.enqueue("a", priority: .normal)
    let b = queue.enqueue("b", priority: .normal)
    queue.enqueue("c", priority: .normal)
    #expect(queue.remove(b) == "b", "remove returns the removed element")
    #expect(queue.remove(b) == nil, "removing twice must return nil, not crash")
    #expect(!queue.contains(b), "a removed ticket is no longer queued")
    #expect(queue.count == 2, "one of three was removed")
    let order = drain(&queue)
    #expect(order == ["a", "c"], "b must never come out after being removed; got \(order)")
  }

  @Test("agrees with a simple model over random operations")
  func agreesWithAModel() {
    for seed in UInt64(1)...5 {
      var random = SeededRandom(seed: seed)
      let clock = ManualClock()
      var queue = PriorityQueue<Int, ManualClock>(clock: clock, agingBound: .seconds(7))
      // Model: (value, base level, since, arrival); ties by arrival.
      var model: [(value: Int, level: Int, since: Duration, arrival: Int, ticket: QueueTicket)] = []
      var arrival = 0
      func effective(_ item: (value: Int, level: Int, since: Duration, arrival: Int, ticket: QueueTicket)) -> Int {
        min(2, item.level + Int((clock.now.offset - item.since) / .seconds(7)))
      }
      for step in 0..<300 {
        let roll = random.next() % 10
        if roll < 5 {
          let level = Int(random.next() % 3)
          arrival += 1
          let ticket = queue.enqueue(step, priority: DownloadPriority(rawValue: level)!)
          model.append((step, level, clock.now.offset, arrival, ticket))
        } else if roll < 8 {
          let expected = model.indices.max { a, b in
            let (ea, eb) = (effective(model[a]), effective(model[b]))
            return ea != eb ? ea < eb : model[a].arrival > model[b].arrival
          }
          let got = queue.dequeue()
          if got != expected.map({ model[$0].value }) {
            func describe(_ value: Int?) -> String {
              guard let value, let item = model.first(where: { $0.value == value }) else { return String(describing: value) }
              let waited = clock.now.offset - item.since
              return "element \(value) (base level \(item.level), waited \(waited) since it was enqueued or its "
                + "priority changed, so effective level \(effective(item)); arrival number \(item.arrival))"
            }
            Issue.record(
              """
              seed \(seed), step \(step): dequeue returned \(describe(got)), the model expected \(describe(expected.map { model[$0].value })). \
              Rules: the highest effective level wins (base level + one per whole 7 s waited, at most high), \
              then the earliest arrival; changePriority counts as a new arrival and restarts the aging.
              """)
            return
          }
          if let expected { model.remove(at: expected) }
        } else if roll < 9, !model.isEmpty {
          let index = Int(random.next() % UInt64(model.count))
          let level = Int(random.next() % 3)
          arrival += 1
          queue.changePriority(of: model[index].ticket, to: DownloadPriority(rawValue: level)!)
          model[index].level = level
          model[index].since = clock.now.offset
          model[index].arrival = arrival
        } else {
          clock.advance(by: .seconds(Int64(random.next() % 5)))
        }
        #expect(queue.count == model.count, "seed \(seed), step \(step): count disagrees with the model")
      }
    }
  }
}
