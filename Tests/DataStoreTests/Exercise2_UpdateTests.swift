import Testing
import WorkbookTesting

@testable import DataStore

@Suite("Exercise 2 — Atomic update", .timeLimit(.minutes(1)))
struct Exercise2_UpdateTests {
  struct Refused: Error {}

  @Test func updateReturnsAndStoresTheNewValue() async {
    let store = DataStore(["count": 1])
    let result = await store.update("count") { ($0 ?? 0) + 41 }
    #expect(result == 42, "update should return the value the transform produced (1 + 41 = 42)")
    let stored = await store.get("count")
    #expect(stored == 42, "update should store the value the transform produced")
  }

  @Test func transformSeesNilForAMissingKey() async {
    let store = DataStore<String, Int>()
    let result = await store.update("new") { current in
      #expect(current == nil, "the transform should receive nil for a key with no value")
      return 1
    }
    let stored = await store.get("new")
    #expect(result == 1 && stored == 1, "update on a missing key should insert the new value")
  }

  @Test func returningNilRemovesTheKey() async {
    let store = DataStore(["gone": 1])
    let result = await store.update("gone") { _ in nil }
    #expect(result == nil, "update should return nil when the transform returns nil")
    let stillThere = await store.contains("gone")
    #expect(stillThere == false, "a transform that returns nil should remove the key")
  }

  @Test func aThrowingTransformChangesNothing() async {
    let store = DataStore(["balance": 100])
    await #expect(throws: Refused.self, "the transform's error should reach the caller of update") {
      try await store.update("balance") { _ in throw Refused() }
    }
    let balance = await store.get("balance")
    #expect(balance == 100, "when the transform throws, the old value must stay")
  }

  @Test("an update waiting its turn on the actor cannot get between another update's read and write")
  func anUpdateWaitingOnTheActorCannotGetIn() async {
    // Two increments queued on the actor, the second behind the first. An update that suspends
    // anywhere between reading and writing lets the second one read the same old value.
    let store = DataStore<String, Int>()
    let increment: @Sendable (isolated DataStore<String, Int>) async -> Void = { _ in
      await store.update("hits") { ($0 ?? 0) + 1 }
    }
    for caller in await queueBehindOneTurn(of: store, [increment, increment]) { await caller.value }
    let hits = await store.get("hits")
    #expect(
      hits == 2,
      "two updates each added 1 but hits is \(hits.map(String.init) ?? "nil"): the second was waiting on the actor, and got in while the first was suspended between its read and its write. Keep update free of `await`"
    )
  }

  @Test("1,000 concurrent increments end at exactly 1,000")
  func concurrentIncrementsAreNotLost() async {
    let store = DataStore<String, Int>()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<1_000 {
        group.addTask { await store.update("hits") { ($0 ?? 0) + 1 } }
      }
    }
    let hits = await store.get("hits")
    #expect(
      hits == 1_000,
      "1,000 tasks each added 1 but the count is \(hits.map(String.init) ?? "nil"): an update that reads, suspends, then writes lets two tasks read the same old value"
    )
  }
}
