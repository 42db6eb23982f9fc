import Testing
import WorkbookTesting

@testable import DataStore

@Suite("Exercise 5 — Reentrancy: create each value once", .timeLimit(.minutes(1)))
struct Exercise5_SingleFlightStoreTests {
  struct Offline: Error {}

  /// Starts `callers` tasks that all ask for "avatar" while the factory sleeps on `clock`, and
  /// returns once every one of them is parked: on the one creation in flight or, when the store
  /// lets them in, on a factory call of its own. That is the moment of the race, held until the
  /// test moves the clock.
  func crowd(
    _ store: SingleFlightStore<String, Int>, callers: Int, clock: ManualClock,
    factory: @escaping @Sendable () async throws -> Int
  ) async -> Crowd<Int> {
    let crowd = Crowd(callers) { _ in try await store.value(for: "avatar", orCreate: factory) }
    await clock.waitForSleepers(1) { crowd.allFinished }
    await settle()
    return crowd
  }

  @Test("100 callers at once run the factory once and all get its value")
  func createsOnce() async throws {
    let clock = ManualClock()
    let calls = Counter()
    let store = SingleFlightStore<String, Int>()
    let callers = await crowd(store, callers: 100, clock: clock) {
      calls.increment()
      try await clock.sleep(for: .seconds(1))
      return 7
    }
    await clock.advance(by: .seconds(1))
    for value in try await callers.values() {
      #expect(value == 7, "every caller should get the value the one factory call made")
    }
    let count = calls.value
    #expect(
      count == 1,
      "the factory ran \(count) times for one key: at the `await`, other callers entered the actor and saw the key missing. Store the task in flight before awaiting it"
    )
    #expect(await store.cachedValue(for: "avatar") == 7, "the created value should be kept")
  }

  @Test func aStoredValueIsReturnedWithoutCallingTheFactory() async throws {
    let store = SingleFlightStore<String, Int>()
    _ = try await store.value(for: "k") { 1 }
    let again = try await store.value(for: "k") {
      Issue.record("the factory ran although the value was already stored")
      return 2
    }
    #expect(again == 1, "the second call should return the stored value")
  }

  @Test("a failure reaches every waiter, and the next call tries again")
  func failureReachesEveryWaiterAndIsRetried() async throws {
    let clock = ManualClock()
    let calls = Counter()
    let store = SingleFlightStore<String, Int>()
    let callers = await crowd(store, callers: 20, clock: clock) {
      calls.increment()
      try await clock.sleep(for: .seconds(1))
      throw Offline()
    }
    await clock.advance(by: .seconds(1))
    for result in await callers.results() {
      #expect(throws: Offline.self, "every waiter should get the factory's error") { try result.get() }
    }
    #expect(calls.value == 1, "20 waiters should share one failing factory call")
    #expect(await store.cachedValue(for: "avatar") == nil, "a failure must not be stored as a value")
    do {
      let retried = try await store.value(for: "avatar") {
        calls.increment()
        return 9
      }
      #expect(retried == 9, "after a failure the next call should return what the new factory call made")
    } catch {
      Issue.record("after a failure the next call should run the factory again, but it threw \(error): the failure was remembered")
    }
    #expect(calls.value == 2, "the retry should have called the factory a second time")
  }

  @Test func aSlowKeyDoesNotBlockAnotherKey() async throws {
    let clock = ManualClock()
    let store = SingleFlightStore<String, Int>()
    let finished = Counter()
    let slow = Task {
      defer { finished.increment() }
      return try await store.value(for: "slow") {
        try await clock.sleep(for: .seconds(10))
        return 1
      }
    }
    await clock.waitForSleepers(1) { finished.value == 1 }
    let fast = try await store.value(for: "fast") { 2 }
    #expect(fast == 2, "a key whose factory is still running must not hold up other keys")
    await clock.advance(by: .seconds(10))
    #expect(try await slow.value == 1)
  }

  @Test("a creation that finishes after a remove does not overwrite the newer one")
  func aStaleCreationDoesNotOverwriteANewerOne() async throws {
    let clock = ManualClock()
    let store = SingleFlightStore<String, Int>()
    let finished = Counter()
    let old = Task {
      defer { finished.increment() }
      return try await store.value(for: "k") {
        try await clock.sleep(for: .seconds(1))
        return 1
      }
    }
    await clock.waitForSleepers(1) { finished.value == 1 }
    await store.remove("k")
    let new = Task {
      defer { finished.increment() }
      return try await store.value(for: "k") {
        try await clock.sleep(for: .seconds(5))
        return 2
      }
    }
    await clock.waitForSleepers(2) { finished.value == 2 }
    await clock.advance(by: .seconds(1))
    #expect(try await old.value == 1, "the first caller still gets what its own factory made")
    let afterOld = await store.cachedValue(for: "k")
    #expect(afterOld == nil, "the key was removed and a new creation is running; the old result must not be stored, found \(String(describing: afterOld))")
    await clock.advance(by: .seconds(5))
    #expect(try await new.value == 2)
    let afterNew = await store.cachedValue(for: "k")
    #expect(afterNew == 2, "the newer creation's value should be the one stored")
  }

  @Test("a creation that fails after a remove does not clear the newer one")
  func aStaleFailureDoesNotClearANewerCreation() async throws {
    let clock = ManualClock()
    let store = SingleFlightStore<String, Int>()
    let finished = Counter()
    let newCalls = Counter()
    let old = Task {
      defer { finished.increment() }
      return try await store.value(for: "avatar") {
        try await clock.sleep(for: .seconds(1))
        throw Offline()
      }
    }
    await clock.waitForSleepers(1) { finished.value == 1 }
    await store.remove("avatar")
    let new = Task {
      defer { finished.increment() }
      return try await store.value(for: "avatar") {
        newCalls.increment()
        try await clock.sleep(for: .seconds(5))
        return 2
      }
    }
    await clock.waitForSleepers(2) { finished.value == 2 }
    await clock.advance(by: .seconds(1))
    await #expect(throws: Offline.self, "the first caller gets its own factory's error") { try await old.value }
    // A third caller while the newer creation still sleeps: it should wait for that one.
    let third = await crowd(store, callers: 1, clock: clock) {
      newCalls.increment()
      return 3
    }
    await clock.advance(by: .seconds(5))
    #expect(try await new.value == 2)
    let thirdValue = try await third.values()[0]
    #expect(
      thirdValue == 2 && newCalls.value == 1,
      "the old attempt failed after a remove, while a newer creation was running: its failure must leave the newer entry alone, so a third caller waits for it; instead the factory ran \(newCalls.value) times and the third caller got \(thirdValue)"
    )
  }

  @Test("cancelling the caller that started a creation does not cancel it for the others")
  func aCancelledCallerDoesNotCancelTheCreation() async throws {
    let clock = ManualClock()
    let calls = Counter()
    let store = SingleFlightStore<String, Int>()
    let finished = Counter()
    let factory: @Sendable () async throws -> Int = {
      calls.increment()
      try await clock.sleep(for: .seconds(1))
      return 7
    }
    let first = Task {
      defer { finished.increment() }
      return try await store.value(for: "avatar", orCreate: factory)
    }
    await clock.waitForSleepers(1) { finished.value == 1 }
    // A second caller joins the creation in flight (or, wrongly, starts its own).
    let second = await crowd(store, callers: 1, clock: clock, factory: factory)
    first.cancel()  // the screen that asked first scrolled away
    await settle()
    await clock.advance(by: .seconds(1))
    do {
      let value = try await second.values()[0]
      #expect(value == 7, "the caller still waiting should get the value the one factory call made, not \(value)")
    } catch {
      Issue.record(
        "the caller still waiting got \(error): cancelling the first caller cancelled the creation it shared with the others. Only that caller left; the factory should run on for the rest"
      )
      return
    }
    switch await first.result {
    case .success(let value): #expect(value == 7, "the cancelled caller may wait and return the value, but then it is 7, not \(value)")
    case .failure(let error): #expect(error is CancellationError, "the cancelled caller may throw CancellationError, not \(error)")
    }
    #expect(calls.value == 1, "one creation for one key, cancelled caller or not; the factory ran \(calls.value) times")
    let kept = await store.cachedValue(for: "avatar")
    #expect(kept == 7, "the creation finished, so its value should be stored for the next caller, found \(String(describing: kept))")
  }

  @Test func removeForgetsTheValue() async throws {
    let store = SingleFlightStore<String, Int>()
    _ = try await store.value(for: "k") { 1 }
    await store.remove("k")
    #expect(await store.cachedValue(for: "k") == nil, "remove should forget the value")
    let fresh = try await store.value(for: "k") { 2 }
    #expect(fresh == 2, "after remove, the next call should create the value again")
  }
}
