import Foundation
import Testing
import WorkbookTesting

@testable import ImageCache

@Suite("Exercise 5 — Coalescing with per-waiter cancellation", .timeLimit(.minutes(1)))
struct Exercise5_RequestCoalescerTests {
  struct Offline: Error {}

  /// Starts `count` callers for `key` and returns them once they all wait on one flight (see
  /// `joined`).
  func callers(
    _ count: Int, of coalescer: RequestCoalescer<String, Int>, key: String = "avatar",
    operation: @escaping @Sendable () async throws -> Int
  ) async -> Crowd<Int> {
    await joined(count, on: coalescer, key: key) { _ in try await coalescer.value(for: key, operation: operation) }
  }

  @Test("1,000 concurrent loads of one key run the operation exactly once")
  func thousandCallersOneFetch() async throws {
    let clock = ManualClock()
    let fetches = Counter()
    let coalescer = RequestCoalescer<String, Int>()
    let crowd = await callers(1_000, of: coalescer) {
      fetches.increment()
      try await clock.sleep(for: .seconds(1))
      return 42
    }
    #expect(await coalescer.waiterCount(for: "avatar") == 1_000, "all 1,000 callers should be waiting on one flight")
    await clock.waitForSleepers(1) { crowd.allFinished }  // the shared operation must be asleep before time moves
    await settle()
    #expect(fetches.value == 1, "1,000 callers wait while the operation sleeps: it should have started once, not \(fetches.value) times")
    await clock.advance(by: .seconds(1))
    for task in crowd.tasks {
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
    let crowd = await callers(3, of: coalescer) {
      do {
        try await clock.sleep(for: .seconds(1))
      } catch {
        operationCancelled.increment()
        throw error
      }
      return 7
    }
    // Three callers wait and the shared operation sleeps: now one of them leaves.
    await clock.waitForSleepers(1) { crowd.allFinished }
    crowd.tasks[0].cancel()
    let left = await eventually { crowd.finished >= 1 }
    #expect(left, "the cancelled caller should stop waiting at once, before the fetch finishes")
    #expect(isCancellation(await crowd.tasks[0].result), "the cancelled caller should get CancellationError")
    await settle()  // whatever the cancellation was going to do, it has done
    #expect(crowd.finished == 1, "only the cancelled caller may stop waiting: \(crowd.finished) of 3 have returned")
    #expect(await coalescer.waiterCount(for: "avatar") == 2, "two callers are still waiting")
    #expect(
      operationCancelled.value == 0 && clock.sleepers == 1,
      "one caller leaving must not cancel the shared fetch the two others still wait for (check that no waiter is left first)")
    await clock.run()
    // A waiter that is never resumed would hold this test forever: wait for both to return, and
    // read their results only if they did.
    let answered = await eventually { crowd.allFinished }
    #expect(
      answered,
      "after the shared fetch finished, \(3 - crowd.finished) of the two callers that did not cancel are still waiting; each must get the image"
    )
    guard answered else { return }
    #expect((try? await crowd.tasks[1].result.get()) == 7, "a caller that did not cancel must still get the image")
    #expect((try? await crowd.tasks[2].result.get()) == 7, "a caller that did not cancel must still get the image")
  }

  @Test("a caller cancelled before it joins gets CancellationError at once and starts nothing")
  func cancelledBeforeJoining() async throws {
    let clock = ManualClock()
    let runs = Counter()
    let coalescer = RequestCoalescer<String, Int>()
    let gate = Gate()
    // The caller is cancelled while it is parked on its way in: when it calls value(for:), its
    // cancellation handler runs at once, before its continuation exists.
    let caller = Crowd(1) { _ in
      await gate.pass()
      return try await coalescer.value(for: "avatar") {
        runs.increment()
        try await clock.sleep(for: .seconds(1))
        return 1
      }
    }
    await gate.arrivals(1)
    caller.cancelAll()
    gate.open()
    let ended = await eventually { caller.allFinished }
    #expect(
      ended,
      "a caller that is already cancelled should not wait at all: its cancellation handler ran before its continuation was stored, and found nothing to resume")
    await settle()
    #expect(
      runs.value == 0,
      "a caller that is already cancelled when it joins must not start the operation: check Task.isCancelled when joining; the operation ran \(runs.value) time(s)"
    )
    #expect(await !coalescer.isInFlight("avatar"), "no flight should be left behind for a caller that never waited")
    await clock.run()
    let result = await caller.tasks[0].result
    #expect(isCancellation(result), "the cancelled caller should get CancellationError, got \(result)")
  }

  @Test("the shared work is cancelled when every waiter has cancelled")
  func cancellingEveryWaiter() async throws {
    let clock = ManualClock()
    let operationCancelled = Counter()
    let coalescer = RequestCoalescer<String, Int>()
    let crowd = await callers(2, of: coalescer) {
      do {
        try await clock.sleep(for: .seconds(1))
      } catch {
        operationCancelled.increment()
        throw error
      }
      return 7
    }
    await clock.waitForSleepers(1) { crowd.allFinished }
    crowd.cancelAll()
    let left = await eventually { crowd.allFinished }
    #expect(left, "each cancelled caller should stop waiting at once")
    let cancelled = await eventually { operationCancelled.value == 1 }
    #expect(cancelled, "with nobody left waiting, the fetch should be cancelled to save bandwidth")
    #expect(await !coalescer.isInFlight("avatar"), "an abandoned flight should be removed")
    await clock.run()
    guard left else { return }  // a caller never resumed would hold the loop below forever
    for task in crowd.tasks {
      #expect(isCancellation(await task.result), "each cancelled caller gets CancellationError")
    }
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
    await clock.waitForSleepers(1) { old.allFinished }
    old.cancelAll()
    let left = await eventually { old.allFinished }
    #expect(left, "the only waiter cancelled: it should stop waiting at once")
    await settle()
    #expect(await !coalescer.isInFlight("avatar"), "with its only waiter gone, the flight is abandoned and forgotten")
    let new = await callers(1, of: coalescer) {
      try await clock.sleep(for: .seconds(5))
      return 2
    }
    await clock.waitForSleepers(2) { new.allFinished }
    await clock.advance(by: .seconds(1))  // the abandoned operation finishes now, and everything settles
    #expect(await coalescer.isInFlight("avatar"), "the old flight finishing must not remove the newer flight: check the flight id before removing")
    #expect(new.finished == 0, "the newer caller must wait for its own flight, not take the abandoned one's result")
    await clock.run()
    let value = try await new.tasks[0].value
    #expect(value == 2, "the newer caller must get its own flight's result (2), not the abandoned one's; got \(value)")
    #expect(isCancellation(await old.tasks[0].result), "the cancelled caller gets CancellationError")
  }

  @Test("a failure reaches every waiter and is not remembered")
  func failureReachesEveryWaiter() async throws {
    let clock = ManualClock()
    let calls = Counter()
    let coalescer = RequestCoalescer<String, Int>()
    let crowd = await callers(5, of: coalescer) {
      calls.increment()
      try await clock.sleep(for: .seconds(1))
      throw Offline()
    }
    await clock.waitForSleepers(1) { crowd.allFinished }  // the shared operation must be asleep before time moves
    await clock.advance(by: .seconds(1))
    for task in crowd.tasks {
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
    let fast = Crowd(1) { _ in try await coalescer.value(for: "fast") { 2 } }
    let answered = await eventually { fast.allFinished }
    #expect(answered, "a slow key must not hold up another key: the fast key's caller is still waiting")
    await clock.run()
    #expect(try await fast.tasks[0].value == 2, "the fast key gets its own value")
    #expect(try await slow.tasks[0].value == 1, "the slow key gets its own value")
  }
}
