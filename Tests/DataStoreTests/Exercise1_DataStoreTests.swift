import Testing
import WorkbookTesting

@testable import DataStore

@Suite("Exercise 1 — The actor store", .timeLimit(.minutes(1)))
struct Exercise1_DataStoreTests {
  @Test func getReturnsWhatWasSet() async {
    let store = DataStore<String, Int>()
    await store.set(7, for: "answer")
    let value = await store.get("answer")
    #expect(value == 7, "after set(7, for: \"answer\"), get(\"answer\") should return 7")
    let missing = await store.get("missing")
    #expect(missing == nil, "get should return nil for a key that was never set")
  }

  @Test func setReplacesTheOldValue() async {
    let store = DataStore<String, Int>()
    await store.set(1, for: "k")
    await store.set(2, for: "k")
    #expect(await store.get("k") == 2, "a second set for the same key should replace the first value")
    #expect(await store.count == 1, "replacing a value should not add a key: count should stay 1")
  }

  @Test func removeReturnsTheOldValue() async {
    let store = DataStore(["a": 1, "b": 2])
    let removed = await store.remove("a")
    #expect(removed == 1, "remove(\"a\") should return the value it removed (1)")
    #expect(await store.contains("a") == false, "after remove(\"a\"), contains(\"a\") should be false")
    #expect(await store.contains("b"), "remove(\"a\") must not touch \"b\"")
    #expect(await store.remove("nope") == nil, "removing a missing key should return nil")
  }

  @Test func countAndRemoveAll() async {
    let store = DataStore<Int, String>()
    for index in 0..<5 { await store.set("v\(index)", for: index) }
    #expect(await store.count == 5, "five different keys were set: count should be 5")
    await store.removeAll()
    #expect(await store.count == 0, "removeAll() should leave the store empty")
    #expect(await store.snapshot().isEmpty, "removeAll() should leave nothing in a snapshot")
  }

  @Test func snapshotIsACopy() async {
    let store = DataStore(["a": 1])
    var copy = await store.snapshot()
    copy["b"] = 2
    #expect(await store.contains("b") == false, "changing a snapshot must not change the store: it is a copy")
    await store.set(3, for: "c")
    #expect(copy["c"] == nil, "a snapshot is taken at one instant; later writes must not show in it")
    #expect(await store.snapshot() == ["a": 1, "c": 3], "snapshot() should return every key and value")
  }

  @Test func replaceAllSwapsEverything() async {
    let store = DataStore(["old": 1, "keep?": 2])
    await store.replaceAll(with: ["new": 3])
    #expect(await store.snapshot() == ["new": 3], "replaceAll(with:) should leave exactly the new values")
  }

  @Test func snapshotsNeverSeeAHalfReplacement() async {
    // Writers swap between two complete states; every snapshot must be one of them, whole.
    let first = Dictionary(uniqueKeysWithValues: (0..<50).map { ($0, 1) })
    let second = Dictionary(uniqueKeysWithValues: (0..<50).map { ($0, 2) })
    let store = DataStore(first)
    await withTaskGroup(of: [Int: Int]?.self) { group in
      for index in 0..<200 {
        group.addTask {
          if index.isMultiple(of: 2) {
            await store.replaceAll(with: index.isMultiple(of: 4) ? first : second)
            return nil
          }
          return await store.snapshot()
        }
      }
      for await snapshot in group {
        guard let snapshot else { continue }
        #expect(snapshot == first || snapshot == second, "a snapshot mixed two states: replaceAll and snapshot must each be one step")
      }
    }
  }

  @Test("agrees with a plain Dictionary on random operations", arguments: modelSeeds)
  func modelBased(seed: UInt64) async {
    let store = DataStore<Int, Int>()
    var model: [Int: Int] = [:]
    for (step, operation) in StoreOperation.sequence(seed: seed, count: 400).enumerated() {
      switch operation {
      case .set(let key, let value):
        await store.set(value, for: key)
        model[key] = value
      case .remove(let key):
        let removed = await store.remove(key)
        #expect(removed == model.removeValue(forKey: key), "seed \(seed), step \(step): \(operation) returned the wrong value")
      case .get(let key):
        #expect(await store.get(key) == model[key], "seed \(seed), step \(step): \(operation) disagrees with a Dictionary")
      case .removeAll:
        await store.removeAll()
        model.removeAll()
      case .replaceAll(let values):
        await store.replaceAll(with: values)
        model = values
      }
      let count = await store.count
      if count != model.count {
        Issue.record("seed \(seed), step \(step): after \(operation) count is \(count), a Dictionary has \(model.count)")
        return
      }
    }
    #expect(await store.snapshot() == model, "seed \(seed): the final snapshot should equal the model")
  }
}
