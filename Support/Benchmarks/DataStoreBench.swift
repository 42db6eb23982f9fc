#if canImport(DataStore)
  import DataStore
  import Dispatch
  import Foundation

  /// Chapter 1: the four ways to guard a dictionary, on a read-heavy and a write-heavy mix, with
  /// one and two workers. The baseline is the classic `NSLock` around a dictionary.
  enum DataStoreBench {
    /// A dictionary behind an `NSLock`: what most pre-concurrency code bases use.
    ///
    /// Generic like the stores under test, and specialized like them: the release build passes
    /// `-cross-module-optimization` (see Package.swift), so this module specializes the chapter's
    /// generic stores for `Int` keys and values, as an app's own module would, and it specializes
    /// this baseline the same way. The tables compare the synchronization, not the optimizer.
    final class NSLockStore<Key: Hashable, Value>: @unchecked Sendable {
      private let lock = NSLock()
      private var storage: [Key: Value] = [:]

      func get(_ key: Key) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        return storage[key]
      }

      func set(_ value: Value, for key: Key) {
        lock.lock()
        storage[key] = value
        lock.unlock()
      }
    }

    static let keys = 1_024
    static let operationsPerWorker = 200_000
    /// The two mixes, by the share of reads, and the numbers of workers each runs with.
    static let mixes = [("read-heavy (90% reads)", 90), ("write-heavy (10% reads)", 10)]
    static let workerCounts = [1, 2]

    /// Whether operation `index` of a mix is a read: `readPercent` of them are.
    static func isRead(_ index: Int, readPercent: Int) -> Bool {
      (index &* 37 &+ 11) % 100 < readPercent
    }

    /// One mix on `workers` threads at once against a store with synchronous `get` and `set`:
    /// worker `w` touches keys `(i + w) % keys`, and `finish` runs once every worker is done.
    /// Inlined at each call, so the loop calls each store directly rather than through a closure.
    @inline(__always)
    static func measure(
      _ label: String, _ bench: Bench, workers: Int, readPercent: Int, get: @Sendable (Int) -> Int?,
      set: @Sendable (Int, Int) -> Void,
      finish: () -> Void = {}
    ) -> Row {
      Row(
        label: label,
        time: bench.median {
          DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in 0..<operationsPerWorker {
              let key = (index &+ worker) % keys
              if isRead(index, readPercent: readPercent) { blackHole(get(key)) } else { set(index, key) }
            }
          }
          finish()
        }, operations: operationsPerWorker * workers)
    }

    /// The same mix through an actor store: each worker is a task, and every call awaits a turn.
    static func measureActor(
      _ label: String, _ bench: Bench, workers: Int, readPercent: Int, store: DataStore<Int, Int>
    ) async -> Row {
      Row(
        label: label,
        time: await bench.median {
          await withTaskGroup(of: Void.self) { group in
            for worker in 0..<workers {
              group.addTask {
                for index in 0..<operationsPerWorker {
                  let key = (index &+ worker) % keys
                  if isRead(index, readPercent: readPercent) {
                    blackHole(await store.get(key))
                  } else {
                    await store.set(index, for: key)
                  }
                }
              }
            }
          }
        }, operations: operationsPerWorker * workers)
    }

    static func run(_ bench: Bench) async {
      for (mix, readPercent) in mixes {
        for workers in workerCounts {
          let total = operationsPerWorker * workers
          let nsLock = NSLockStore<Int, Int>()
          let baseline = measure(
            "NSLock", bench, workers: workers, readPercent: readPercent, get: { nsLock.get($0) },
            set: { nsLock.set($0, for: $1) })
          let locked = LockedStore<Int, Int>()
          let mutexRow = measure(
            "Mutex (LockedStore)", bench, workers: workers, readPercent: readPercent, get: { locked.get($0) },
            set: { locked.set($0, for: $1) })
          let queueStore = ReaderWriterStore<Int, Int>()
          let queueRow = measure(
            "concurrent queue + barrier", bench, workers: workers, readPercent: readPercent,
            get: { queueStore.get($0) }, set: { queueStore.set($0, for: $1) },
            finish: { blackHole(queueStore.snapshot()) })  // waits for the queued barrier writes

          let actorRow = await measureActor(
            "actor (DataStore)", bench, workers: workers, readPercent: readPercent, store: DataStore<Int, Int>())

          printTable(
            "Chapter 1 — stores, \(mix), \(workers) worker\(workers == 1 ? "" : "s"), \(total) operations",
            baseline: baseline, rows: [mutexRow, queueRow, actorRow])
        }
      }
    }
  }
#endif
