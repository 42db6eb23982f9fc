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

  @Test("agrees with a plain Dictionary after every step of random operations")
  func modelBased() async {
    let check = ModelCheck<DictionaryStep, [Int: Int], DataStore<Int, Int>>(
      "DataStore against a Dictionary", steps: 50, replay: "make chapter-1 EXERCISE=1",
      generate: { DictionaryStep.random([.set, .remove, .get, .removeAll, .replaceAll], using: &$0) },
      model: { [:] }, system: { DataStore<Int, Int>() },
      step: { step, model, store, check in
        switch step {
        case .set(let value, let key):
          await store.set(value, for: key)
          model[key] = value
        case .remove(let key):
          check.same("what \(step) returned", model: model.removeValue(forKey: key), component: await store.remove(key))
        case .get(let key):
          check.same("what \(step) returned", model: model[key], component: await store.get(key))
          check.same("contains(\(key))", model: model[key] != nil, component: await store.contains(key))
        case .removeAll:
          await store.removeAll()
          model.removeAll()
        case .replaceAll(let values):
          await store.replaceAll(with: values)
          model = values
        case .update, .transaction:
          break
        }
        check.same("count", model: model.count, component: await store.count)
        check.same("snapshot()", model: model, component: await store.snapshot())
      })
    if let failure = await check.run() { Issue.record("\(failure)") }
  }

  @Test("a call waiting its turn on the actor sees the store before a replacement or after it, never in between")
  func aCallWaitingOnTheActorSeesNoHalfReplacement() async {
    // Each order queues a replacement and a snapshot on the actor, the second behind the first.
    // A replaceAll or a snapshot that suspends halfway lets the other one in at that point.
    let before = Dictionary(uniqueKeysWithValues: (0..<100).map { ($0, 1) })
    let after = Dictionary(uniqueKeysWithValues: (100..<200).map { ($0, 2) })
    for snapshotFirst in [false, true] {
      let store = DataStore(before)
      let seen = Recorder<[Int: Int]>()
      let replace: @Sendable (isolated DataStore<Int, Int>) async -> Void = { _ in
        await store.replaceAll(with: after)
      }
      let look: @Sendable (isolated DataStore<Int, Int>) async -> Void = { _ in
        seen.append(await store.snapshot())
      }
      let calls = snapshotFirst ? [look, replace] : [replace, look]
      for caller in await queueBehindOneTurn(of: store, calls) { await caller.value }
      let snapshot = seen.values.first ?? [:]
      let order = snapshotFirst ? "a snapshot, then a replaceAll waiting behind it" : "a replaceAll, then a snapshot waiting behind it"
      #expect(
        snapshot == (snapshotFirst ? before : after),
        "\(order): the snapshot holds \(snapshot.count) entries, \(snapshot.values.filter { $0 == 1 }.count) of them from before the replacement: the first call suspended halfway and let the second in. Keep replaceAll and snapshot free of `await`"
      )
    }
  }
}
