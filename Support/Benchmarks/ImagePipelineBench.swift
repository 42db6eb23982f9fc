#if canImport(ImageCache)
  import Foundation
  import ImageCache
  import Synchronization

  /// Chapter 4: what coalescing saves and costs, and what the disk cache's bookkeeping costs
  /// over plain file writes.
  enum ImagePipelineBench {
    /// Counts calls of the expensive operation.
    final class Calls: Sendable {
      private let count = Atomic(0)
      func add() { count.add(1, ordering: .relaxed) }
      var value: Int { count.load(ordering: .relaxed) }
    }

    /// 1,000 concurrent loads of one key through `RequestCoalescer`, against 1,000 independent
    /// calls of the same operation (a 20 ms "download").
    static func coalescing(_ bench: Bench, callers: Int) async {
      let download: Duration = .milliseconds(20)
      var fetchesWith = 0
      var fetchesWithout = 0
      let with = await bench.median {
        let calls = Calls()
        let coalescer = RequestCoalescer<String, Int>()
        await withTaskGroup(of: Void.self) { group in
          for _ in 0..<callers {
            group.addTask {
              _ = try? await coalescer.value(for: "hero.png") {
                calls.add()
                try await Task.sleep(for: download)
                return 42
              }
            }
          }
        }
        fetchesWith = calls.value
      }
      let without = await bench.median {
        let calls = Calls()
        await withTaskGroup(of: Void.self) { group in
          for _ in 0..<callers {
            group.addTask {
              calls.add()
              try? await Task.sleep(for: download)
            }
          }
        }
        fetchesWithout = calls.value
      }
      printTable(
        "coalescing: \(callers) concurrent loads of one URL (a 20 ms download each)",
        baseline: Row(label: "no coalescing (\(fetchesWithout) downloads)", time: without, operations: callers),
        rows: [Row(label: "RequestCoalescer (\(fetchesWith) download)", time: with, operations: callers)],
        note: "time per caller, wall clock; the download count is what the network sees")
    }

    /// Disk cache puts (atomic write, index bookkeeping, LRU eviction to the low-water mark)
    /// against plain atomic file writes of the same bytes.
    static func diskPuts(_ bench: Bench, count: Int) async {
      let payload = Data(repeating: 7, count: 16 * 1024)
      let root = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-bench-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: root) }
      var run = 0
      func freshDirectory() -> URL {
        run += 1
        let directory = root.appendingPathComponent("\(run)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
      }
      let plain = bench.median {
        let directory = freshDirectory()
        for index in 0..<count {
          try? payload.write(to: directory.appendingPathComponent("\(index)"), options: .atomic)
        }
      }
      let cached = await bench.median {
        let directory = freshDirectory()
        // Room for a quarter of the entries: most puts evict.
        let limit = payload.count * count / 4
        guard let cache = try? DiskCache(directory: directory, configuration: .init(sizeLimit: limit)) else { return }
        for index in 0..<count {
          try? await cache.store(payload, forKey: "https://images.example/\(index).png")
        }
        try? await cache.flush()
      }
      printTable(
        "disk cache: \(count) puts of 16 KB with eviction (limit: a quarter of them)",
        baseline: Row(label: "Data.write(.atomic)", time: plain, operations: count),
        rows: [Row(label: "DiskCache.store", time: cached, operations: count)])
    }

    static func run(_ bench: Bench, quick: Bool) async {
      print("\n== Chapter 4: coalescing and the disk cache")
      await coalescing(bench, callers: 1_000)
      await diskPuts(bench, count: quick ? 500 : 2_000)
    }
  }
#endif
