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
      // A caller nobody answers waits for good: wait until all three have returned, or everything
      // is parked, and cancel any left so the test ends.
      let answered = await eventually { callers.ended.values.count == 3 }
      if !answered { callers.crowd.cancelAll() }
      #expect(answered, "the transfer failed: all 3 joiners should have returned, \(callers.ended.values.count) did")
      for task in callers.tasks {
        await #expect(throws: DownloadError.truncated(received: 10_000, expected: Self.size), "every joiner gets the error") {
          try await task.value
        }
      }
      #expect(await manager.activeTransfers == 0, "a failed transfer is forgotten, so the next call retries")
    }
  }

  @Test("a transfer every caller left is forgotten at once: the next caller starts a new one while the old one winds down")
  func anAbandonedTransferIsNotJoined() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      // The first transfer is stuck before its second chunk, deaf to its cancellation (a gate),
      // as a transfer in a slow system call would be; later transfers are held on the clock.
      let stuck = Gate()
      let clock = ManualClock()
      let reached = Counter()
      let transport = ScriptedTransport(chunkSize: 4096) { _, _, index in
        guard index == 1 else { return }
        if reached.increment() == 1 { await stuck.pass() } else { try await clock.sleep(for: .seconds(1)) }
      }
      let url = fileURL("shared.bin", size: Self.size)
      transport.serve(url, .init(size: Self.size, etag: "\"s\""))
      let manager = DownloadManager(downloader: Downloader(transport: transport), directory: directory.url)
      let callers = Callers()
      let gone = callers.start { try await manager.download(url) }
      let stuckThere = await stuck.arrivals(1, giveUp: { callers.ended.value > 0 })
      if !stuckThere { try await callers.rethrowEarlyFailure() }
      try #require(stuckThere, "the first caller's transfer should be running, stuck before its second chunk")
      gone.cancel()
      let left = await eventually { callers.ended.value == 1 }
      if !left { stuck.open() }
      try #require(left, "the only caller went away: it should get CancellationError at once")
      let forgotten = await manager.activeTransfers
      #expect(
        forgotten == 0,
        "nobody waits for the first transfer any more: it must be forgotten at once, not when its task has wound down; activeTransfers is \(forgotten)"
      )

      // The old transfer is still stuck: a new caller must not join it.
      let again = callers.start { try await manager.download(url) }
      let fresh = await clock.waitForSleepers(1, giveUp: { callers.ended.value > 1 })
      if !fresh { stuck.open() }
      try #require(
        fresh,
        "the second caller should start a new transfer; it joined the cancelled one, which would end it with that transfer's CancellationError (started \(transport.starts(of: url)) transfers)"
      )
      #expect(transport.starts(of: url) == 2, "two transfers: the abandoned one and the new one")

      // The old transfer ends late; the new one must not notice.
      stuck.open()
      await settle()
      let waiting = await manager.joiners(of: url)
      #expect(
        waiting == 1 && callers.ended.value == 1,
        "the abandoned transfer's late end must leave the new transfer alone (compare the transfer's id): \(waiting) callers wait, \(callers.ended.value) of 2 returned"
      )
      await clock.advance(by: .seconds(1))
      let file = try await again.value
      #expect((try? Data(contentsOf: file)) == ScriptedTransport.content(size: Self.size), "the new caller gets the whole file")
      #expect(directory.contents() == ["shared.bin"], "the abandoned transfer leaves no file behind: \(directory.contents())")
    }
  }

  @Test("a caller that joins gets the running transfer's file; its own destination is ignored")
  func aJoinersDestinationIsIgnored() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let hold = Hold(at: .chunk(1))
      let (manager, transport, url) = makeManager(directory, hold: hold)
      let first = try await joiners(1, of: url, manager, hold: hold)
      let elsewhere = directory.file("elsewhere.bin")
      let callers = Callers()
      let second = callers.start { try await manager.download(url, to: elsewhere) }
      let joined = await eventually(giveUp: { callers.ended.value > 0 }) { await manager.joiners(of: url) == 2 }
      if !joined { await hold.release() }
      try #require(joined, "the second caller should join the running transfer, whatever destination it names")
      await hold.release()
      let (a, b) = (try await first[0].value, try await second.value)
      #expect(
        a == directory.file("shared.bin") && b == a,
        "a joiner gets the running transfer's file, at that transfer's destination: got \(a.lastPathComponent) and \(b.lastPathComponent)"
      )
      #expect(transport.starts(of: url) == 1, "one transfer, not one per destination")
      #expect(directory.contents() == ["shared.bin"], "nothing is written at the joiner's destination: \(directory.contents())")
    }
  }

  @Test("a URL with no last path component is saved as `download`")
  func aURLWithNoNameIsSavedAsDownload() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let transport = ScriptedTransport(chunkSize: 4096)
      let manager = DownloadManager(downloader: Downloader(transport: transport), directory: directory.url)
      for address in ["http://files.test/", "http://files.test"] {
        let url = try #require(URL(string: address))
        transport.serve(url, .init(size: 5_000))
        let file = try await manager.download(url)
        #expect(
          file == directory.file("download"),
          "\(address) has no last path component to name the file after: it goes to `download` in the directory, got \(file.path)"
        )
        #expect((try? Data(contentsOf: file)) == ScriptedTransport.content(size: 5_000), "\(address): the whole file")
      }
    }
  }

  /// Callers of the manager, counted when they return.
  final class Callers: Sendable {
    let ended = Counter()
    private let tasks = Recorder<Task<URL, any Error>>()

    init() { Quiescence.install() }

    func start(_ call: @escaping @Sendable () async throws -> URL) -> Task<URL, any Error> {
      let task = Task {
        defer { ended.increment() }
        return try await call()
      }
      tasks.append(task)
      return task
    }

    /// Rethrows the error of a caller that has already returned (such as "not implemented").
    func rethrowEarlyFailure() async throws {
      guard ended.value > 0 else { return }
      for task in tasks.values { _ = try await task.value }
    }
  }
}
