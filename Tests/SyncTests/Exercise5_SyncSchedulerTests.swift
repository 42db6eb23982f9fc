import Networking
import Testing
import WorkbookTesting

@testable import Sync

@Suite("Exercise 5 — Scheduling", .timeLimit(.minutes(1)))
struct Exercise5_SyncSchedulerTests {
  /// The wait before retry `retry` under the probe's policy and a draw of 0.5.
  static func wait(beforeRetry retry: Int) -> Duration {
    SchedulerProbe.policy.backoff(beforeRetry: retry, random: .constant(0.5))
  }

  // MARK: One at a time

  @Test func aTriggerDuringARunNeverStartsASecondSyncAlongsideIt() async throws {
    let probe = SchedulerProbe(held: true)
    defer { probe.gate.open() }
    let scheduler = probe.scheduler(clock: ManualClock())
    await scheduler.trigger()
    try #require(await probe.gate.arrivals(1), "a trigger while idle and online should start a sync")
    await scheduler.trigger()
    await scheduler.trigger()
    await scheduler.trigger()
    let secondStarted = await eventually { probe.started > 1 }
    #expect(
      !secondStarted,
      "three triggers arrived while a sync was still running: no second sync may start next to it, yet \(probe.started) started")
    probe.gate.open()
    #expect(await returnsToIdle(scheduler), "with the sync let through, the scheduler should become idle")
    #expect(probe.mostAtOnce == 1, "syncs must run one at a time, but \(probe.mostAtOnce) ran at once")
  }

  // MARK: Coalescing

  @Test func aRunWithNoTriggerDuringItIsNotFollowedByAnother() async throws {
    let probe = SchedulerProbe()
    let scheduler = probe.scheduler(clock: ManualClock())
    await scheduler.trigger()
    #expect(await returnsToIdle(scheduler), "one trigger, one sync, then the scheduler should be idle")
    #expect(probe.started == 1, "one trigger with nothing asked during the run is one sync, not \(probe.started)")
  }

  @Test func oneTriggerDuringARunBecomesOneMoreRun() async throws {
    let probe = SchedulerProbe(held: true)
    defer { probe.gate.open() }
    let scheduler = probe.scheduler(clock: ManualClock())
    await scheduler.trigger()
    try #require(await probe.gate.arrivals(1), "a trigger while idle and online should start a sync")
    await scheduler.trigger()
    probe.gate.open()
    #expect(await returnsToIdle(scheduler), "with both syncs let through, the scheduler should become idle")
    #expect(
      probe.started == 2,
      "an edit made during a sync may have missed it: a trigger during a run must be one more sync, so 2 in all, not \(probe.started)")
  }

  @Test func threeTriggersDuringARunBecomeExactlyOneMoreRun() async throws {
    let probe = SchedulerProbe(held: true)
    defer { probe.gate.open() }
    let scheduler = probe.scheduler(clock: ManualClock())
    await scheduler.trigger()
    try #require(await probe.gate.arrivals(1), "a trigger while idle and online should start a sync")
    await scheduler.trigger()
    await scheduler.trigger()
    await scheduler.trigger()
    probe.gate.release(1)
    let secondRun = await probe.gate.arrivals(1)
    #expect(secondRun, "three triggers arrived during the first sync: one more sync should start after it")
    probe.gate.release(1)
    #expect(await returnsToIdle(scheduler), "after the second sync nothing else is wanted: the scheduler should be idle")
    #expect(
      probe.started == 2,
      "one more sync covers every edit made during the first: 2 syncs in all, not one per trigger (\(probe.started) ran)")
  }

  // MARK: Backoff

  @Test func eachFailureWaitsThePolicysBackoffBeforeTheNextTry() async throws {
    let clock = ManualClock()
    let probe = SchedulerProbe(failingRuns: [1, 2, 3, 4, 5])
    let scheduler = probe.scheduler(clock: clock)
    await scheduler.trigger()
    for failure in 1...5 {
      let wait = Self.wait(beforeRetry: failure)
      try #require(
        await clock.waitForSleepers(1),
        "after failure \(failure) the scheduler should wait \(wait) on its clock before trying again; it did not sleep")
      #expect(
        clock.sleepHistory.last == wait,
        "after failure \(failure) the wait should be the policy's backoff(beforeRetry: \(failure)), \(wait); it was \(clock.sleepHistory.last.map { "\($0)" } ?? "none")"
      )
      #expect(await scheduler.consecutiveFailures == failure, "\(failure) syncs failed in a row")
      await clock.advance(by: wait - .milliseconds(1))
      #expect(probe.started == failure, "1 ms before the backoff of \(wait) ends, no new try may start")
      await clock.advance(by: .milliseconds(1))
    }
    #expect(await returnsToIdle(scheduler), "the sixth sync succeeded: the scheduler should be idle")
    #expect(probe.started == 6, "five failures and one success are 6 syncs, not \(probe.started)")
    let expected = (1...5).map { Self.wait(beforeRetry: $0) }
    #expect(
      clock.sleepHistory == expected,
      "the waits should grow with each failure up to the policy's cap: \(expected), not \(clock.sleepHistory)")
    #expect(await scheduler.consecutiveFailures == 0, "a success ends the run of failures")
  }

  @Test func aSuccessStartsTheBackoffOverFromTheFirstWait() async throws {
    let clock = ManualClock()
    let probe = SchedulerProbe(failingRuns: [1, 2, 4])
    let scheduler = probe.scheduler(clock: clock)
    await scheduler.trigger()
    for failure in 1...2 {
      try #require(await clock.waitForSleepers(1), "after failure \(failure) the scheduler should wait on its clock")
      await clock.advance(by: Self.wait(beforeRetry: failure))
    }
    #expect(await returnsToIdle(scheduler), "the third sync succeeded: the scheduler should be idle")
    #expect(await scheduler.consecutiveFailures == 0, "a success must reset the count of failures in a row")
    await scheduler.trigger()
    try #require(await clock.waitForSleepers(1), "the fourth sync failed: the scheduler should wait on its clock")
    let first = Self.wait(beforeRetry: 1)
    #expect(
      clock.sleepHistory.last == first,
      "a server that recovered and failed again is a first failure: the wait should be \(first) again, not \(clock.sleepHistory.last.map { "\($0)" } ?? "none")"
    )
    await clock.advance(by: first)
    #expect(await returnsToIdle(scheduler), "the retry succeeded: the scheduler should be idle")
  }

  @Test func theJitterIsDrawnFromTheSchedulersRandomSource() async throws {
    let seed: UInt64 = 7
    let clock = ManualClock()
    let probe = SchedulerProbe(failingRuns: [1, 2, 3])
    let scheduler = probe.scheduler(clock: clock, random: RandomSource(SeededRandom(seed: seed)))
    await scheduler.trigger()
    for failure in 1...3 {
      try #require(await clock.waitForSleepers(1), "after failure \(failure) the scheduler should wait on its clock")
      await clock.advance(by: clock.sleepHistory[failure - 1])
    }
    #expect(await returnsToIdle(scheduler), "the fourth sync succeeded: the scheduler should be idle")
    let replay = RandomSource(SeededRandom(seed: seed))
    let expected = (1...3).map { SchedulerProbe.policy.backoff(beforeRetry: $0, random: replay) }
    #expect(
      clock.sleepHistory == expected,
      "with full jitter drawn from the scheduler's RandomSource (SeededRandom, seed \(seed)), one draw a wait, the waits are \(expected), not \(clock.sleepHistory): devices that fail together must not retry together"
    )
  }

  // MARK: Offline

  @Test func aTriggerWhileOfflineRunsNothingUntilTheNetworkReturns() async throws {
    let probe = SchedulerProbe()
    let scheduler = probe.scheduler(clock: ManualClock(), online: false)
    await scheduler.trigger()
    await scheduler.trigger()
    let ranOffline = await eventually { probe.started > 0 }
    #expect(!ranOffline, "offline, a trigger must wait for the network, yet \(probe.started) syncs started")
    #expect(await scheduler.isBusy == false, "offline with a sync wanted, nothing is running or waiting to retry")
    await scheduler.setOnline(true)
    let ranOnline = await eventually { probe.started > 0 }
    #expect(ranOnline, "the network came back with a sync wanted: it should start")
    #expect(await returnsToIdle(scheduler), "after that sync the scheduler should be idle")
    #expect(probe.started == 1, "two triggers while offline are one sync when the network returns, not \(probe.started)")
  }

  @Test func goingOfflineDuringARunHoldsTheNextOneUntilTheNetworkReturns() async throws {
    let probe = SchedulerProbe(held: true)
    defer { probe.gate.open() }
    let scheduler = probe.scheduler(clock: ManualClock())
    await scheduler.trigger()
    try #require(await probe.gate.arrivals(1), "a trigger while idle and online should start a sync")
    await scheduler.setOnline(false)
    await scheduler.trigger()
    probe.gate.open()
    #expect(await returnsToIdle(scheduler), "the sync ended while offline: the scheduler should be idle")
    #expect(
      probe.started == 1,
      "the device went offline during the first sync: the one asked for meanwhile must wait for the network, yet \(probe.started) ran")
    await scheduler.setOnline(true)
    #expect(await eventually { probe.started == 2 }, "the network came back with a sync wanted: it should start")
    #expect(await returnsToIdle(scheduler), "after that sync the scheduler should be idle")
  }

  @Test func goingOfflineDuringABackoffStopsRetrying() async throws {
    let clock = ManualClock()
    let probe = SchedulerProbe(failingRuns: [1])
    let scheduler = probe.scheduler(clock: clock)
    await scheduler.trigger()
    try #require(await clock.waitForSleepers(1), "the sync failed: the scheduler should wait on its clock")
    await scheduler.setOnline(false)
    await clock.advance(by: Self.wait(beforeRetry: 1))
    #expect(probe.started == 1, "the backoff ended while offline: no retry may start without a network, yet \(probe.started) syncs ran")
    #expect(await returnsToIdle(scheduler), "offline after the backoff, nothing is left to do until the network returns")
    await scheduler.setOnline(true)
    #expect(await eventually { probe.started == 2 }, "the network came back and the failed sync is still wanted: it should be retried")
    #expect(await returnsToIdle(scheduler), "the retry succeeded: the scheduler should be idle")
  }

  // MARK: Cancel and idle

  @Test func cancelEndsABackoffAndALaterTriggerStartsAgain() async throws {
    let clock = ManualClock()
    let probe = SchedulerProbe(failingRuns: [1])
    let scheduler = probe.scheduler(clock: clock)
    await scheduler.trigger()
    try #require(await clock.waitForSleepers(1), "the sync failed: the scheduler should wait on its clock")
    await scheduler.cancel()
    #expect(await returnsToIdle(scheduler), "cancel() should end the backoff at once, without the clock moving")
    #expect(clock.sleepers == 0, "after cancel() nothing should still sleep on the clock")
    #expect(probe.started == 1, "cancel() ends the backoff without trying again, yet \(probe.started) syncs ran")
    #expect(await scheduler.isBusy == false, "after cancel() nothing runs or waits to retry")
    await scheduler.trigger()
    #expect(await eventually { probe.started == 2 }, "a trigger after cancel() should start a sync again")
    #expect(await returnsToIdle(scheduler), "that sync succeeded: the scheduler should be idle")
  }

  @Test func waitUntilIdleReturnsAtOnceWhenNothingWasAskedFor() async throws {
    let scheduler = SchedulerProbe().scheduler(clock: ManualClock())
    #expect(await returnsToIdle(scheduler), "a scheduler that was never triggered is idle: waitUntilIdle() should return")
  }

  @Test func waitUntilIdleWaitsOutTheBackoffAndTheRetry() async throws {
    let clock = ManualClock()
    let probe = SchedulerProbe(held: true, failingRuns: [1])
    defer { probe.gate.open() }
    let scheduler = probe.scheduler(clock: clock)
    await scheduler.trigger()
    try #require(await probe.gate.arrivals(1), "a trigger while idle and online should start a sync")
    let calledDuringTheSync = IdleWatch(scheduler)
    probe.gate.open()
    try #require(await clock.waitForSleepers(1), "the sync failed: the scheduler should wait on its clock")
    let calledDuringTheBackoff = IdleWatch(scheduler)
    let returnedEarly = await eventually { calledDuringTheSync.hasReturned || calledDuringTheBackoff.hasReturned }
    #expect(
      !returnedEarly,
      "a retry is still to come after the backoff: waitUntilIdle() must not return yet, whether called during the failed sync or during the backoff"
    )
    #expect(await scheduler.isBusy, "waiting out a backoff counts as busy")
    await clock.advance(by: Self.wait(beforeRetry: 1))
    #expect(
      await eventually { calledDuringTheSync.hasReturned && calledDuringTheBackoff.hasReturned },
      "the retry succeeded: every waitUntilIdle() should return")
    #expect(probe.started == 2, "one failure and one retry are 2 syncs, not \(probe.started)")
  }

  @Test func waitUntilIdleWaitsForTheRunATriggerAddedDuringTheLastOne() async throws {
    let probe = SchedulerProbe(held: true)
    defer { probe.gate.open() }
    let scheduler = probe.scheduler(clock: ManualClock())
    await scheduler.trigger()
    try #require(await probe.gate.arrivals(1), "a trigger while idle and online should start a sync")
    await scheduler.trigger()
    let idle = IdleWatch(scheduler)
    probe.gate.release(1)
    try #require(await probe.gate.arrivals(1), "a trigger during the first sync should start a second one")
    let returnedEarly = await eventually { idle.hasReturned }
    #expect(!returnedEarly, "the second sync is still running: waitUntilIdle() must not return yet")
    probe.gate.release(1)
    #expect(await eventually { idle.hasReturned }, "both syncs ended: waitUntilIdle() should return")
  }
}
