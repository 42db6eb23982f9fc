import Dispatch
import Synchronization
import Testing
import WorkbookTesting

@testable import DataStore

@Suite("Exercise 4 — Readers in parallel, writers alone", .timeLimit(.minutes(1)))
struct Exercise4_ReaderWriterStoreTests {
  @Test func aReadAfterAWriteSeesIt() {
    let store = ReaderWriterStore<String, Int>()
    for value in 0..<500 {
      store.set(value, for: "k")
      let seen = store.get("k")
      guard seen == value else {
        Issue.record(
          "get right after set(\(value)) returned \(String(describing: seen)): a barrier queued before a sync read runs first, so the read must see the write")
        return
      }
    }
    store.remove("k")
    #expect(store.get("k") == nil, "get right after remove should return nil")
  }

  @Test func readsRunInParallel() {
    // Two readers each wait, inside `read`, for the other to arrive. If reads were serialized
    // (a serial queue, or a barrier on reads) the first would wait for a second that cannot
    // get in, and both waits would time out.
    let store = ReaderWriterStore(["k": 1])
    let arrived = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let met = Atomic<Int>(0)
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      store.read { _ in
        arrived.0.signal()
        if arrived.1.wait(timeout: .now() + 5) == .success { met.add(1, ordering: .relaxed) }
      }
    }
    DispatchQueue.global().async(group: group) {
      store.read { _ in
        arrived.1.signal()
        if arrived.0.wait(timeout: .now() + 5) == .success { met.add(1, ordering: .relaxed) }
      }
    }
    group.wait()
    #expect(met.load(ordering: .relaxed) == 2, "two reads should be inside `read` at the same time: use a concurrent queue and `sync` for reads")
  }

  @Test func aWriteWaitsForTheReadsInProgress() {
    // A reader stays inside `read` until the write runs, or 0.2 s at most. A barrier write cannot
    // start while the reader is inside, so it must see `readerInside == false`.
    let store = ReaderWriterStore(["k": 0])
    let readerInside = Atomic<Bool>(false)
    let sawReader = Atomic<Bool>(false)
    let readerStarted = DispatchSemaphore(value: 0)
    let writeRan = DispatchSemaphore(value: 0)
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      store.read { _ in
        readerInside.store(true, ordering: .sequentiallyConsistent)
        readerStarted.signal()
        _ = writeRan.wait(timeout: .now() + 0.2)
        readerInside.store(false, ordering: .sequentiallyConsistent)
      }
    }
    readerStarted.wait()
    store.update("k") { value in
      sawReader.store(readerInside.load(ordering: .sequentiallyConsistent), ordering: .sequentiallyConsistent)
      writeRan.signal()
      return (value ?? 0) + 1
    }
    group.wait()
    #expect(store.get("k") == 1, "the update should have been applied once the reader left")
    #expect(
      sawReader.load(ordering: .sequentiallyConsistent) == false,
      "the write ran while a read was in progress: writes need `.barrier`, or they race with readers")
  }

  @Test func concurrentUpdatesLoseNothing() {
    let store = ReaderWriterStore<String, Int>()
    DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
      store.update("hits") { ($0 ?? 0) + 1 }
    }
    let hits = store.get("hits")
    #expect(hits == 1_000, "1,000 updates each added 1, so hits should be 1,000, not \(hits.map(String.init) ?? "nil")")
  }

  @Test("agrees with a plain Dictionary on random operations", arguments: modelSeeds)
  func modelBased(seed: UInt64) {
    let store = ReaderWriterStore<Int, Int>()
    var model: [Int: Int] = [:]
    for (step, operation) in StoreOperation.sequence(seed: seed, count: 400, includeBulk: false).enumerated() {
      switch operation {
      case .set(let key, let value):
        store.set(value, for: key)
        model[key] = value
      case .remove(let key):
        store.remove(key)
        model[key] = nil
      case .get(let key):
        #expect(store.get(key) == model[key], "seed \(seed), step \(step): \(operation) disagrees with a Dictionary")
      case .removeAll, .replaceAll:
        break
      }
    }
    #expect(store.snapshot() == model, "seed \(seed): the final snapshot should equal the model")
  }
}
