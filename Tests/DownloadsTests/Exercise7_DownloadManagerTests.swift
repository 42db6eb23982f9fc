import Foundation
import Testing
import WorkbookTesting

@testable import Downloads

@Suite("Exercise 7 — One transfer per URL", .timeLimit(.minutes(1)))
struct Exercise7_DownloadManagerTests {
  static let size: Int64 = 50_000

  /// A manager over a transport whose transfers hold at their second chunk until the clock moves
  /// (or the transfer is cancelled).
  func makeManager(_ directory: TemporaryDirectory, clock: ManualClock, file: ScriptedTransport.File? = nil)
    -> (DownloadManager, ScriptedTransport, URL)
  {
    let transport = ScriptedTransport(chunkSize: 4096) { _, _, index in
      if index == 1 { try await clock.sleep(for: .seconds(1)) }
    }
    let url = fileURL("shared.bin", size: Self.size)
    transport.serve(url, file ?? .init(size: Self.size, etag: "\"s\""))
    return (DownloadManager(downloader: Downloader(transport: transport), directory: directory.url), transport, url)
  }

  /// Starts `count` callers of `url` and waits until they have all joined.
  func joiners(_ count: Int, of url: URL, _ manager: DownloadManager, clock: ManualClock) async throws
    -> [Task<URL, any Error>]
  {
    let tasks = (0..<count).map { _ in Task { try await manager.download(url) } }
    let joined = await eventually(within: .seconds(5)) { await manager.joiners(of: url) == count && clock.sleepers == 1 }
    let held = clock.sleepers
    if !joined {
      // Never wait here for tasks that may be held on the clock: release and cancel them.
      for task in tasks { task.cancel() }
      await clock.advance(by: .seconds(1))
    }
    let waiting = await manager.joiners(of: url)
    try #require(joined, "\(count) callers should wait on one held transfer; \(waiting) wait, on \(held) held transfers")
    return tasks
  }

  @Test("the same URL requested three times runs one transfer, and every caller gets the file")
  func sameURLJoinsOneTransfer() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let clock = ManualClock()
      let (manager, transport, url) = makeManager(directory, clock: clock)
      let tasks = try await joiners(3, of: url, manager, clock: clock)
      #expect(await manager.activeTransfers == 1, "three callers of one URL share one transfer")
      await clock.advance(by: .seconds(1))
      for task in tasks {
        let file = try await task.value
        #expect(file == directory.file("shared.bin"), "every joiner gets the same file")
      }
      #expect(transport.starts(of: url) == 1, "the URL should be fetched once, not \(transport.starts(of: url)) times")
      #expect(try Data(contentsOf: directory.file("shared.bin")) == ScriptedTransport.content(size: Self.size))
    }
  }

  @Test("one joiner cancelling gets CancellationError at once; the others still get the file")
  func oneCancelDoesNotCancelTheOthers() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let clock = ManualClock()
      let (manager, transport, url) = makeManager(directory, clock: clock)
      let tasks = try await joiners(3, of: url, manager, clock: clock)
      tasks[0].cancel()
      await #expect(throws: CancellationError.self, "the cancelled caller should stop waiting at once") {
        try await tasks[0].value
      }
      #expect(await manager.joiners(of: url) == 2, "two callers still wait")
      #expect(clock.sleepers == 1, "the shared transfer must keep running for the other two")
      await clock.advance(by: .seconds(1))
      for task in tasks.dropFirst() {
        let file = try await task.value
        #expect(
          (try? Data(contentsOf: file)) == ScriptedTransport.content(size: Self.size),
          "the remaining joiners get the whole file")
      }
      #expect(transport.starts(of: url) == 1, "one cancel must not restart or duplicate the transfer")
    }
  }

  @Test("the transfer stops only when every joiner has cancelled, and leaves nothing behind")
  func lastCancelStopsTheTransfer() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let clock = ManualClock()
      let (manager, transport, url) = makeManager(directory, clock: clock)
      let tasks = try await joiners(2, of: url, manager, clock: clock)
      tasks[0].cancel()
      _ = await tasks[0].result
      #expect(clock.sleepers == 1, "one joiner is left: the transfer must go on")
      tasks[1].cancel()
      await #expect(throws: CancellationError.self, "the last joiner gets CancellationError too") {
        try await tasks[1].value
      }
      let stopped = await eventually { clock.sleepers == 0 && directory.contents().isEmpty }
      #expect(stopped, "with nobody waiting, the transfer must be cancelled and its temporary file removed")
      #expect(await manager.activeTransfers == 0, "no transfer is left running")
      #expect(transport.bytesServed <= 4096, "no more than the first chunk should have been pulled")
    }
  }

  @Test("after a transfer ended, the next request of the URL starts a new one")
  func finishedTransfersAreForgotten() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let clock = ManualClock()
      let (manager, transport, url) = makeManager(directory, clock: clock)
      let first = try await joiners(1, of: url, manager, clock: clock)
      await clock.advance(by: .seconds(1))
      _ = try await first[0].value
      let second = try await joiners(1, of: url, manager, clock: clock)
      await clock.advance(by: .seconds(1))
      _ = try await second[0].value
      #expect(transport.starts(of: url) == 2, "a finished transfer must not be joined: the file may have changed")
    }
  }

  @Test("different URLs run separate transfers")
  func differentURLsDoNotJoin() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let transport = ScriptedTransport(chunkSize: 4096)
      let a = fileURL("a.bin", size: 10_000)
      let b = fileURL("b.bin", size: 20_000)
      transport.serve(a, .init(size: 10_000))
      transport.serve(b, .init(size: 20_000))
      let manager = DownloadManager(downloader: Downloader(transport: transport), directory: directory.url)
      async let fileA = manager.download(a)
      async let fileB = manager.download(b)
      let (resultA, resultB) = try await (fileA, fileB)
      #expect(resultA != resultB, "two URLs are two files")
      #expect(transport.starts(of: a) == 1 && transport.starts(of: b) == 1, "each URL is fetched once")
      #expect(try Data(contentsOf: resultB).count == 20_000, "b is complete")
    }
  }

  @Test("a failure reaches every joiner")
  func failureReachesEveryJoiner() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let clock = ManualClock()
      let (manager, _, url) = makeManager(directory, clock: clock, file: .init(size: Self.size, endsEarlyAt: 10_000))
      let tasks = try await joiners(3, of: url, manager, clock: clock)
      await clock.advance(by: .seconds(1))
      for task in tasks {
        await #expect(throws: DownloadError.truncated(received: 10_000, expected: Self.size), "every joiner gets the error") {
          try await task.value
        }
      }
      #expect(await manager.activeTransfers == 0, "a failed transfer is forgotten, so the next call retries")
    }
  }
}
