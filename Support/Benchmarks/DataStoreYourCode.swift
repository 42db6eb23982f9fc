#if canImport(DataStore)
  import DataStore
  import Foundation

  /// `make bench-1`: the learner's three stores (the actor, `LockedStore` and
  /// `ReaderWriterStore`) next to the answer's and a dictionary behind an `NSLock`, on the mixes
  /// of `make bench`: 90 % and 10 % reads, with one and two workers.
  extension DataStoreBench {
    /// Whether each store keeps what it is given: the starter's stores return placeholders.
    static func lockedStoreWorks() -> Bool {
      let store = LockedStore<Int, Int>()
      store.set(7, for: 1)
      return store.get(1) == 7
    }

    static func readerWriterStoreWorks() -> Bool {
      let store = ReaderWriterStore<Int, Int>()
      store.set(7, for: 1)
      return store.get(1) == 7
    }

    static func actorStoreWorks() async -> Bool {
      let store = DataStore<Int, Int>()
      await store.set(7, for: 1)
      return await store.get(1) == 7
    }

    /// The row id of a store on a mix: `locked.90.1` is `LockedStore`, 90 % reads, one worker.
    static func learnerID(_ store: String, readPercent: Int, workers: Int) -> String {
      "\(store).\(readPercent).\(workers)"
    }

    /// One round of every row, printed as `--emit` lines (see `YourCode`). Each row is the
    /// `make bench` measurement run once after a warm-up; the driver keeps the fastest round.
    /// `withNSLock`: also time the `NSLock` baseline, which one of the two copies is enough to do.
    static func emitLearnerRound(withNSLock: Bool) async {
      let bench = Bench(repetitions: 1)
      let locked = lockedStoreWorks()
      let queue = readerWriterStoreWorks()
      let actor = await actorStoreWorks()
      for (_, readPercent) in mixes {
        for workers in workerCounts {
          func id(_ store: String) -> String { learnerID(store, readPercent: readPercent, workers: workers) }
          func emit(_ store: String, _ row: Row?) {
            YourCode.emit(id(store), row.map { .nanoseconds($0.nanosecondsPerOperation) } ?? .notImplemented)
          }
          if withNSLock {
            let store = NSLockStore<Int, Int>()
            emit(
              "nslock",
              measure(
                "", bench, workers: workers, readPercent: readPercent, get: { store.get($0) },
                set: { store.set($0, for: $1) }))
          }
          let lockedStore = LockedStore<Int, Int>()
          emit(
            "locked",
            locked
              ? measure(
                "", bench, workers: workers, readPercent: readPercent, get: { lockedStore.get($0) },
                set: { lockedStore.set($0, for: $1) }) : nil)
          let queueStore = ReaderWriterStore<Int, Int>()
          emit(
            "queue",
            queue
              ? measure(
                "", bench, workers: workers, readPercent: readPercent, get: { queueStore.get($0) },
                set: { queueStore.set($0, for: $1) }, finish: { blackHole(queueStore.snapshot()) }) : nil)
          emit(
            "actor",
            actor
              ? await measureActor("", bench, workers: workers, readPercent: readPercent, store: DataStore<Int, Int>())
              : nil)
        }
      }
    }

    /// The table of `make bench-1` and its verdict.
    static func printComparison(yours: YourCode.Collected, answer: YourCode.Collected) {
      let stores = [("actor", "DataStore actor", "actor"), ("locked", "LockedStore", "Mutex"), ("queue", "ReaderWriterStore", "queue")]
      var rows: [YourCode.Comparison] = []
      for (store, operation, short) in stores {
        for (_, readPercent) in mixes {
          for workers in workerCounts {
            rows.append(
              YourCode.Comparison(
                label: "\(short), \(readPercent)% reads, \(workers)w", operation: operation,
                id: learnerID(store, readPercent: readPercent, workers: workers),
                platform: learnerID("nslock", readPercent: readPercent, workers: workers)))
          }
        }
      }
      YourCode.printComparison(
        yours: yours, answer: answer, rows: rows, platformName: "NSLock",
        note: "ns per operation, \(operationsPerWorker) operations per worker over \(keys) keys (1w, 2w: one or two workers at once)",
        exercise: { ["DataStore actor": 1, "LockedStore": 3][$0] ?? 4 }, chapter: 1, spreadOver: "mixes and worker counts")
    }
  }
#endif
