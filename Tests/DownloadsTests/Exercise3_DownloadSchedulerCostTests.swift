import Testing
import WorkbookTesting

@testable import Downloads

/// The scheduler promises every operation in O(1) amortized, plus starting jobs: a job is found by
/// its ID in a dictionary, and the queue of exercise 1 does the rest. `GrowthCheck` times submit,
/// cancel, changePriority and state(of:) with 10 jobs waiting, then 1,000 and 10,000, and fails
/// when one costs more than 20× what it cost with 10: a job looked up by walking a list (or a
/// dictionary searched with `first(where:)`) grows with the jobs waiting. A round submits 20 jobs
/// and cancels them again. With a search the walk is most of a cancel's cost at every size, so the
/// ratio is about the ratio of the jobs walked: with a baseline of 100 jobs and 200 submitted a
/// round, a dictionary searched by `first(where:)` (mutant 42) measured 37–67× at 10,000 and once
/// passed, as one attempt within 20× is enough; with 10 and 20 it walks 15 jobs a cancel at the
/// baseline and 5,000 at 10,000.
@Suite("Exercise 3 — The scheduler (cost)", .timeLimit(.minutes(1)))
struct Exercise3_DownloadSchedulerCostTests {
  @Test("submit, cancel, changePriority and state(of:) cost the same with 10 jobs waiting and with 10,000")
  func operationsTakeConstantTime() async {
    var started: [(scheduler: DownloadScheduler<ManualClock>, jobs: [JobID])] = []
    let verdict = await GrowthCheck(baselineSize: 10, sizes: [1_000, 10_000], unit: "jobs waiting").run { waiting in
      let clock = ManualClock()
      let scheduler = DownloadScheduler(maxConcurrent: 1, clock: clock, agingBound: nil)
      let work: @Sendable () async -> Void = { try? await clock.sleep(for: .seconds(3_600)) }
      var jobs: [JobID] = []
      for _ in 0...waiting { jobs.append(await scheduler.submit(priority: .low, work)) }
      started.append((scheduler, jobs))
      return await Self.schedulerWorkload(scheduler, work: work, jobs: jobs)
    }
    // Every job's work sleeps on a clock nobody moves: cancelling them all lets the tasks end.
    for (scheduler, jobs) in started {
      for job in jobs.reversed() { await scheduler.cancel(job) }  // the queued ones first, then the one running
    }
    if let failure = verdict.message(possibleCauses: [
      "a job found by searching a list of jobs, or a dictionary with `first(where:)`, for its ID, where a "
        + "dictionary keyed by ID (its queue ticket while it waits, its task while it runs) answers with a lookup",
      "an operation of the queue of exercise 1 that is not O(1)",
    ]) {
      Issue.record("\(failure)")
    }
  }

  /// A scheduler given `jobs` (one running, its work asleep on a clock nobody moves, and the
  /// rest queued behind it), and a round of 20 submits and 20 cancels of the jobs submitted, so
  /// the queue keeps its size, and 200 calls of changePriority and state(of:).
  static func schedulerWorkload(
    _ scheduler: DownloadScheduler<ManualClock>, work: @escaping @Sendable () async -> Void, jobs: [JobID]
  ) async -> GrowthCheck.Workload {
    let waiting = jobs.count - 1
    let queued = Array(jobs.dropFirst())  // the first one runs
    guard await scheduler.runningCount == 1, await scheduler.queuedCount == waiting else {
      return .broken(
        "\(waiting + 1) jobs submitted with maxConcurrent 1 should leave 1 running and \(waiting) queued; "
          + "the scheduler's own tests say what is missing")
    }
    var random = SeededRandom(seed: UInt64(waiting))
    return .ready { timer in
      var fresh: [JobID] = []
      fresh.reserveCapacity(20)
      await timer.time("submit", calls: 20) { _ in fresh.append(await scheduler.submit(priority: .low, work)) }
      // A round over its budget stops early: submit the rest untimed, so every round cancels 20.
      while fresh.count < 20 { fresh.append(await scheduler.submit(priority: .low, work)) }
      let picks = (0..<200).map { _ in queued[Int(random.next() % UInt64(queued.count))] }
      await timer.time("changePriority", calls: picks.count) { _ = await scheduler.changePriority(of: picks[$0], to: .low) }
      await timer.time("state(of:)", calls: picks.count) { _ = await scheduler.state(of: picks[$0]) }
      await timer.time("cancel", calls: fresh.count) { await scheduler.cancel(fresh[$0]) }
    }
  }
}
