#if canImport(Downloads)
  import Downloads
  import Foundation

  /// Chapter 5: what the scheduler (priority queue, aging, slot accounting) adds per transfer,
  /// against a task group that only limits concurrency to the same three slots.
  enum DownloadsBench {
    /// Runs `count` jobs of `work`, at most three at once, in a plain task group.
    static func taskGroup(count: Int, _ work: @escaping @Sendable (Int) async -> Void) async {
      await withTaskGroup(of: Void.self) { group in
        var next = 0
        while next < min(3, count) {
          let index = next
          group.addTask { await work(index) }
          next += 1
        }
        while await group.next() != nil, next < count {
          let index = next
          group.addTask { await work(index) }
          next += 1
        }
        await group.waitForAll()
      }
    }

    /// Submits `count` jobs of `work` to the chapter's scheduler and waits for all of them.
    static func scheduler(count: Int, _ work: @escaping @Sendable (Int) async -> Void) async {
      let (finished, done) = AsyncStream<Void>.makeStream()
      let scheduler = DownloadScheduler(maxConcurrent: 3, clock: ContinuousClock(), agingBound: .seconds(30))
      let priorities: [DownloadPriority] = [.low, .normal, .high]
      for index in 0..<count {
        _ = await scheduler.submit(priority: priorities[index % 3]) {
          await work(index)
          done.yield()
        }
      }
      var seen = 0
      for await _ in finished {
        seen += 1
        if seen == count { break }
      }
    }

    static func run(_ bench: Bench, quick: Bool) async {
      print("\n== Chapter 5: the download scheduler's overhead per transfer")
      let empty = quick ? 2_000 : 10_000
      let plain = await bench.median { await taskGroup(count: empty) { _ in } }
      let scheduled = await bench.median { await scheduler(count: empty) { _ in } }
      printTable(
        "\(empty) empty jobs, 3 at a time", baseline: Row(label: "task group, 3 slots", time: plain, operations: empty),
        rows: [Row(label: "DownloadScheduler", time: scheduled, operations: empty)],
        note: "pure bookkeeping: the cost of priorities, aging and slots per job")

      let transfers = quick ? 100 : 300
      let transport = ScriptedTransport(chunkSize: 16 * 1024)
      let urls = (0..<transfers).map { URL(string: "https://files.example/\($0).bin")! }
      for url in urls { transport.serve(url, .init(size: 64 * 1024)) }
      let downloader = Downloader(transport: transport)
      let root = FileManager.default.temporaryDirectory.appendingPathComponent("workbook-bench-\(UUID().uuidString)")
      try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: root) }
      let transfer: @Sendable (Int) async -> Void = { index in
        _ = try? await downloader.download(urls[index], to: root.appendingPathComponent("\(index).bin"))
      }
      let direct = await bench.median { await taskGroup(count: transfers, transfer) }
      let queued = await bench.median { await scheduler(count: transfers, transfer) }
      printTable(
        "\(transfers) transfers of 64 KB (scripted transport, streamed to disk), 3 at a time",
        baseline: Row(label: "task group, 3 slots", time: direct, operations: transfers),
        rows: [Row(label: "DownloadScheduler", time: queued, operations: transfers)],
        note: "the scheduler's share of a real transfer")
    }
  }
#endif
