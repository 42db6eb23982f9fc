import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Knows when nothing is left to run: every Swift task in the test process is suspended.
///
/// A test of concurrent code needs two answers the wall clock cannot give: "has the code under
/// test reached the point I am waiting for?" and "has it stopped, so what has not happened yet
/// never will?". The second one is what lets wrong code fail at once instead of at a timeout, and
/// what lets a test say "no third download started" without guessing how long to wait.
///
/// The Swift runtime sends every job it schedules (a task starting or resuming, an actor getting
/// to work) through one function, and offers a hook on it. `Quiescence` installs that hook, runs
/// each job itself and counts the jobs that are queued or running. When the count drops to zero,
/// every task is parked: on a `ManualClock`, a `Gate`, a continuation, an actor's queue, or done.
/// `settle()` returns at that moment. Nothing can then change until a test moves the clock, opens
/// a gate or answers a request, so whatever a test checks right after `settle()` is final.
///
/// What it cannot see: work on threads the Swift runtime does not run, such as a `DispatchQueue`,
/// an `OperationQueue`, `URLSession`'s delegate threads or the practice server. A test of such
/// code waits for an event with `eventually(.threads)` instead (see `RunsOn`).
///
/// Jobs on the main actor no longer pass the runtime's hook (see `waitUntilIdle`), so
/// `settle()` also flushes the main queue until it wakes nothing.
///
/// The hook (`swift_task_enqueueGlobal_hook`) is part of the Swift runtime on Linux and on Apple
/// platforms; if a toolchain ever lacks it, `isAvailable` is false, waits fall back to polling
/// with a safety net, and a check that something has *not* happened only becomes more lenient: a
/// correct solution still passes.
public enum Quiescence {
  /// Whether the runtime hook is installed in this process.
  public static var isAvailable: Bool { installed }

  /// How many jobs are queued or running right now, counted since the hook was installed.
  public static var pendingJobs: Int { counts.pending }

  /// Suspends the caller until every task in the process is suspended, and returns true; or
  /// returns false at `deadline` if the process never stops (a task that spins forever).
  ///
  /// Without the runtime hook it waits a short while instead and returns false.
  @discardableResult
  public static func settle(before deadline: ContinuousClock.Instant = .now.advanced(by: safetyNet)) async -> Bool {
    guard installed else {
      await fallbackPause()
      return false
    }
    // The watching happens on a thread of its own, which blocks: no job of the watcher's is ever
    // on the count, so what the count shows is the code under test alone, however many tests
    // settle at once. The caller is parked meanwhile, its own job off the count too.
    let remaining = max(0, ContinuousClock.now.duration(to: deadline).seconds)
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let watcher = Thread { continuation.resume(returning: waitUntilIdle(until: Date(timeIntervalSinceNow: remaining))) }
      watcher.start()
    }
  }

  /// Blocks until nothing is left to run, or returns false at `deadline`.
  ///
  /// The main actor's jobs pass by the hook: since Swift 6.2 the main executor is written in
  /// Swift and no longer calls `swift_task_enqueueMainExecutor_hook`, so a job waiting on the main
  /// queue is invisible to the count, and the count alone can reach 0 while one waits there. So
  /// once the count is 0, a marker goes on the main queue and is waited for. The main queue runs
  /// in order, so every main job queued before the marker has run when it does; if any of them
  /// queued a job, the process was not idle and it starts over. Two quiet rounds in a row end it,
  /// so a main job that queues one more main job before going quiet is waited for too.
  private static func waitUntilIdle(until deadline: Date) -> Bool {
    var quietRounds = 0
    while quietRounds < 2 {
      guard let before = counts.waitForZero(until: deadline) else { return false }
      let marker = DispatchSemaphore(value: 0)
      DispatchQueue.main.async { marker.signal() }
      guard marker.wait(timeout: .now() + max(0, deadline.timeIntervalSinceNow)) == .success else { return false }
      quietRounds = counts.queued == before ? quietRounds + 1 : 0
    }
    return true
  }

  // MARK: - The hook

  /// The jobs the hook has seen, behind a condition the watcher threads wait on. (`NSCondition`
  /// rather than `Mutex`: the thread sanitizer sees it; see `Locked`.)
  private final class Counts: @unchecked Sendable {
    private let condition = NSCondition()
    /// Jobs queued or running now.
    private var pendingJobs = 0
    /// Jobs ever queued: a watcher compares two readings to tell whether anything ran between.
    private var queuedJobs: UInt64 = 0

    var pending: Int { locked { pendingJobs } }
    var queued: UInt64 { locked { queuedJobs } }

    func jobQueued() {
      locked {
        pendingJobs += 1
        queuedJobs += 1
      }
    }

    func jobEnded() {
      locked {
        pendingJobs -= 1
        if pendingJobs == 0 { condition.broadcast() }
      }
    }

    /// Blocks until no job is queued or running, and returns how many were ever queued then; or
    /// nil at `deadline`.
    func waitForZero(until deadline: Date) -> UInt64? {
      locked {
        while pendingJobs > 0 {
          if !condition.wait(until: deadline) && pendingJobs > 0 { return nil }
        }
        return queuedJobs
      }
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
      condition.lock()
      defer { condition.unlock() }
      return body()
    }
  }

  private static let counts = Counts()

  private typealias Original = @convention(thin) (UnownedJob) -> Void
  private typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

  /// Installed once, the first time anything in WorkbookTesting needs it; jobs already running
  /// then are not counted, which only makes the first `settle()` return a little early.
  private static let installed: Bool = {
    guard let process = dlopen(nil, RTLD_NOW),
      let global = dlsym(process, "swift_task_enqueueGlobal_hook"),
      let main = dlsym(process, "swift_task_enqueueMainExecutor_hook")
    else { return false }
    main.assumingMemoryBound(to: Hook?.self).pointee = { job, _ in
      jobQueued()
      DispatchQueue.main.async {
        job.runSynchronously(on: MainActor.sharedUnownedExecutor)
        jobEnded()
      }
    }
    global.assumingMemoryBound(to: Hook?.self).pointee = { job, _ in counting.enqueue(job) }
    return true
  }()

  /// Installs the hook now. Every WorkbookTesting seam calls this when it is made, so the jobs
  /// of a test are counted from its first line.
  public static func install() { _ = installed }

  /// Runs the jobs the hook takes. Being the task executor they run on, it is also what
  /// `Task.yield()` (which enqueues on the current executor, past the hook) hands its job to.
  private final class CountingExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) { enqueue(UnownedJob(job)) }

    func enqueue(_ job: UnownedJob) {
      Quiescence.jobQueued()
      DispatchQueue.global().async {
        job.runSynchronously(on: self.asUnownedTaskExecutor())
        Quiescence.jobEnded()
      }
    }
  }
  private static let counting = CountingExecutor()

  fileprivate static func jobQueued() { counts.jobQueued() }

  fileprivate static func jobEnded() { counts.jobEnded() }

  /// Without the hook: a short real pause, the one place WorkbookTesting sleeps for real besides
  /// `eventually(.threads)`'s poll. Only leniency can come of it, never a wrong failure.
  private static func fallbackPause() async {
    for _ in 0..<100 { await Task.yield() }
    try? await Task.sleep(for: .milliseconds(20))
  }
}

/// Suspends until every task in the process is suspended: the code under test has run as far as
/// it can until the test acts. See `Quiescence`.
public func settle() async {
  await Quiescence.settle()
}

extension Duration {
  fileprivate var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
