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
  var tickets: [JobID: QueueTicket] = [:]
  var running: [JobID: Task<Void, Never>] = [:]
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
    nextID += 1
    let id = JobID(rawValue: nextID)
    tickets[id] = queue.enqueue(Job(id: id, work: work), priority: priority)
    startQueuedJobs()
    return id
  }

  /// Cancels a job: a queued one never runs; a running one is cancelled and its slot is free now.
  /// An ID that is unknown, finished or already cancelled is ignored: it frees no slot.
  public func cancel(_ id: JobID) {
    if let ticket = tickets.removeValue(forKey: id) {
      queue.remove(ticket)
    } else if let task = running.removeValue(forKey: id) {
      task.cancel()
      startQueuedJobs()
    }
  }

  /// Changes a queued job's priority, as `PriorityQueue.changePriority` does (a new arrival at that
  /// level, even the one it has). Returns false if it is not queued (running, done, unknown).
  @discardableResult
  public func changePriority(of id: JobID, to priority: DownloadPriority) -> Bool {
    guard let ticket = tickets[id] else { return false }
    return queue.changePriority(of: ticket, to: priority)
  }

  /// Whether `id` waits or runs; nil once it finished or was cancelled.
  public func state(of id: JobID) -> JobState? {
    if tickets[id] != nil { return .queued }
    if running[id] != nil { return .running }
    return nil
  }

  /// Jobs running now (never more than `maxConcurrent`).
  public var runningCount: Int { running.count }
  /// Jobs waiting for a slot.
  public var queuedCount: Int { tickets.count }

  /// Starts queued jobs, best first, while a slot is free.
  func startQueuedJobs() {
    while running.count < maxConcurrent, let job = queue.dequeue() {
      tickets[job.id] = nil
      running[job.id] = Task {
        await Self.run(job.work)
        self.jobEnded(job.id)
      }
    }
  }

  /// Runs a job's work off the actor. The job's `Task` inherits the actor; `@concurrent` makes
  /// the work leave it whatever the language setting (SE-0461: with
  /// `NonisolatedNonsendingByDefault` on, a nonisolated async function runs on its caller's actor).
  @concurrent static func run(_ work: @Sendable () async -> Void) async {
    await work()
  }

  func jobEnded(_ id: JobID) {
    // A cancelled job already gave its slot back.
    guard running.removeValue(forKey: id) != nil else { return }
    startQueuedJobs()
  }
}

extension DownloadScheduler where C == ContinuousClock {
  /// A scheduler that ages waiting jobs on the real clock.
  public init(maxConcurrent: Int = 3, agingBound: Duration? = .seconds(30)) {
    self.init(maxConcurrent: maxConcurrent, clock: ContinuousClock(), agingBound: agingBound)
  }
}
