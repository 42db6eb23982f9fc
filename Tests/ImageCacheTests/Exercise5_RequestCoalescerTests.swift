import Foundation
import Testing
import WorkbookTesting

@testable import ImageCache

@Suite("Exercise 5 — Coalescing with per-waiter cancellation", .timeLimit(.minutes(1)))
struct Exercise5_RequestCoalescerTests {
  struct Offline: Error {}

  /// Starts `count` callers for `key` and returns them once they all wait on one flight (or have
  /// already finished, as the starter's do).
  func callers(
    _ count: Int, of coalescer: RequestCoalescer<String, Int>, key: String = "avatar",
    operation: @escaping @Sendable () async throws -> Int
  ) async -> [Task<Int, any Error>] {
    let finished = Counter()
    let tasks = (0..<count).map { _ in
      Task {
        defer { finished.increment() }
        return try await coalescer.value(for: key, operation: operation)
      }
    }
    await eventually(giveUp: { finished.value == count }) { await coalescer.waiterCount(for: key) == count }
    return tasks
  }

  @Test("1,000 concurrent loads of one key run the operation exactly once")
  func thousandCallersOneFetch() async throws {
    let clock = ManualClock()
    let fetches = Counter()
    let coalescer = RequestCoalescer<String, Int>()
    let tasks = await callers(1_000, of: coalescer) {
      fetches.increment()
      try await clock.sleep(for: .seconds(1))
      return 42
    }
    #expect(await coalescer.waiterCount(for: "avatar") == 1_000, "all 1,000 callers should be waiting on one flight")
    await clock.waitForSleepers(1)  // the shared operation must be asleep before time moves
    await clock.advance(by: .seconds(1))
    for task in tasks {
      #expect(try await task.value == 42, "every caller gets the one result")
    }
    #expect(fetches.value == 1, "1,000 callers for one key should cause exactly one fetch, not \(fetches.value)")
    #expect(await !coalescer.isInFlight("avatar"), "a finished flight should be forgotten, so the next call fetches again")
  }

  @Test("a cancelled waiter gets CancellationError at once; the others still get the value")
  func cancellingOneWaiter() async throws {
    let clock = ManualClock()
    let operationCancelled = Counter()
    let coalescer = RequestCoalescer<String, Int>()
    let tasks = await callers(3, of: coalescer) {
      do {
        try await clock.sleep(for: .seconds(1))
      } catch {
        operationCancelled.increment()
        throw error
      }
      return 7
    }
    tasks[0].cancel()
    await #expect(throws: CancellationError.self, "the cancelled caller should stop waiting with CancellationError, before the fetch finishes") {
      try await tasks[0].value
    }
    await eventually { await coalescer.waiterCount(for: "avatar") == 2 }
    #expect(await coalescer.waiterCount(for: "avatar") == 2, "two callers are still waiting")
    await clock.waitForSleepers(1)  // the shared operation must be asleep before time moves
    await clock.advance(by: .seconds(1))
    #expect(try await tasks[1].value == 7, "a caller that did not cancel must still get the image")
    #expect(try await tasks[2].value == 7, "a caller that did not cancel must still get the image")
    #expect(operationCancelled.value == 0, "one caller leaving must not cancel the shared fetch others still wait for")
  }

  @Test("the shared work is cancelled when every waiter has cancelled")
  func cancellingEveryWaiter() async throws {
    let clock = ManualClock()
    let operationCancelled = Counter()
    let coalescer = RequestCoalescer<String, Int>()
    let tasks = await callers(2, of: coalescer) {
      do {
        try await clock.sleep(for: .seconds(1))
      } catch {
        operationCancelled.increment()
        throw error
      }
      return 7
    }
    for task in tasks { task.cancel() }
    for task in tasks {
      await #expect(throws: CancellationError.self, "each cancelled caller gets CancellationError") { try await task.value }
    }
    let cancelled = await eventually { operationCancelled.value == 1 }
    #expect(cancelled, "with nobody left waiting, the fetch should be cancelled to save bandwidth")
    #expect(await !coalescer.isInFlight("avatar"), "an abandoned flight should be removed")
  }

  @Test("an abandoned flight that finishes late does not touch the newer flight for the same key")
  func lateFinishKeepsNewerFlight() async throws {
    let clock = ManualClock()
    let coalescer = RequestCoalescer<String, Int>()
    // The first operation ignores cancellation, as a non-cooperative download does.
    let old = await callers(1, of: coalescer) {
      await Task { try? await clock.sleep(for: .seconds(1)) }.value
      return 1
    }
    old[0].cancel()
    await #expect(throws: CancellationError.self, "the only waiter cancelled") { try await old[0].value }
    await eventually { await !coalescer.isInFlight("avatar") }
    let new = await callers(1, of: coalescer) {
      try await clock.sleep(for: .seconds(5))
      return 2
    }
    let newFinished = Counter()
    Task {
      _ = try? await new[0].value
      newFinished.increment()
    }
    await clock.waitForSleepers(2) { newFinished.value > 0 }
    await clock.advance(by: .seconds(1))  // the abandoned operation finishes now
    await eventually { clock.sleepers == 1 }
    for _ in 0..<200 { await Task.yield() }
    #expect(await coalescer.isInFlight("avatar"), "the old flight finishing must not remove the newer flight: check the flight id before removing")
    await clock.advance(by: .seconds(4))
    let value = try await new[0].value
    #expect(value == 2, "the newer caller must get its own flight's result (2), not the abandoned one's; got \(value)")
  }

  @Test("a failure reaches every waiter and is not remembered")
  func failureReachesEveryWaiter() async throws {
    let clock = ManualClock()
    let calls = Counter()
    let coalescer = RequestCoalescer<String, Int>()
    let tasks = await callers(5, of: coalescer) {
      calls.increment()
      try await clock.sleep(for: .seconds(1))
      throw Offline()
    }
    await clock.waitForSleepers(1)  // the shared operation must be asleep before time moves
    await clock.advance(by: .seconds(1))
    for task in tasks {
      await #expect(throws: Offline.self, "every waiter gets the operation's error") { try await task.value }
    }
    let retried = try await coalescer.value(for: "avatar") {
      calls.increment()
      return 3
    }
    #expect(retried == 3 && calls.value == 2, "after a failure the next call runs the operation again")
  }

  @Test func differentKeysDoNotWaitForEachOther() async throws {
    let clock = ManualClock()
    let coalescer = RequestCoalescer<String, Int>()
    let slow = await callers(1, of: coalescer, key: "slow") {
      try await clock.sleep(for: .seconds(10))
      return 1
    }
    let fast = try await coalescer.value(for: "fast") { 2 }
    #expect(fast == 2, "a slow key must not hold up another key")
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(10))
    #expect(try await slow[0].value == 1)
  }
}
