// Exercise 3 — The scheduler (intermediate)
//
// Many screens ask for downloads at once; the device has one radio and a few connections. The
// scheduler runs at most `maxConcurrent` jobs at a time, highest priority first (the queue from
// exercise 1), and starts the next one as soon as a slot frees up. Implement `submit`, `cancel`,
// `changePriority` and the bookkeeping that starts queued jobs.
import Workbook

/// Names one submitted job.
public nonisolated struct JobID: Hashable, Sendable, CustomStringConvertible {
  public let rawValue: UInt64
  public init(rawValue: UInt64) { self.rawValue = rawValue }
  public var description: String { "job \(rawValue)" }
}

/// Where a job is. A finished or cancelled job is forgotten: `state(of:)` returns nil for it.
public nonisolated enum JobState: Sendable, Equatable {
  case queued
  case running
}

/// Runs submitted jobs, at most `maxConcurrent` at once, highest (aged) priority first.
///
/// Cancelling a queued job takes it out of the queue; it never runs and frees nothing. Cancelling
/// a running job cancels its task and frees its slot at once: the next job starts without waiting
/// for the cancelled one to wind down. Every operation is O(1) amortized plus starting jobs.
public actor DownloadScheduler<C: Clock> where C.Duration == Duration {
  struct Job: Sendable {
    let id: JobID
    let work: @Sendable () async -> Void
  }

  /// The most jobs that run at once (at least 1).
  public nonisolated let maxConcurrent: Int
  var queue: PriorityQueue<Job, C>
  // TODO: add what you need to find a job by its ID: its queue ticket while queued, its task while running.
  var nextID: UInt64 = 0

  /// A scheduler that ages waiting jobs on `clock`; `agingBound: nil` disables aging. A limit
  /// below 1 is treated as 1.
  public init(maxConcurrent: Int = 3, clock: C, agingBound: Duration? = .seconds(30)) {
    self.maxConcurrent = max(1, maxConcurrent)
    self.queue = PriorityQueue(clock: clock, agingBound: agingBound)
  }

  /// Queues `work` and starts it if a slot is free, within this call: when `submit` returns, a
  /// job that found a free slot is already `.running` (its work may not have begun yet), never
  /// left for a later turn of the actor. The work should stop when its task is cancelled.
  @discardableResult
  public func submit(priority: DownloadPriority = .normal, _ work: @escaping @Sendable () async -> Void) -> JobID {
    // TODO: queue the job and start jobs while a slot is free (placeholder: an ID, nothing runs).
    nextID += 1
    return JobID(rawValue: nextID)
  }

  /// Cancels a job: a queued one never runs; a running one is cancelled and its slot is free now.
  /// An ID that is unknown, finished or already cancelled is ignored: it frees no slot.
  public func cancel(_ id: JobID) {
    // TODO: take a queued job out, or cancel a running one and free its slot (does nothing yet).
  }

  /// Changes a queued job's priority, as `PriorityQueue.changePriority` does (a new arrival at that
  /// level, even the one it has). Returns false if it is not queued (running, done, unknown).
  @discardableResult
  public func changePriority(of id: JobID, to priority: DownloadPriority) -> Bool {
    // TODO: move a queued job in the queue (placeholder: false).
    false
  }

  /// Whether `id` waits or runs; nil once it finished or was cancelled.
  public func state(of id: JobID) -> JobState? {
    // TODO: queued, running, or nil (placeholder: nil).
    nil
  }

  /// Jobs running now (never more than `maxConcurrent`).
  // TODO: the number of running jobs (placeholder: 0).
  public var runningCount: Int { 0 }
  /// Jobs waiting for a slot.
  // TODO: the number of queued jobs (placeholder: 0).
  public var queuedCount: Int { 0 }
}

extension DownloadScheduler where C == ContinuousClock {
  /// A scheduler that ages waiting jobs on the real clock.
  public init(maxConcurrent: Int = 3, agingBound: Duration? = .seconds(30)) {
    self.init(maxConcurrent: maxConcurrent, clock: ContinuousClock(), agingBound: agingBound)
  }
}
