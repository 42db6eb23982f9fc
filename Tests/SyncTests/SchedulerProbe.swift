import Networking
import Synchronization
import WorkbookTesting

@testable import Sync

/// The sync a scheduler test hands to `SyncScheduler`: it counts the syncs that started and how
/// many ran at once, parks each one at `gate` until the test lets it through, and throws in the
/// runs the test lists, so the test decides when a sync ends and whether it fails.
final class SchedulerProbe: Sendable {
  /// What a failing run throws: the server said no.
  struct ServerFailure: Error {}

  private struct State {
    var started = 0
    var running = 0
    var mostAtOnce = 0
  }

  /// Where every sync waits; open unless the probe was made `held`.
  let gate = Gate()
  private let failingRuns: Set<Int>
  private let state = Mutex(State())

  /// - Parameters:
  ///   - held: whether each sync waits at `gate` until the test lets it through.
  ///   - failingRuns: which syncs throw, counting from 1 in the order they start.
  init(held: Bool = false, failingRuns: Set<Int> = []) {
    self.failingRuns = failingRuns
    if !held { gate.open() }
  }

  /// One sync, as the scheduler calls it.
  func sync() async throws {
    let number = state.withLock { state in
      state.started += 1
      state.running += 1
      state.mostAtOnce = max(state.mostAtOnce, state.running)
      return state.started
    }
    await gate.pass()
    state.withLock { $0.running -= 1 }
    if failingRuns.contains(number) { throw ServerFailure() }
  }

  /// How many syncs have started.
  var started: Int { state.withLock { $0.started } }
  /// The most syncs that were running at the same moment.
  var mostAtOnce: Int { state.withLock { $0.mostAtOnce } }

  /// The policy the tests retry with: 1 s before the first retry, doubling up to 8 s, full jitter.
  static let policy = RetryPolicy(baseDelay: .seconds(1), maxDelay: .seconds(8), jitter: .full)

  /// A scheduler on `clock` that runs this probe's sync. The default jitter draw is always 0.5,
  /// so every wait is half the policy's delay and the test can name it.
  func scheduler(
    clock: ManualClock, policy: RetryPolicy = SchedulerProbe.policy, random: RandomSource = .constant(0.5),
    online: Bool = true
  ) -> SyncScheduler<ManualClock> {
    SyncScheduler(clock: clock, policy: policy, random: random, online: online) { [self] in
      try await sync()
    }
  }
}

/// Calls `waitUntilIdle()` and says whether it returned before everything was parked: a
/// scheduler that never goes idle fails the test at once instead of hanging it.
func returnsToIdle(_ scheduler: SyncScheduler<ManualClock>) async -> Bool {
  let watch = IdleWatch(scheduler)
  return await eventually { watch.hasReturned }
}

/// A `waitUntilIdle()` call started now, whose return the test can watch.
final class IdleWatch: Sendable {
  private let returned = Counter()

  init(_ scheduler: SyncScheduler<ManualClock>) {
    Task { [returned] in
      await scheduler.waitUntilIdle()
      returned.increment()
    }
  }

  /// Whether `waitUntilIdle()` has returned.
  var hasReturned: Bool { returned.value > 0 }
}
