import Testing
import WorkbookTesting

@testable import DataStore

/// The chapter's cost table promises O(1) get, set and contains, and an O(1) snapshot (a copy on
/// write: the caller shares the storage until someone writes). `GrowthCheck` times each on a store
/// of 100 entries, then of 10,000 and 100,000, and fails when one grows more than 20×: a
/// dictionary stays within 1–3×, while a copy or a scan of the entries grows about 1,000×.
@Suite("Exercise 1 — The actor store (cost)", .timeLimit(.minutes(1)))
struct Exercise1_DataStoreCostTests {
  @Test("get, set, contains and snapshot cost the same at 100 entries and at 100,000")
  func operationsTakeConstantTime() async {
    let verdict = await GrowthCheck(sizes: [10_000, 100_000], unit: "entries").run { await Self.storeWorkload(entries: $0) }
    if let failure = verdict.message(possibleCauses: [
      "a set that copies the dictionary (`var copy = storage; copy[key] = value; storage = copy` keeps two "
        + "references alive, so the write copies every entry), where one dictionary operation on `storage` is O(1)",
      "a contains that scans the entries (`storage.contains { $0.key == key }`), where `storage.keys.contains(key)` "
        + "is a hash lookup",
      "a snapshot that builds a new dictionary, where returning `storage` shares its storage",
    ]) {
      Issue.record("\(failure)")
    }
  }

  /// A store of `entries` entries and a round of 200 calls of each operation on stored keys
  /// picked at random. Sets replace a stored value, so the store keeps its size.
  static func storeWorkload(entries: Int) async -> GrowthCheck.Workload {
    let store = DataStore<Int, Int>(Dictionary(uniqueKeysWithValues: (0..<entries).map { ($0, $0) }))
    for key in 0..<entries where key % 1_000 == 0 { await store.set(key, for: key) }
    guard await store.count == entries, await store.get(entries - 1) == entries - 1 else {
      return .broken(
        "a store created with \(entries) entries should count \(entries) and return each stored value; "
          + "finish get, set and count first (their own tests say what is missing)")
    }
    var random = SeededRandom(seed: UInt64(entries))
    return .ready { timer in
      let keys = (0..<200).map { _ in Int(random.next() % UInt64(entries)) }
      await timer.time("get", calls: keys.count) { _ = await store.get(keys[$0]) }
      await timer.time("set", calls: keys.count) { await store.set($0, for: keys[$0]) }
      await timer.time("contains", calls: keys.count) { _ = await store.contains(keys[$0]) }
      await timer.time("snapshot", calls: keys.count) { _ in _ = await store.snapshot() }
    }
  }
}
