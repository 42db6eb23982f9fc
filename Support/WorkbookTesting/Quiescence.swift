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
/// The hook (`swift_task_enqueueGlobal_hook` and its main-actor twin) is part of the Swift
/// runtime on Linux and on Apple platforms; if a toolchain ever lacks it, `isAvailable` is false,
/// waits fall back to polling with a safety net, and a check that something has *not* happened
/// only becomes more lenient: a correct solution still passes.
public enum Quiescence {
  /// Whether the runtime hook is installed in this process.
  public static var isAvailable: Bool { installed }

  /// How many jobs are queued or running right now, counted since the hook was installed.
  public static var pendingJobs: Int { state.withLock { $0.pending } }

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
    // A task whose current job started before the hook runs uncounted; a hop through a new task
    // makes the rest of it counted, so its own suspension below is what can bring the count to 0.
    await Task.detached {}.value
    let id = state.withLock { state -> UInt64 in
      state.nextWatcher += 1
      return state.nextWatcher
    }
    let timer = DispatchWorkItem {
      let watcher = state.withLock { $0.watchers.removeValue(forKey: id) }
      watcher?.resume(returning: false)
    }
    let settled = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let idleAlready = state.withLock { state -> Bool in
        // The caller's own job is counted while it runs, so zero means it runs uncounted (it
        // started before the hook) and everyone else is already parked.
        if state.pending == 0 { return true }
        state.watchers[id] = continuation
        return false
      }
      if idleAlready {
        continuation.resume(returning: true)
      } else {
        let delay = max(0, ContinuousClock.now.duration(to: deadline).seconds)
        DispatchQueue.global().asyncAfter(deadline: .now() + delay, execute: timer)
      }
    }
    timer.cancel()
    return settled
  }

  // MARK: - The hook

  private struct State {
    var pending = 0
    var nextWatcher: UInt64 = 0
    var watchers: [UInt64: CheckedContinuation<Bool, Never>] = [:]
  }

  private static let state = Locked(State())

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

  fileprivate static func jobQueued() {
    state.withLock { $0.pending += 1 }
  }

  fileprivate static func jobEnded() {
    let watchers = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
      state.pending -= 1
      guard state.pending == 0, !state.watchers.isEmpty else { return [] }
      defer { state.watchers = [:] }
      return Array(state.watchers.values)
    }
    for watcher in watchers { watcher.resume(returning: true) }
  }

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
