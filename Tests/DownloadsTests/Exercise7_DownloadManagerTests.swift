import Foundation
import Testing
import WorkbookTesting

@testable import Downloads

@Suite("Exercise 7 — One transfer per URL", .timeLimit(.minutes(1)))
struct Exercise7_DownloadManagerTests {
  static let size: Int64 = 50_000

  /// A manager over a transport whose transfers stop before their second chunk until the test
  /// releases them (or the transfer is cancelled).
  func makeManager(_ directory: TemporaryDirectory, hold: Hold, file: ScriptedTransport.File? = nil)
    -> (DownloadManager, ScriptedTransport, URL)
  {
    let transport = hold.transport(chunkSize: 4096)
    let url = fileURL("shared.bin", size: Self.size)
    transport.serve(url, file ?? .init(size: Self.size, etag: "\"s\""))
    return (DownloadManager(downloader: Downloader(transport: transport), directory: directory.url), transport, url)
  }

  /// Callers of one URL, and which of them have returned.
  struct Joiners {
    let crowd: Crowd<URL>
    let ended: Recorder<Int>

    subscript(index: Int) -> Task<URL, any Error> { crowd.tasks[index] }
    var tasks: [Task<URL, any Error>] { crowd.tasks }

    func hasEnded(_ index: Int) -> Bool { ended.values.contains(index) }

    /// Cancels caller `index` and says whether its call returned, as it must at once; a caller
    /// still waiting once everything is parked never will.
    func cancel(_ index: Int) async -> Bool {
      crowd.tasks[index].cancel()
      return await eventually { hasEnded(index) }
    }
  }

  /// Starts `count` callers of `url` and waits until they all wait on one held transfer.
  func joiners(_ count: Int, of url: URL, _ manager: DownloadManager, hold: Hold) async throws -> Joiners {
    let ended = Recorder<Int>()
    let callers = Crowd(count) { index in
      defer { ended.append(index) }
      return try await manager.download(url)
    }
    let joined = await eventually(giveUp: { callers.allFinished }) {
      await manager.joiners(of: url) == count && hold.held == 1
    }
    if !joined {
      // Callers that all returned at once say why (such as "not implemented").
      if callers.allFinished { _ = try await callers.values() }
      // Never wait here for callers that may be held: cancel them.
      callers.cancelAll()
    }
    let waiting = await manager.joiners(of: url)
    try #require(
      joined, "\(count) callers should wait on one held transfer; \(waiting) wait, on \(hold.held) held transfers")
    return Joiners(crowd: callers, ended: ended)
  }

  /// A caller whose task is cancelled before it calls `download`.
  func cancelledCaller(of url: URL, _ manager: DownloadManager) -> (Task<URL, any Error>, ended: Counter) {
    let ended = Counter()
    Quiescence.install()
    let task = Task {
      defer { ended.increment() }
      withUnsafeCurrentTask { $0?.cancel() }
      return try await manager.download(url)
    }
    return (task, ended)
  }

  @Test("the same URL requested three times runs one transfer, and every caller gets the file")
  func sameURLJoinsOneTransfer() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let hold = Hold(at: .chunk(1))
      let (manager, transport, url) = makeManager(directory, hold: hold)
      let callers = try await joiners(3, of: url, manager, hold: hold)
      #expect(await manager.activeTransfers == 1, "three callers of one URL share one transfer")
      await hold.release()
      for task in callers.tasks {
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
      let hold = Hold(at: .chunk(1))
      let (manager, transport, url) = makeManager(directory, hold: hold)
      let callers = try await joiners(3, of: url, manager, hold: hold)
      let left = await callers.cancel(0)
      if !left { callers.crowd.cancelAll() }
      try #require(left, "the cancelled caller should stop waiting at once, not when the shared transfer ends")
      await #expect(throws: CancellationError.self, "the cancelled caller gets CancellationError") {
        try await callers[0].value
      }
      #expect(await manager.joiners(of: url) == 2, "two callers still wait")
      #expect(hold.held == 1, "the shared transfer must keep running for the other two")
      await hold.release()
      for task in callers.tasks.dropFirst() {
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
      let hold = Hold(at: .chunk(1))
      let (manager, transport, url) = makeManager(directory, hold: hold)
      let callers = try await joiners(2, of: url, manager, hold: hold)
      let firstLeft = await callers.cancel(0)
      if !firstLeft { callers.crowd.cancelAll() }
      try #require(firstLeft, "the cancelled caller should stop waiting at once")
      #expect(hold.held == 1, "one joiner is left: the transfer must go on")
      let lastLeft = await callers.cancel(1)
      try #require(lastLeft, "the last caller should stop waiting at once too")
      await #expect(throws: CancellationError.self, "the last joiner gets CancellationError too") {
        try await callers[1].value
      }
      let stopped = await eventually { hold.held == 0 && directory.contents().isEmpty }
      #expect(stopped, "with nobody waiting, the transfer must be cancelled and its temporary file removed")
      #expect(await manager.activeTransfers == 0, "no transfer is left running")
      #expect(transport.bytesServed <= 4096, "no more than the first chunk should have been pulled")
    }
  }

  @Test("a caller cancelled before it asks gets CancellationError at once, and changes nothing for the others")
  func aCallerCancelledBeforeItAsks() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let hold = Hold(at: .chunk(1))
      let (manager, _, url) = makeManager(directory, hold: hold)
      let callers = try await joiners(1, of: url, manager, hold: hold)
      // Its cancellation is there before the call: the manager's cancellation handler runs at
      // once, before the caller's continuation is stored.
      let (late, lateEnded) = cancelledCaller(of: url, manager)
      let returned = await eventually { lateEnded.value == 1 }
      if !returned { callers.crowd.cancelAll() }
      try #require(
        returned,
        "a caller whose task is already cancelled should get CancellationError at once; it still waits. Its cancellation came before its continuation was stored: check Task.isCancelled right after storing it"
      )
      await #expect(throws: CancellationError.self, "a cancelled caller gets CancellationError") { try await late.value }
      #expect(await manager.joiners(of: url) == 1, "the cancelled caller must not be counted; the first one still waits")
      #expect(hold.held == 1, "the first caller's transfer must go on")
      await hold.release()
      let file = try await callers[0].value
      #expect((try? Data(contentsOf: file)) == ScriptedTransport.content(size: Self.size), "the first caller gets the file")

      // Alone: its transfer has nobody to wait for it, so it is stopped and leaves nothing behind.
      try FileManager.default.removeItem(at: file)
      let (alone, aloneEnded) = cancelledCaller(of: url, manager)
      let aloneReturned = await eventually { aloneEnded.value == 1 }
      try #require(aloneReturned, "a caller whose task is already cancelled should get CancellationError at once")
      await #expect(throws: CancellationError.self, "a cancelled caller gets CancellationError") { try await alone.value }
      await settle()
      #expect(await manager.activeTransfers == 0, "nobody waits for the transfer of a caller that was cancelled: none may run")
      #expect(
        hold.held == 0 && directory.contents().isEmpty,
        "a transfer nobody waits for must be stopped, leaving no file: \(directory.contents())")
    }
  }

  @Test("after a transfer ended, the next request of the URL starts a new one")
  func finishedTransfersAreForgotten() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let hold = Hold(at: .chunk(1))
      let (manager, transport, url) = makeManager(directory, hold: hold)
      let first = try await joiners(1, of: url, manager, hold: hold)
      await hold.release()
      _ = try await first[0].value
      let second = try await joiners(1, of: url, manager, hold: hold)
      await hold.release()
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
      let hold = Hold(at: .chunk(1))
      let (manager, _, url) = makeManager(directory, hold: hold, file: .init(size: Self.size, endsEarlyAt: 10_000))
      let callers = try await joiners(3, of: url, manager, hold: hold)
      await hold.release()
      for task in callers.tasks {
        await #expect(throws: DownloadError.truncated(received: 10_000, expected: Self.size), "every joiner gets the error") {
          try await task.value
        }
      }
      #expect(await manager.activeTransfers == 0, "a failed transfer is forgotten, so the next call retries")
    }
  }
}
