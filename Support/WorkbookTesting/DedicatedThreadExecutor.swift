import Foundation

/// A task executor that runs its jobs, one at a time, on a thread of its own.
///
/// `GrowthCheck` times its workloads here. On a shared pool (`DispatchQueue.global()`, two
/// threads on a two-core machine) every hop to an actor waits behind whatever jobs the other
/// tests of the process queued first; a timed call pays that wait, which is the same at every
/// size, so it shrinks a ratio: a search that grew 80× measured under 20× in a busy run. Here a
/// hop is a job on this thread's own queue, run as soon as the job before it ends. Other threads
/// can still take the processor from it, but only in proportion to the time it runs, which
/// scales both sides of a ratio alike.
///
/// Jobs that arrive after `finish()` (a task the workload left behind) run on the shared pool,
/// so nothing that was started ever waits for a thread that has gone.
final class DedicatedThreadExecutor: TaskExecutor, @unchecked Sendable {
  /// Guards `jobs` and `finished`; the thread waits on it for work.
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  private var head = 0
  private var finished = false

  init(name: String) {
    let thread = Thread { [self] in runJobs() }
    thread.name = name
    thread.start()
  }

  func enqueue(_ job: consuming ExecutorJob) { enqueue(UnownedJob(job)) }

  func enqueue(_ job: UnownedJob) {
    condition.lock()
    if finished {
      condition.unlock()
      DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
      return
    }
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  /// Lets the thread end once the jobs queued so far have run.
  func finish() {
    condition.lock()
    finished = true
    condition.signal()
    condition.unlock()
  }

  private func runJobs() {
    while let job = nextJob() {
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }

  /// The oldest job, waiting for one if none is queued; nil once finished and drained.
  /// - Complexity: O(1) amortized (the run jobs are dropped once they are half the array).
  private func nextJob() -> UnownedJob? {
    condition.lock()
    defer { condition.unlock() }
    while head == jobs.count, !finished { condition.wait() }
    guard head < jobs.count else { return nil }
    let job = jobs[head]
    head += 1
    if head >= 64, head * 2 >= jobs.count {
      jobs.removeSubrange(..<head)
      head = 0
    }
    return job
  }
}
