// Given to every chapter: where an actor runs its jobs, with a hook for the tests. Chapter 6's
// `OfflineFeed` runs on one. Nothing to write here.
import Dispatch

/// The executor of an actor that lets a test step in between two of its jobs.
///
/// An actor method runs as jobs: it gives the actor up at each `await` that leaves it, and the
/// rest of the method is a new job, queued behind whatever other callers queued meanwhile.
/// Whatever a method splits across two jobs (two reads of another actor, one `await` apart),
/// another caller can change in between.
///
/// The app passes no hook: the jobs then go to the queue of a plain actor of their own, so the
/// actor behaves as any actor does (and `Quiescence` counts its jobs). A test passes `afterJob`:
/// the jobs then run one at a time, in order, on a serial dispatch queue (a custom executor,
/// SE-0392), and `afterJob` runs there right after each job, before the next one starts, as
/// `InstrumentedMutex` runs its hook between two critical sections. WorkbookTesting's
/// `Intruder` acts at the n-th call.
public final class InstrumentedExecutor: SerialExecutor {
  /// An actor with nothing in it, whose queue the app's jobs use.
  private actor OwnQueue {}

  private let ownQueue: OwnQueue?
  private let queue: DispatchQueue?
  private let afterJob: (@Sendable () -> Void)?

  public init(afterJob: (@Sendable () -> Void)? = nil) {
    self.afterJob = afterJob
    if afterJob == nil {
      ownQueue = OwnQueue()
      queue = nil
    } else {
      ownQueue = nil
      queue = DispatchQueue(label: "InstrumentedExecutor")
    }
  }

  /// What the actor returns as its `unownedExecutor`. The actor keeps this object, and with it
  /// the queue, alive.
  public var unownedExecutor: UnownedSerialExecutor {
    ownQueue?.unownedExecutor ?? asUnownedSerialExecutor()
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    // Only a test's executor is handed jobs: the app's actor names its own queue instead.
    queue?.async { [self] in
      job.runSynchronously(on: asUnownedSerialExecutor())
      afterJob?()
    }
  }
}
