import Testing
import WorkbookTesting

@testable import DataStore

@Suite("Exercise 2 — Atomic update")
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
