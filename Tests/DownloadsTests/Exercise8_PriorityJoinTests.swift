import Foundation
import Testing
import WorkbookTesting

@testable import Downloads

@Suite("Exercise 8 — Priority meets de-duplication", .timeLimit(.minutes(1)))
struct Exercise8_PriorityJoinTests {
  static let size: Int64 = 20_000

  /// A transport serving `names`, whose transfers stop at `hold` (or never, without one).
  static func transport(_ names: [String], holdingAt hold: Hold? = nil) -> ScriptedTransport {
    let transport = hold?.transport(chunkSize: 4096) ?? ScriptedTransport(chunkSize: 4096)
    for name in names { transport.serve(fileURL(name, size: size), .init(size: size)) }
    return transport
  }

  static func url(_ name: String) -> URL { fileURL(name, size: size) }

  /// A manager over a transport serving `name`, with `scheduler`, a scheduler the test drives.
  static func recorded(_ name: String, in directory: TemporaryDirectory, scheduler: RecordingScheduler = .init())
    -> (ScriptedTransport, RecordingScheduler, DownloadManager)
  {
    let transport = transport([name])
    return (
      transport, scheduler,
      DownloadManager(downloader: Downloader(transport: transport), directory: directory.url, scheduler: scheduler)
    )
  }

  /// The one job the manager submitted for `callers`, once it has; rethrows a caller's error
  /// if one returned first (such as "not implemented").
  static func submittedJob(_ scheduler: RecordingScheduler, for callers: Callers) async throws
    -> RecordingScheduler.Submission
  {
    let submitted = await eventually(giveUp: { callers.ended.value > 0 }) { await scheduler.submissions.count == 1 }
    if !submitted { try await callers.rethrowEarlyFailure() }
    try #require(submitted, "a download with a scheduler should be submitted to it as one job")
    return try #require(await scheduler.submissions.first)
  }

  /// Whether `count` transfers wait in `scheduler`'s queue once everything has run as far as it can.
  static func queued(_ count: Int, in scheduler: DownloadScheduler<ManualClock>) async -> Bool {
    await eventually { await scheduler.queuedCount == count }
  }

  /// The files the transport was asked for, in the order the transfers started.
  static func started(_ transport: ScriptedTransport) -> [String] {
    transport.requests.map(\.url.lastPathComponent)
  }

  /// Callers of `manager.download`, counted when they end.
  final class Callers: Sendable {
    let ended = Counter()
    private let tasks = Recorder<Task<URL, any Error>>()

    init() { Quiescence.install() }

    func start(_ manager: DownloadManager, _ name: String, priority: DownloadPriority = .normal) -> Task<URL, any Error> {
      let task = Task {
        defer { ended.increment() }
        return try await manager.download(Exercise8_PriorityJoinTests.url(name), priority: priority)
      }
      tasks.append(task)
      return task
    }

    /// Rethrows the error of a caller that has already returned (such as "not implemented").
    func rethrowEarlyFailure() async throws {
      guard ended.value > 0 else { return }
      for task in tasks.values { _ = try await task.value }
    }

    /// Whether every caller has returned once everything has run as far as it can. Callers
    /// still waiting then never return: they are cancelled, so the test can end.
    func allEnded() async -> Bool {
      let all = await eventually { self.ended.value == self.tasks.count }
      if !all { for task in tasks.values { task.cancel() } }
      return all
    }

    /// Plays out every hold on `hold`'s clock (each lets a held transfer go on, which may start
    /// the next), then says whether every caller has returned.
    func finish(releasing hold: Hold) async -> Bool {
      await hold.clock.run()
      return await allEnded()
    }
  }

  @Test("with one slot, a second file waits until the first is done")
  func transfersWaitForASlot() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let hold = Hold(at: .chunk(1))
      let transport = Self.transport(["a.bin", "b.bin"], holdingAt: hold)
      let scheduler = DownloadScheduler(maxConcurrent: 1, clock: ManualClock(), agingBound: nil)
      let manager = DownloadManager(downloader: Downloader(transport: transport), directory: directory.url, scheduler: scheduler)
      let callers = Callers()
      let a = callers.start(manager, "a.bin")
      let running = await eventually(giveUp: { callers.ended.value > 0 }) { hold.held == 1 }
      if !running { try await callers.rethrowEarlyFailure() }
      try #require(running, "a.bin should start at once: the slot is free")
      let b = callers.start(manager, "b.bin")
      let waits = await Self.queued(1, in: scheduler)
      #expect(
        waits && Self.started(transport) == ["a.bin"],
        "the manager's scheduler has one slot, taken by a.bin: b.bin must wait in its queue, not start; started \(Self.started(transport))"
      )
      try #require(await callers.finish(releasing: hold), "both downloads should end once the held transfers go on")
      _ = try await (a.value, b.value)
      #expect(Self.started(transport) == ["a.bin", "b.bin"], "b.bin starts when a.bin is done; started \(Self.started(transport))")
    }
  }

  @Test("queued transfers start highest priority first")
  func queuedTransfersStartByPriority() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let hold = Hold(at: .chunk(1))
      let transport = Self.transport(["first.bin", "low.bin", "high.bin"], holdingAt: hold)
      let scheduler = DownloadScheduler(maxConcurrent: 1, clock: ManualClock(), agingBound: nil)
      let manager = DownloadManager(downloader: Downloader(transport: transport), directory: directory.url, scheduler: scheduler)
      let callers = Callers()
      let first = callers.start(manager, "first.bin")
      let running = await eventually(giveUp: { callers.ended.value > 0 }) { hold.held == 1 }
      if !running { try await callers.rethrowEarlyFailure() }
      try #require(running, "first.bin should start at once")
      let queued = [callers.start(manager, "low.bin", priority: .low), callers.start(manager, "high.bin", priority: .high)]
      let waiting = await Self.queued(2, in: scheduler)
      #expect(waiting, "low.bin and high.bin should wait in the scheduler's queue, each at its caller's priority")
      try #require(await callers.finish(releasing: hold), "every download should end once the held transfers go on")
      for task in [first] + queued { _ = try await task.value }
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
      let job = try await Self.submittedJob(scheduler, for: callers)
      #expect(job.priority == .low, "the job should be submitted at its caller's priority (.low), not \(job.priority)")
      let tap = callers.start(manager, "photo.bin", priority: .high)
      #expect(await eventually { await manager.joiners(of: Self.url("photo.bin")) == 2 }, "the tap should join the prefetch")
      await settle()
      let changes = await scheduler.priorityChanges
      #expect(
        changes == [.init(id: job.id, priority: .high)],
        "the user tapped a file that a .low prefetch was fetching: its job should be raised to .high, once; changes sent: \(changes)")
      #expect(await manager.priority(of: Self.url("photo.bin")) == .high, "priority(of:) is the highest any caller asked for")
      await scheduler.run(job.id)
      try #require(await callers.allEnded(), "both callers should get the file once the job has run")
      let (first, second) = try await (prefetch.value, tap.value)
      #expect(first == second, "both callers get the one file")
      #expect(transport.starts(of: Self.url("photo.bin")) == 1, "joining must not start a second transfer")
    }
  }

  @Test("a caller already cancelled when it calls throws at once: it raises no priority and starts no transfer")
  func aCancelledCallerChangesNothing() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let (_, scheduler, manager) = Self.recorded("song.bin", in: directory)
      let callers = Callers()
      let url = Self.url("song.bin")
      let prefetch = callers.start(manager, "song.bin", priority: .low)
      let job = try await Self.submittedJob(scheduler, for: callers)
      // A tap whose task is cancelled before it calls, at a higher priority than the prefetch's.
      let tap = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await manager.download(url, priority: .high)
      }
      await #expect(throws: CancellationError.self, "a caller already cancelled gets CancellationError") { try await tap.value }
      await settle()
      let priority = await manager.priority(of: url)
      let requests = await scheduler.priorityRequests
      #expect(
        priority == .low && requests.isEmpty,
        "a caller cancelled before it called never waits for the file, so it must not raise the transfer the others wait for (the priority never goes down again): the transfer runs at \(String(describing: priority)), not .low, and the scheduler was sent \(requests)"
      )
      // Alone: a cancelled caller of a file nobody fetches must not put a job in the queue.
      let alone = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await manager.download(Self.url("other.bin"), priority: .high)
      }
      await #expect(throws: CancellationError.self, "a caller already cancelled gets CancellationError") { try await alone.value }
      await settle()
      let submitted = await scheduler.submissions.map(\.priority)
      #expect(
        submitted == [.low],
        "a caller cancelled before it called starts no transfer: only the prefetch's job should have reached the scheduler, which was handed jobs at \(submitted)"
      )
      #expect(await manager.activeTransfers == 1, "only the prefetch's transfer runs")
      await scheduler.run(job.id)
      try #require(await callers.allEnded(), "the prefetch should get the file once its job has run")
      _ = try await prefetch.value
    }
  }

  @Test("a transfer's priority only goes up: a later, lower caller changes nothing")
  func priorityOnlyGoesUp() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let (_, scheduler, manager) = Self.recorded("doc.bin", in: directory)
      let callers = Callers()
      let url = Self.url("doc.bin")
      #expect(await manager.priority(of: url) == nil, "no transfer of doc.bin runs yet")
      _ = callers.start(manager, "doc.bin", priority: .low)
      let job = try await Self.submittedJob(scheduler, for: callers)
      _ = callers.start(manager, "doc.bin", priority: .normal)
      try #require(await eventually { await manager.joiners(of: url) == 2 }, "the second caller should join")
      _ = callers.start(manager, "doc.bin", priority: .normal)
      try #require(await eventually { await manager.joiners(of: url) == 3 }, "the third caller should join")
      _ = callers.start(manager, "doc.bin", priority: .low)
      try #require(await eventually { await manager.joiners(of: url) == 4 }, "the fourth caller should join")
      let priority = await manager.priority(of: url)
      #expect(
        priority == .normal,
        "callers asked for .low, .normal, .normal, .low: the transfer runs at .normal, not \(String(describing: priority))")
      // Every change the four callers set off has reached the scheduler once all is parked.
      await settle()
      let changes = await scheduler.priorityRequests.map(\.priority)
      #expect(
        changes == [.normal],
        "one change (to .normal) should reach the scheduler; an equal or lower caller sends none (an equal change would send the job to the back of its line); sent \(changes)"
      )
      await scheduler.run(job.id)
      try #require(await callers.allEnded(), "every caller should get the file once the job has run")
    }
  }

  @Test("the priority stays when the caller that raised it leaves")
  func priorityStaysWhenTheTapLeaves() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let (_, scheduler, manager) = Self.recorded("clip.bin", in: directory)
      let callers = Callers()
      let url = Self.url("clip.bin")
      let prefetch = callers.start(manager, "clip.bin", priority: .low)
      let job = try await Self.submittedJob(scheduler, for: callers)
      let tap = callers.start(manager, "clip.bin", priority: .high)
      let joined = await eventually { await manager.joiners(of: url) == 2 }
      try #require(joined, "the tap should join the prefetch")
      await settle()
      tap.cancel()
      let left = await eventually { callers.ended.value == 1 }
      try #require(left, "the tap went away: it should get CancellationError at once")
      await settle()
      let priority = await manager.priority(of: url)
      #expect(
        priority == .high,
        "a transfer's priority never goes down: the prefetch keeps the place the tap won, got \(String(describing: priority))")
      let sent = await scheduler.priorityRequests
      #expect(
        sent == [.init(id: job.id, priority: .high)],
        "the only change is the raise to .high; a caller leaving sends none; sent \(sent)")
      await scheduler.run(job.id)
      try #require(await callers.allEnded(), "the prefetch should get the file once the job has run")
      let file = try await prefetch.value
      #expect(file == directory.file("clip.bin"), "the prefetch gets the file")
    }
  }

  @Test("without a scheduler the priority is still recorded, the highest any caller asked for")
  func priorityWithoutAScheduler() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let hold = Hold(at: .chunk(1))
      let transport = Self.transport(["plain.bin"], holdingAt: hold)
      let manager = DownloadManager(downloader: Downloader(transport: transport), directory: directory.url)
      let callers = Callers()
      let url = Self.url("plain.bin")
      let first = callers.start(manager, "plain.bin", priority: .low)
      let running = await eventually(giveUp: { callers.ended.value > 0 }) { hold.held == 1 }
      if !running { try await callers.rethrowEarlyFailure() }
      try #require(running, "with no scheduler the transfer starts at once")
      #expect(await manager.priority(of: url) == .low, "the first caller asked for .low")
      let second = callers.start(manager, "plain.bin", priority: .high)
      try #require(await eventually { await manager.joiners(of: url) == 2 }, "the second caller should join")
      let priority = await manager.priority(of: url)
      #expect(
        priority == .high,
        "priority(of:) is the highest any caller asked for, scheduler or not: .high, got \(String(describing: priority))")
      try #require(await callers.finish(releasing: hold), "both callers should get the file")
      _ = try await (first.value, second.value)
      #expect(await manager.priority(of: url) == nil, "no transfer of the URL runs any more")
    }
  }

  @Test("raises reach the scheduler one after the other, so .normal then .high never arrives reversed")
  func raisesReachTheSchedulerInOrder() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let answers = Gate()
      let (_, scheduler, manager) = Self.recorded(
        "song.bin", in: directory, scheduler: RecordingScheduler(holdingPriorityChanges: answers))
      let callers = Callers()
      let url = Self.url("song.bin")
      _ = callers.start(manager, "song.bin", priority: .low)
      let job = try await Self.submittedJob(scheduler, for: callers)
      _ = callers.start(manager, "song.bin", priority: .normal)
      // The raise to .normal has reached the scheduler, which has not answered it yet.
      let first = await answers.arrivals(1)
      if !first { answers.open() }
      try #require(first, "a caller that joins with a higher priority (.normal over .low) should raise the job")
      _ = callers.start(manager, "song.bin", priority: .high)
      let joined = await eventually { await manager.joiners(of: url) == 3 }
      if !joined { answers.open() }
      try #require(joined, "the third caller should join")
      await settle()
      let sent = await scheduler.priorityRequests
      #expect(
        sent == [.init(id: job.id, priority: .normal)],
        "the raise to .high must wait until the scheduler has answered the raise to .normal: sent side by side, the two can arrive in either order, and .normal after .high lowers the job again; sent \(sent)"
      )
      answers.open()
      await settle()
      let applied = await scheduler.priorityChanges
      #expect(
        applied == [.init(id: job.id, priority: .normal), .init(id: job.id, priority: .high)],
        "both raises should reach the scheduler, .normal then .high; applied \(applied)")
      await scheduler.run(job.id)
      try #require(await callers.allEnded(), "every caller should get the file once the job has run")
    }
  }

  @Test("a caller that joins while the job is being submitted still raises it, once the submit returns")
  func aRaiseDuringTheSubmit() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let submits = Gate()
      let (transport, scheduler, manager) = Self.recorded(
        "photo.bin", in: directory, scheduler: RecordingScheduler(holdingSubmits: submits))
      let callers = Callers()
      let url = Self.url("photo.bin")
      let prefetch = callers.start(manager, "photo.bin", priority: .low)
      // The submit has reached the scheduler, which holds its answer: the manager does not know
      // its job yet, and serves other callers meanwhile.
      let submitting = await submits.arrivals(1, giveUp: { callers.ended.value > 0 })
      if !submitting { try await callers.rethrowEarlyFailure() }
      try #require(submitting, "a download with a scheduler should be submitted to it as one job")
      let job = try #require(await scheduler.submissions.first)
      let tap = callers.start(manager, "photo.bin", priority: .high)
      let joined = await eventually { await manager.joiners(of: url) == 2 }
      if !joined { submits.open() }
      try #require(joined, "the tap should join the prefetch while its job is being submitted")
      #expect(await manager.priority(of: url) == .high, "priority(of:) is the highest any caller asked for, job or not")
      submits.open()
      await settle()
      let changes = await scheduler.priorityChanges
      #expect(
        changes == [.init(id: job.id, priority: .high)],
        "the tap raised the transfer while its submit was under way, before the manager knew the job: when submit returns, the manager must re-read the transfer's priority and send the raise itself; changes sent: \(changes)"
      )
      await scheduler.run(job.id)
      try #require(await callers.allEnded(), "both callers should get the file once the job has run")
      let (first, second) = try await (prefetch.value, tap.value)
      #expect(first == second, "both callers get the one file")
      #expect(transport.starts(of: url) == 1, "joining must not start a second transfer")
    }
  }

  @Test("a transfer abandoned while its job is being submitted: its job is cancelled, and a new transfer keeps its own")
  func abandonedDuringTheSubmit() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let submits = Gate()
      let (transport, scheduler, manager) = Self.recorded(
        "doc.bin", in: directory, scheduler: RecordingScheduler(holdingSubmits: submits))
      let callers = Callers()
      let url = Self.url("doc.bin")
      let gone = callers.start(manager, "doc.bin", priority: .low)
      let submitting = await submits.arrivals(1, giveUp: { callers.ended.value > 0 })
      if !submitting { try await callers.rethrowEarlyFailure() }
      try #require(submitting, "a download with a scheduler should be submitted to it as one job")
      let abandoned = try #require(await scheduler.submissions.first)
      gone.cancel()
      let left = await eventually { callers.ended.value == 1 }
      if !left { submits.open() }
      try #require(left, "the caller went away: it should get CancellationError at once, submit or not")
      await #expect(throws: CancellationError.self, "the caller went away: it gets CancellationError") {
        try await gone.value
      }
      #expect(await manager.activeTransfers == 0, "nobody waits for the transfer any more: it should be forgotten")

      // A new caller of the URL starts a new transfer, whose submit is held too.
      let again = callers.start(manager, "doc.bin", priority: .low)
      let resubmitted = await submits.arrivals(2)
      if !resubmitted { submits.open() }
      try #require(resubmitted, "a new caller after the first one left should start a new transfer, submitted as a new job")
      let current = try #require(await scheduler.submissions.last)
      // The abandoned transfer's submit returns first.
      submits.release(1)
      await settle()
      let cancelled = await scheduler.cancellations
      #expect(
        cancelled == [abandoned.id],
        "nobody waits for the first transfer: once its submit has returned, its job (\(abandoned.id)) must be cancelled, and only it; cancelled \(cancelled)"
      )
      // A tap joins the new transfer before its own submit returns.
      let tap = callers.start(manager, "doc.bin", priority: .high)
      let joined = await eventually { await manager.joiners(of: url) == 2 }
      if !joined { submits.open() }
      try #require(joined, "the tap should join the new transfer")
      submits.release(1)
      await settle()
      let raises = await scheduler.priorityRequests
      #expect(
        raises == [.init(id: current.id, priority: .high)],
        "the tap raised the new transfer, whose job is \(current.id). \(abandoned.id) belongs to the abandoned transfer: when its submit returned, the manager found an entry for the URL, but not its own (compare the transfer's id); raises sent: \(raises)"
      )
      await scheduler.run(current.id)
      try #require(await callers.allEnded(), "the new transfer's callers should get the file once its job has run")
      let (first, second) = try await (again.value, tap.value)
      #expect(first == second, "both callers of the new transfer get its file")
      #expect(transport.starts(of: url) == 1, "only the new transfer's job ran")
    }
  }

  @Test("when every caller of a queued transfer has gone, its job leaves the queue and never runs")
  func cancellingAQueuedTransfer() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let (transport, scheduler, manager) = Self.recorded("later.bin", in: directory)
      let callers = Callers()
      let caller = callers.start(manager, "later.bin", priority: .low)
      let job = try await Self.submittedJob(scheduler, for: callers)
      caller.cancel()
      try #require(await callers.allEnded(), "the caller went away: it should stop waiting at once")
      await #expect(throws: CancellationError.self, "the caller went away: it gets CancellationError") {
        try await caller.value
      }
      await settle()
      let cancelled = await scheduler.cancellations
      #expect(
        cancelled == [job.id],
        "nobody waits for later.bin any more: its queued job must be cancelled, or it takes a slot later for nothing; cancelled \(cancelled)"
      )
      #expect(await manager.activeTransfers == 0, "the transfer should be forgotten")
      await scheduler.run(job.id)
      #expect(transport.starts(of: Self.url("later.bin")) == 0, "a cancelled job never runs")
    }
  }

  @Test("a transfer cancelled while its job waits in the queue ends at once, though the job never runs")
  func aCancelledQueuedTransferEndsAtOnce() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let (transport, scheduler, manager) = Self.recorded("queued.bin", in: directory)
      let url = Self.url("queued.bin")
      let ended = Counter()
      Quiescence.install()
      // The transfer's own task, as the manager runs it, cancelled while its job is queued.
      let transfer = Task {
        defer { ended.increment() }
        return try await manager.runTransfer(url, id: 1, to: directory.file("queued.bin"), priority: .low)
      }
      let submitted = await eventually(giveUp: { ended.value > 0 }) { await scheduler.submissions.count == 1 }
      try #require(submitted, "with a scheduler, runTransfer should submit the transfer to it as one job and wait for it")
      let job = try #require(await scheduler.submissions.first)
      transfer.cancel()
      let over = await eventually { ended.value == 1 }
      #expect(
        over,
        "runTransfer's task was cancelled while its job waited in the queue: it must throw at once. The job is taken out of the queue and will never settle the TransferOutcome, so the cancellation must settle it"
      )
      guard over else { return }
      await #expect(throws: CancellationError.self, "a cancelled transfer throws CancellationError") {
        try await transfer.value
      }
      await settle()
      let cancelled = await scheduler.cancellations
      #expect(cancelled == [job.id], "its queued job must be cancelled; cancelled \(cancelled)")
      await scheduler.run(job.id)
      #expect(transport.starts(of: url) == 0, "a cancelled job never runs")
    }
  }
}
