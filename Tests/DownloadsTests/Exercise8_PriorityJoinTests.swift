import Foundation
import Testing
import WorkbookTesting

@testable import Downloads

@Suite("Exercise 8 — Priority meets de-duplication", .timeLimit(.minutes(1)))
struct Exercise8_PriorityJoinTests {
  static let size: Int64 = 20_000

  /// A transport serving `names`, whose transfers hold at their second chunk until `clock` moves
  /// (or never hold, without a clock).
  static func transport(_ names: [String], holdOn clock: ManualClock? = nil) -> ScriptedTransport {
    let transport = ScriptedTransport(chunkSize: 4096) { _, _, index in
      if index == 1, let clock { try await clock.sleep(for: .seconds(1)) }
    }
    for name in names { transport.serve(fileURL(name, size: size), .init(size: size)) }
    return transport
  }

  static func url(_ name: String) -> URL { fileURL(name, size: size) }

  /// A manager over a transport serving `name`, with a scheduler the test drives.
  static func recorded(_ name: String, in directory: TemporaryDirectory)
    -> (ScriptedTransport, RecordingScheduler, DownloadManager)
  {
    let transport = transport([name])
    let scheduler = RecordingScheduler()
    return (transport, scheduler, DownloadManager(downloader: Downloader(transport: transport), directory: directory.url, scheduler: scheduler))
  }

  /// The one job the manager submitted, once it has.
  static func submittedJob(_ scheduler: RecordingScheduler) async throws -> RecordingScheduler.Submission {
    let submitted = await eventually { await scheduler.submissions.count == 1 }
    try #require(submitted, "a download with a scheduler should be submitted to it as one job")
    return try #require(await scheduler.submissions.first)
  }

  /// Whether `count` transfers come to wait in `scheduler`'s queue within two seconds.
  static func queued(_ count: Int, in scheduler: DownloadScheduler<ManualClock>) async -> Bool {
    await eventually(within: .seconds(2)) { await scheduler.queuedCount == count }
  }

  /// The files the transport was asked for, in the order the transfers started.
  static func started(_ transport: ScriptedTransport) -> [String] {
    transport.requests.map(\.url.lastPathComponent)
  }

  /// Callers of `manager.download`, counted when they end.
  final class Callers: Sendable {
    let ended = Counter()

    func start(_ manager: DownloadManager, _ name: String, priority: DownloadPriority = .normal) -> Task<URL, any Error> {
      Task {
        defer { ended.increment() }
        return try await manager.download(Exercise8_PriorityJoinTests.url(name), priority: priority)
      }
    }

    /// Moves the clock until `count` callers have ended: each move lets the held transfers go
    /// on. Gives up (and says so) after 20 moves, so a transfer that never starts fails the test
    /// instead of hanging it.
    func finish(_ count: Int, clock: ManualClock) async -> Bool {
      for _ in 0..<20 {
        if ended.value >= count { return true }
        _ = await eventually(within: .seconds(2)) { clock.sleepers > 0 || ended.value >= count }
        await clock.advance(by: .seconds(1))
      }
      return ended.value >= count
    }
  }

  @Test("with one slot, a second file waits until the first is done")
  func transfersWaitForASlot() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let clock = ManualClock()
      let transport = Self.transport(["a.bin", "b.bin"], holdOn: clock)
      let scheduler = DownloadScheduler(maxConcurrent: 1, clock: ManualClock(), agingBound: nil)
      let manager = DownloadManager(downloader: Downloader(transport: transport), directory: directory.url, scheduler: scheduler)
      let callers = Callers()
      let a = callers.start(manager, "a.bin")
      try #require(await eventually { clock.sleepers == 1 }, "a.bin should start at once: the slot is free")
      let b = callers.start(manager, "b.bin")
      let waits = await Self.queued(1, in: scheduler)
      #expect(
        waits && Self.started(transport) == ["a.bin"],
        "the manager's scheduler has one slot, taken by a.bin: b.bin must wait in its queue, not start; started \(Self.started(transport))"
      )
      #expect(await callers.finish(2, clock: clock), "both downloads should end once the clock moves")
      _ = try await (a.value, b.value)
      #expect(Self.started(transport) == ["a.bin", "b.bin"], "b.bin starts when a.bin is done; started \(Self.started(transport))")
    }
  }

  @Test("queued transfers start highest priority first")
  func queuedTransfersStartByPriority() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let clock = ManualClock()
      let transport = Self.transport(["first.bin", "low.bin", "high.bin"], holdOn: clock)
      let scheduler = DownloadScheduler(maxConcurrent: 1, clock: ManualClock(), agingBound: nil)
      let manager = DownloadManager(downloader: Downloader(transport: transport), directory: directory.url, scheduler: scheduler)
      let callers = Callers()
      let tasks = [callers.start(manager, "first.bin")]
      try #require(await eventually { clock.sleepers == 1 }, "first.bin should start at once")
      let queued = [callers.start(manager, "low.bin", priority: .low), callers.start(manager, "high.bin", priority: .high)]
      let waiting = await Self.queued(2, in: scheduler)
      #expect(waiting, "low.bin and high.bin should wait in the scheduler's queue, each at its caller's priority")
      #expect(await callers.finish(3, clock: clock), "every download should end once the clock moves")
      for task in tasks + queued { _ = try await task.value }
      #expect(
        Self.started(transport) == ["first.bin", "high.bin", "low.bin"],
        "high.bin was asked for at .high, low.bin at .low: high.bin takes the free slot first; started \(Self.started(transport))")
    }
  }

  @Test("a caller that joins with a higher priority raises the queued transfer's priority")
  func aJoinRaisesThePriority() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let (transport, scheduler, manager) = Self.recorded("photo.bin", in: directory)
      let callers = Callers()
      let prefetch = callers.start(manager, "photo.bin", priority: .low)
      let job = try await Self.submittedJob(scheduler)
      #expect(job.priority == .low, "the job should be submitted at its caller's priority (.low), not \(job.priority)")
      let tap = callers.start(manager, "photo.bin", priority: .high)
      #expect(await eventually { await manager.joiners(of: Self.url("photo.bin")) == 2 }, "the tap should join the prefetch")
      let raised = await eventually { await scheduler.priorityChanges == [.init(id: job.id, priority: .high)] }
      let changes = await scheduler.priorityChanges
      #expect(
        raised,
        "the user tapped a file that a .low prefetch was fetching: its job should be raised to .high, once; changes sent: \(changes)")
      #expect(await manager.priority(of: Self.url("photo.bin")) == .high, "priority(of:) is the highest any caller asked for")
      await scheduler.run(job.id)
      let (first, second) = try await (prefetch.value, tap.value)
      #expect(first == second, "both callers get the one file")
      #expect(transport.starts(of: Self.url("photo.bin")) == 1, "joining must not start a second transfer")
    }
  }

  @Test("a transfer's priority only goes up: a later, lower caller changes nothing")
  func priorityOnlyGoesUp() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let (_, scheduler, manager) = Self.recorded("doc.bin", in: directory)
      let callers = Callers()
      let url = Self.url("doc.bin")
      #expect(await manager.priority(of: url) == nil, "no transfer of doc.bin runs yet")
      let tasks = [callers.start(manager, "doc.bin", priority: .low)]
      let job = try await Self.submittedJob(scheduler)
      let joined = [callers.start(manager, "doc.bin", priority: .normal)]
      try #require(await eventually { await manager.joiners(of: url) == 2 }, "the second caller should join")
      let late = [callers.start(manager, "doc.bin", priority: .low)]
      try #require(await eventually { await manager.joiners(of: url) == 3 }, "the third caller should join")
      let priority = await manager.priority(of: url)
      #expect(priority == .normal, "callers asked for .low, .normal, .low: the transfer runs at .normal, not \(String(describing: priority))")
      // Changes reach the scheduler in order: once the raise to .normal has arrived, running
      // the job and finishing every caller gives a later, wrong change time to arrive too.
      _ = await eventually { await scheduler.priorityChanges.count >= 1 }
      await scheduler.run(job.id)
      for task in tasks + joined + late { _ = try await task.value }
      let changes = await scheduler.priorityChanges.map(\.priority)
      #expect(changes == [.normal], "one change (to .normal) should reach the scheduler; a lower caller sends none; sent \(changes)")
    }
  }

  @Test("when every caller of a queued transfer has gone, its job leaves the queue and never runs")
  func cancellingAQueuedTransfer() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let (transport, scheduler, manager) = Self.recorded("later.bin", in: directory)
      let caller = Callers().start(manager, "later.bin", priority: .low)
      let job = try await Self.submittedJob(scheduler)
      caller.cancel()
      await #expect(throws: CancellationError.self, "the caller went away: it gets CancellationError at once") {
        try await caller.value
      }
      let cancelled = await eventually { await scheduler.cancellations.contains(job.id) }
      #expect(cancelled, "nobody waits for later.bin any more: its queued job must be cancelled, or it takes a slot later for nothing")
      #expect(await eventually { await manager.activeTransfers == 0 }, "the transfer should be forgotten")
      await scheduler.run(job.id)
      #expect(transport.starts(of: Self.url("later.bin")) == 0, "a cancelled job never runs")
    }
  }
}
