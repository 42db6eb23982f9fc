import Dispatch
import Testing
import WorkbookTesting

@testable import Observers

@Suite("Exercise 2 — Re-entrancy: one delivery at a time", .timeLimit(.minutes(1)))
struct Exercise2_ReentrancyTests {
  /// Holds a token that an observer registered earlier wants to cancel or create.
  final class Slot: @unchecked Sendable {
    var token: ObserverToken?
  }

  @Test("a write from inside an observer reaches everyone after the change being delivered")
  func aNestedWriteIsDeliveredInOrder() {
    let count = Observable(0)
    let first = Recorder<Int>()
    let second = Recorder<Int>()
    let tokenA = count.observe(initial: false) { value in
      first.append(value)
      if value == 1 { count.value = 2 }
    }
    let tokenB = count.observe(initial: false) { second.append($0) }
    count.value = 1
    #expect(
      second.values == [1, 2],
      "the first observer wrote 2 while 1 was being delivered: the second observer must get 1 before 2, got \(second.values). A nested delivery overtook the outer one"
    )
    #expect(first.values == [1, 2], "the writing observer also gets its own write, after 1; got \(first.values)")
    #expect(count.value == 2, "the nested write is stored")
    withExtendedLifetime((tokenA, tokenB)) {}
  }

  @Test func chainedWritesFromObserversArriveInOrder() {
    let count = Observable(0)
    let seen = Recorder<Int>()
    let writer = count.observe(initial: false) { value in
      if value < 100 { count.value = value + 1 }
    }
    let reader = count.observe(initial: false) { seen.append($0) }
    count.value = 1
    #expect(seen.values == Array(1...100), "each observer call wrote the next number: the reader must see 1...100 in order, once each")
    withExtendedLifetime((writer, reader)) {}
  }

  @Test("an observer that cancels itself does not make the next one miss the change")
  func cancellingItselfSkipsNobody() {
    let count = Observable(0)
    let slot = Slot()
    let once = Recorder<Int>()
    let second = Recorder<Int>()
    let third = Recorder<Int>()
    slot.token = count.observe(initial: false) { value in
      once.append(value)
      slot.token?.cancel()
    }
    let tokenB = count.observe(initial: false) { second.append($0) }
    let tokenC = count.observe(initial: false) { third.append($0) }
    count.value = 1
    count.value = 2
    #expect(once.values == [1], "the self-cancelling observer gets 1 and then nothing; got \(once.values)")
    #expect(
      second.values == [1, 2],
      "the observer after the one that cancelled itself must still get 1: walking the observers by index skips it once an entry is removed; got \(second.values)"
    )
    #expect(third.values == [1, 2], "the last observer gets every change; got \(third.values)")
    #expect(count.observerCount == 2, "the cancelled observer is gone")
    withExtendedLifetime((tokenB, tokenC)) {}
  }

  @Test("an observer cancelled by another during a delivery is not called afterwards")
  func cancellingAnotherStopsItAtOnce() {
    let count = Observable(0)
    let slot = Slot()
    let middle = Recorder<Int>()
    let victim = Recorder<Int>()
    let tokenA = count.observe(initial: false) { _ in slot.token?.cancel() }
    let tokenB = count.observe(initial: false) { middle.append($0) }
    slot.token = count.observe(initial: false) { victim.append($0) }
    count.value = 1
    #expect(
      victim.values.isEmpty,
      "the first observer cancelled the third before the third's turn: once cancel() returned, it must not be called (a screen that is gone would be updated); got \(victim.values)"
    )
    #expect(middle.values == [1], "the observer in between still gets the change")
    withExtendedLifetime((tokenA, tokenB)) {}
  }

  @Test("an observer added during a delivery gets the current value once, then the later changes")
  func addingDuringADeliveryDeliversOnce() {
    let count = Observable(0)
    let slot = Slot()
    let late = Recorder<Int>()
    let tokenA = count.observe(initial: false) { value in
      if value == 1 { slot.token = count.observe { late.append($0) } }
    }
    count.value = 1
    #expect(late.values == [1], "the new observer should get the value current when it registered (1), once; got \(late.values)")
    count.value = 2
    #expect(late.values == [1, 2], "then every later change; got \(late.values)")
    withExtendedLifetime(tokenA) {}
  }

  @Test("an observer added while a nested change is pending gets that value exactly once")
  func addingWhileAChangeIsPendingDoesNotDoubleDeliver() {
    let count = Observable(0)
    let slot = Slot()
    let late = Recorder<Int>()
    let tokenA = count.observe(initial: false) { value in
      guard value == 1 else { return }
      count.value = 2
      slot.token = count.observe { late.append($0) }
    }
    count.value = 1
    #expect(
      late.values == [2],
      "registered after 2 was written: 2 is its first call, and the pending change to 2 must not be delivered to it a second time; got \(late.values)"
    )
    withExtendedLifetime(tokenA) {}
  }

  @Test("an observer added without the initial call while a change is pending gets only later changes")
  func addingWithoutInitialWhileAChangeIsPendingWaitsForTheNextChange() {
    let count = Observable(0)
    let slot = Slot()
    let late = Recorder<Int>()
    let tokenA = count.observe(initial: false) { value in
      guard value == 1 else { return }
      count.value = 2
      slot.token = count.observe(initial: false) { late.append($0) }
    }
    count.value = 1
    #expect(
      late.values.isEmpty,
      "registered with initial: false after 2 was written (while 2 was still waiting to be delivered): 2 is not a later change, so it must not arrive; got \(late.values)"
    )
    count.value = 3
    #expect(late.values == [3], "the first change written after it registered, 3, should arrive; got \(late.values)")
    withExtendedLifetime(tokenA) {}
  }

  @Test("a write from another thread, at any moment the deliverer is outside the lock, is delivered in order")
  func aWriteInEveryGapIsDelivered() {
    // Scenario n lets another thread write right after the n-th time this thread releases the
    // lock while it writes and delivers, until there is no n-th time: every moment where another
    // writer can find the deliverer busy, or just done. Each time, the observer must get both
    // changes, in order, each with the value its write stored.
    for moment in 1...100 {
      let intruder = Intruder(at: moment)
      let count = Observable(0, afterUnlock: intruder.afterUnlock)
      let seen = Recorder<Int>()
      let token = count.observe(initial: false) { seen.append($0) }
      intruder.arm { count.update { $0 += 1 } }
      count.update { $0 += 1 }
      intruder.disarm()
      token.cancel()
      guard intruder.intruded else {
        #expect(seen.values == [1], "one write should reach the observer once; got \(seen.values)")
        return
      }
      guard !intruder.gotStuck else {
        Issue.record(
          "a write from another thread, made while the deliverer was outside the lock, never returned: a writer that finds a delivery running should queue its change and return"
        )
        return
      }
      let values = seen.values
      guard values == [1, 2] else {
        let why =
          values == [1]
          ? "the second write was never delivered: it found isDelivering still true, queued its change and left, and the deliverer then stopped without it. Clear isDelivering in the same critical section that finds the queue empty"
          : "expected 1 then 2, each once: give every observer the value its write stored, in the order of the writes"
        Issue.record("another thread wrote right after this thread's unlock number \(moment); the observer got \(values): \(why)")
        return
      }
    }
  }

  @Test("writes from four threads reach the observer in the order they were made")
  func concurrentWritesAreDeliveredInOrder() {
    let count = Observable(0)
    let seen = Recorder<Int>()
    let token = count.observe(initial: false) { seen.append($0) }
    // Every writer returns, and so does whoever delivers for them, before concurrentPerform does.
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<500 { count.update { $0 += 1 } }
    }
    let values = seen.values
    let firstDisorder = zip(values, values.dropFirst()).first { $0 >= $1 }
    #expect(
      values == Array(1...2_000),
      "each write added one, so the observer must see 1...2,000 in order; first disorder: \(String(describing: firstDisorder)). Two threads delivered at once"
    )
    token.cancel()
  }
}
