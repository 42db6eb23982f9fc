import Testing
import WorkbookTesting

@testable import Observers

/// The cost table promises a delivery to n observers in O(n log n), one binary search per
/// observer, and an observer's first call in O(log n). `GrowthCheck` times both with 10
/// observers, then 3,000 and 10,000, and fails when the cost per observer (of a delivery) or per
/// first call grows more than 20×: binary searches stay within 1–3×, while finding each observer
/// by walking the array from its start measured 52–54× at 3,000 (about 1.2 µs an observer at 10,
/// and 64–68 µs at 3,000). A wrong answer fails at 3,000, and a round times two
/// deliveries: one delivery that walks 10,000 observers takes 2.5 s, and the check's rounds and
/// attempts at that size kept a wrong answer running for four minutes, where wrong code must fail
/// about as fast as right code passes.
@Suite("Exercise 2 — Re-entrancy: one delivery at a time (cost)", .timeLimit(.minutes(1)))
struct Exercise2_ReentrancyCostTests {
  @Test("a delivery costs the same per observer, and a first call the same, with 10 observers and with 10,000")
  func deliveriesScaleWithTheObservers() async {
    let verdict = await GrowthCheck(baselineSize: 10, sizes: [3_000, 10_000], unit: "observers").run { Self.deliveryWorkload(observers: $0) }
    if let failure = verdict.message(possibleCauses: [
      "each observer served found by walking the array from its start (`firstIndex(where:)`, `first(where:)`), "
        + "which makes one delivery O(n²): the array is sorted by id (ids only grow, and new observers are "
        + "appended), so \"the first observer after id k\" and the observer with a given id are binary searches"
    ]) {
      Issue.record("\(failure)")
    }
  }

  /// An observable with `count` observers that count their calls, and a round of 2 writes (each
  /// delivered to every observer) and 100 new observers with a first call, cancelled untimed.
  static func deliveryWorkload(observers count: Int) -> GrowthCheck.Workload {
    let observable = Observable(0)
    let calls = Counter()
    let tokens = (0..<count).map { _ in observable.observe(initial: false) { _ in calls.increment() } }
    observable.value = 1
    guard observable.observerCount == count, calls.value == count else {
      return .broken(
        "one write should reach each of \(count) observers once, but \(calls.value) calls were made "
          + "to \(observable.observerCount) observers; the delivery tests say what is missing")
    }
    return .ready { timer in
      // Each delivery reports the calls it made: one per observer, the same work per unit at every size.
      await timer.timeWork("a delivery, per observer", calls: 2, units: count) { value in
        let before = calls.value
        observable.value = value
        return calls.value - before
      }
      var added: [ObserverToken] = []
      added.reserveCapacity(100)
      await timer.time("a first call", calls: 100) { _ in added.append(observable.observe(initial: true) { _ in }) }
      for token in added { token.cancel() }
      withExtendedLifetime(tokens) {}
    }
  }
}
