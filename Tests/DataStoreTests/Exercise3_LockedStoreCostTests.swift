import Testing
import WorkbookTesting

@testable import DataStore

/// The cost table promises O(1) get and set under the lock, and an O(1) snapshot: the caller gets
/// a second reference to the dictionary's storage, and copy-on-write copies it only if someone
/// writes while that reference lives. `GrowthCheck` times each at 100 entries, then at 10,000 and
/// 100,000, and fails when one grows more than 20×: a defensive copy of the entries grows ~1,000×.
@Suite("Exercise 3 — A lock-based store with transactions (cost)", .timeLimit(.minutes(1)))
struct Exercise3_LockedStoreCostTests {
  @Test("get, set and snapshot cost the same at 100 entries and at 100,000")
  func operationsTakeConstantTime() async {
    let verdict = await GrowthCheck(sizes: [10_000, 100_000], unit: "entries").run { Self.storeWorkload(entries: $0) }
    if let failure = verdict.message(possibleCauses: [
      "a snapshot built entry by entry inside the lock, where returning the dictionary itself (`withLock { $0 }`) "
        + "gives the caller a consistent copy: a `Dictionary` is a value",
      "a get or a set that does more than one dictionary operation (a scan, or a copy of the entries)",
    ]) {
      Issue.record("\(failure)")
    }
  }

  /// A store of `entries` entries and a round of 200 calls of each operation on stored keys
  /// picked at random; sets replace a stored value, so the store keeps its size.
  static func storeWorkload(entries: Int) -> GrowthCheck.Workload {
    let store = LockedStore<Int, Int>(Dictionary(uniqueKeysWithValues: (0..<entries).map { ($0, $0) }))
    guard store.count == entries, store.get(entries - 1) == entries - 1, store.snapshot().count == entries else {
      return .broken(
        "a store created with \(entries) entries should count \(entries), return each stored value and "
          + "snapshot them all; finish get, count and snapshot first (their own tests say what is missing)")
    }
    var random = SeededRandom(seed: UInt64(entries))
    return .ready { timer in
      let keys = (0..<200).map { _ in Int(random.next() % UInt64(entries)) }
      await timer.time("get", calls: keys.count) { _ = store.get(keys[$0]) }
      await timer.time("set", calls: keys.count) { store.set($0, for: keys[$0]) }
      await timer.time("snapshot", calls: keys.count) { _ in _ = store.snapshot() }
    }
  }
}
