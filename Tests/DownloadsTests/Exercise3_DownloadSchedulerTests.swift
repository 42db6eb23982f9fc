import Testing
import WorkbookTesting

@testable import Downloads

@Suite("Exercise 3 — The scheduler", .timeLimit(.minutes(1)))
struct Exercise3_DownloadSchedulerTests {
  /// Work that records its start and sleeps `seconds` on `clock`, so the test decides when it ends.
  func job(_ name: String, seconds: Int = 1, clock: ManualClock, running: Concurrency, done: Counter? = nil)
    -> @Sendable () async -> Void
  {
    {
      running.enter(name)
      try? await clock.sleep(for: .seconds(seconds))
      running.leave()
      done?.increment()
    }
  }

  /// One slot, held by a "slow" job that ignores its cancellation until `gate` opens (as a
  /// transfer stuck in a system call would), with "next" and "last" queued behind it.
  func slowJobWithTwoBehind() async throws -> (
    clock: ManualClock, running: Concurrency, gate: Gate, scheduler: DownloadScheduler<ManualClock>,
    slow: JobID, next: JobID, last: JobID
  ) {
    let clock = ManualClock()
    let running = Concurrency()
    let gate = Gate()
    let scheduler = DownloadScheduler(maxConcurrent: 1, clock: clock)
    let slow = await scheduler.submit {
      running.enter("slow")
      await gate.pass()
      running.leave()
    }
    try #require(await gate.arrivals(1), "the slow job should start at once")
    let next = await scheduler.submit(job("next", clock: clock, running: running))
    let last = await scheduler.submit(job("last", clock: clock, running: running))
    return (clock, running, gate, scheduler, slow, next, last)
  }

  @Test("the limit of 3 holds under 100 concurrent submissions, and every job runs")
  func limitHoldsUnderLoad() async throws {
    let clock = ManualClock()
    let running = Concurrency()
    let done = Counter()
    let scheduler = DownloadScheduler(clock: clock)
    #expect(scheduler.maxConcurrent == 3, "the default limit is 3 transfers at once")
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<100 {
        group.addTask {
          let priority = DownloadPriority.allCases[index % 3]
          await scheduler.submit(priority: priority, job("\(index)", clock: clock, running: running, done: done))
        }
      }
    }
    var rounds = 0
    while done.value < 100 && rounds < 40 {
      let ready = await eventually { clock.sleepers == min(3, 100 - done.value) }
      try #require(ready, "round \(rounds): expected \(min(3, 100 - done.value)) jobs running, \(clock.sleepers) are")
      if done.value == 100 { break }
      let count = await scheduler.runningCount
      #expect(count <= 3, "round \(rounds): \(count) jobs run at once, the limit is 3")
      await clock.advance(by: .seconds(1))
      rounds += 1
    }
    let finished = await eventually { done.value == 100 }
    #expect(finished, "all 100 jobs should have run, \(done.value) did")
    #expect(running.peak == 3, "at most 3 jobs at once, and the slots should be used: peak was \(running.peak)")
    #expect(rounds == 34, "100 one-second jobs, 3 at a time, take 34 rounds; took \(rounds)")
  }

  @Test("when a slot frees up, the highest priority job starts next")
  func highestPriorityFirst() async throws {
    let clock = ManualClock()
    let running = Concurrency()
    let scheduler = DownloadScheduler(maxConcurrent: 1, clock: clock, agingBound: nil)
    await scheduler.submit(priority: .low, job("first", clock: clock, running: running))
    try #require(await eventually { clock.sleepers == 1 }, "the first job should start at once: a slot is free")
    await scheduler.submit(priority: .low, job("low", clock: clock, running: running))
    await scheduler.submit(priority: .normal, job("normal", clock: clock, running: running))
    await scheduler.submit(priority: .high, job("high", clock: clock, running: running))
    let waiting = await scheduler.queuedCount
    #expect(waiting == 3, "three jobs wait for the one slot; got \(waiting)")
    for expected in 2...4 {
      await clock.advance(by: .seconds(1))
      let next = await eventually { running.started.count == expected && clock.sleepers == 1 }
      #expect(next, "the next job should start when the slot frees up")
    }
    await clock.advance(by: .seconds(1))
    #expect(
      running.started == ["first", "high", "normal", "low"],
      "after the first job, the highest priority must go first; got \(running.started)")
  }

  @Test("cancelling a queued job: it never runs and frees nothing")
  func cancelQueued() async throws {
    let clock = ManualClock()
    let running = Concurrency()
    let scheduler = DownloadScheduler(maxConcurrent: 1, clock: clock)
    let first = await scheduler.submit(job("first", clock: clock, running: running))
    try #require(await eventually { clock.sleepers == 1 }, "the first job should start at once")
    let second = await scheduler.submit(job("second", clock: clock, running: running))
    let third = await scheduler.submit(job("third", clock: clock, running: running))
    let secondBefore = await scheduler.state(of: second)
    #expect(secondBefore == .queued, "the second job waits for the slot; got \(String(describing: secondBefore))")
    await scheduler.cancel(second)
    let secondAfter = await scheduler.state(of: second)
    #expect(secondAfter == nil, "a cancelled job is forgotten; got \(String(describing: secondAfter))")
    let firstState = await scheduler.state(of: first)
    #expect(firstState == .running, "cancelling a queued job must not touch the running one; got \(String(describing: firstState))")
    let slots = await scheduler.runningCount
    #expect(slots == 1, "a queued job held no slot, so cancelling it frees none; got \(slots)")
    let thirdState = await scheduler.state(of: third)
    #expect(thirdState == .queued, "the third job still waits: no slot was freed; got \(String(describing: thirdState))")
    await clock.advance(by: .seconds(1))
    try #require(await eventually { running.started.count == 2 && clock.sleepers == 1 }, "the third job should start next")
    await clock.advance(by: .seconds(1))
    let drained = await eventually { await scheduler.runningCount == 0 }
    let held = await scheduler.runningCount
    #expect(drained, "every job has finished or been cancelled, so no slot should be held; runningCount is \(held)")
    #expect(running.started == ["first", "third"], "the cancelled job must never run; started \(running.started)")
  }

  @Test("cancelling a running job frees its slot at once, even before its work has wound down")
  func cancelRunningFreesTheSlotAtOnce() async throws {
    let (clock, running, gate, scheduler, slow, next, last) = try await slowJobWithTwoBehind()
    await scheduler.cancel(slow)
    // Read in the actor's next turn: cancel() itself must have handed the slot on.
    let nextState = await scheduler.state(of: next)
    #expect(
      nextState == .running,
      "cancel() must free the running job's slot and start the next job in the same turn, not when the cancelled work returns; the next job is \(String(describing: nextState))"
    )
    let started = await eventually { running.started.contains("next") }
    #expect(started, "the cancelled job's slot must go to the next job at once, not when its work returns")
    let slowState = await scheduler.state(of: slow)
    #expect(slowState == nil, "a cancelled job is forgotten; got \(String(describing: slowState))")
    // The cancelled work returns late: its slot was given away already, so it frees nothing.
    gate.open()
    await settle()
    let count = await scheduler.runningCount
    let lastState = await scheduler.state(of: last)
    #expect(
      count == 1 && lastState == .queued,
      "the late return of the cancelled job must not free a second slot: one job runs (\(count) do) and the last one still waits (it is \(String(describing: lastState)))"
    )
    await clock.run()
    let drained = await eventually { await scheduler.runningCount == 0 }
    let held = await scheduler.runningCount
    #expect(drained, "every job has finished or been cancelled, so no slot should be held; runningCount is \(held)")
    #expect(running.started == ["slow", "next", "last"], "after the slow job, the two others run in turn; started \(running.started)")
  }

  @Test("a queued job's priority can change")
  func changePriorityWhileQueued() async throws {
    let clock = ManualClock()
    let running = Concurrency()
    let scheduler = DownloadScheduler(maxConcurrent: 1, clock: clock, agingBound: nil)
    let first = await scheduler.submit(job("first", clock: clock, running: running))
    try #require(await eventually { clock.sleepers == 1 }, "the first job should start at once")
    await scheduler.submit(priority: .normal, job("normal", clock: clock, running: running))
    let bumped = await scheduler.submit(priority: .low, job("bumped", clock: clock, running: running))
    #expect(await scheduler.changePriority(of: bumped, to: .high), "a queued job's priority can change")
    #expect(!(await scheduler.changePriority(of: first, to: .low)), "a running job is no longer queued")
    await clock.advance(by: .seconds(1))
    try #require(await eventually { running.started.count == 2 && clock.sleepers == 1 }, "a second job should start")
    #expect(running.started.last == "bumped", "the job raised to high should start before the normal one")
    await clock.advance(by: .seconds(1))
  }

  /// Keeps one high job waiting at every step while one low job waits, and returns at which
  /// step the low job started (nil if it never did within `steps`).
  func stepWhenLowRuns(agingBound: Duration?, steps: Int) async throws -> Int? {
    let clock = ManualClock()
    let running = Concurrency()
    let scheduler = DownloadScheduler(maxConcurrent: 1, clock: clock, agingBound: agingBound)
    await scheduler.submit(priority: .high, job("high", clock: clock, running: running))
    try #require(await eventually { clock.sleepers == 1 }, "the first job should start at once")
    await scheduler.submit(priority: .low, job("low", clock: clock, running: running))
    for step in 1...steps {
      await scheduler.submit(priority: .high, job("high", clock: clock, running: running))
      await clock.advance(by: .seconds(1))
      try #require(await eventually { running.started.count == step + 1 && clock.sleepers == 1 }, "a job should start")
      if running.started.last == "low" { return step }
    }
    return nil
  }

  @Test("aging: a low job waiting behind an endless stream of high jobs still runs")
  func agingPreventsStarvation() async throws {
    let step = try await stepWhenLowRuns(agingBound: .seconds(5), steps: 30)
    #expect(step != nil, "with a 5 s aging bound the low job must run within 30 s of high-priority traffic")
    #expect(
      step == 10, "low counts as normal after 5 s and as high after 10 s, then it is the oldest high job: expected step 10, got \(String(describing: step))")
    let starved = try await stepWhenLowRuns(agingBound: nil, steps: 30)
    #expect(starved == nil, "without aging the low job starves while high jobs keep coming")
  }

  /// Submits on the scheduler's own actor and reads its state in the same turn, so a start left
  /// for a later turn is seen as not started.
  func submitAndLook(
    _ scheduler: isolated DownloadScheduler<ManualClock>, priority: DownloadPriority = .normal,
    _ work: @escaping @Sendable () async -> Void
  ) -> (id: JobID, state: JobState?, running: Int) {
    let id = scheduler.submit(priority: priority, work)
    return (id, scheduler.state(of: id), scheduler.runningCount)
  }

  @Test("a job that finds a free slot is running when submit returns")
  func aFreeSlotStartsTheJobInSubmit() async throws {
    let clock = ManualClock()
    let running = Concurrency()
    let scheduler = DownloadScheduler(maxConcurrent: 2, clock: clock)
    let first = await submitAndLook(scheduler, job("first", clock: clock, running: running))
    #expect(
      first.state == .running && first.running == 1,
      "a slot was free: submit itself must start the job, so it is running in the same turn; it is \(String(describing: first.state)), \(first.running) running"
    )
    let second = await submitAndLook(scheduler, job("second", clock: clock, running: running))
    #expect(second.state == .running && second.running == 2, "the second slot was free too: submit starts the job")
    let third = await submitAndLook(scheduler, job("third", clock: clock, running: running))
    #expect(
      third.state == .queued && third.running == 2,
      "both slots are taken: the third job waits; it is \(String(describing: third.state)), \(third.running) running")
    await clock.run()
    #expect(await eventually { running.started.count == 3 && clock.sleepers == 0 }, "all three jobs should run")
  }

  @Test("cancelling a job that is unknown, finished or already cancelled changes nothing")
  func forgottenJobsAreIgnored() async throws {
    let (clock, running, gate, scheduler, slow, next, last) = try await slowJobWithTwoBehind()
    await scheduler.cancel(slow)
    #expect(await scheduler.state(of: next) == .running, "the cancelled job's slot goes to the next job")
    await scheduler.cancel(slow)
    await scheduler.cancel(JobID(rawValue: 9_999))
    var held = await scheduler.runningCount
    var lastState = await scheduler.state(of: last)
    #expect(
      held == 1 && lastState == .queued,
      "a second cancel of the same job, and a cancel of an unknown ID, must free no slot: one job runs (\(held) do) and the last waits (it is \(String(describing: lastState)))"
    )
    #expect(!(await scheduler.changePriority(of: slow, to: .high)), "a cancelled job is no longer queued")
    #expect(!(await scheduler.changePriority(of: JobID(rawValue: 9_999), to: .high)), "an unknown ID was never queued")
    #expect(await scheduler.state(of: JobID(rawValue: 9_999)) == nil, "an unknown ID has no state")
    // The next job ends on its own; the last one takes the slot. A cancel of the finished job
    // must not free it. A job that is running may not have reached its sleep yet: wait for it.
    try #require(await clock.waitForSleepers(1), "the next job should sleep on the clock once it runs")
    await clock.advance(by: .seconds(1))
    try #require(await eventually { running.started.count == 3 && clock.sleepers == 1 }, "the last job should start")
    let extra = await scheduler.submit(job("extra", clock: clock, running: running))
    await scheduler.cancel(next)
    held = await scheduler.runningCount
    let extraState = await scheduler.state(of: extra)
    #expect(
      held == 1 && extraState == .queued,
      "a cancel of a job that already finished must free no slot: one job runs (\(held) do) and the extra one waits (it is \(String(describing: extraState)))"
    )
    lastState = await scheduler.state(of: last)
    #expect(lastState == .running, "the last job keeps running")
    gate.open()
    await clock.run()
    #expect(await eventually { await scheduler.runningCount == 0 }, "every job should end")
  }

  @Test func aLimitBelowOneIsTreatedAsOne() async throws {
    let clock = ManualClock()
    let running = Concurrency()
    let scheduler = DownloadScheduler(maxConcurrent: 0, clock: clock)
    #expect(scheduler.maxConcurrent == 1, "a limit of 0 would run nothing ever: it is raised to 1")
    await scheduler.submit(job("only", clock: clock, running: running))
    #expect(await eventually { clock.sleepers == 1 }, "with the limit raised to 1, the job should run")
    await clock.advance(by: .seconds(1))
  }
}

// MARK: - No aging at all

extension Exercise3_DownloadSchedulerTests {
  @Test("agingBound nil turns aging off for good: low work waits past two default bounds of high traffic")
  func noAgingBoundMeansStrictPriorities() async throws {
    // 65 s is more than two bounds of the default 30 s: a queue that ages by the default would
    // have lifted the low job to high by then.
    let step = try await stepWhenLowRuns(agingBound: nil, steps: 65)
    #expect(
      step == nil,
      "with agingBound nil the low job must wait as long as high jobs keep coming; it ran at step \(String(describing: step)) (of 65 s)"
    )
  }
}

// MARK: - A job that ended on its own

extension Exercise3_DownloadSchedulerTests {
  @Test("a job that ended on its own is forgotten: it has no state and its priority cannot change")
  func aFinishedJobIsForgotten() async throws {
    let scheduler = DownloadScheduler(maxConcurrent: 1, clock: ManualClock())
    let done = Counter()
    let finished = await scheduler.submit { done.increment() }
    let ended = await eventually { await scheduler.runningCount == 0 && done.value == 1 }
    try #require(ended, "the job should run and end; it ran \(done.value) times")
    let state = await scheduler.state(of: finished)
    #expect(state == nil, "a job that ended has no state, got \(String(describing: state))")
    let changed = await scheduler.changePriority(of: finished, to: .high)
    #expect(!changed, "changePriority of a job that ended returned true")
  }
}
