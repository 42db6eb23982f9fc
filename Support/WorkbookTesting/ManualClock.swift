import Workbook

/// A `Clock` whose time moves only when a test calls `advance(by:)`.
///
/// Sleepers are kept in a list ordered by deadline and resumed, in deadline order, when the clock
/// passes their deadline, so a test drives a backoff, a TTL or a timeout in microseconds of real
/// time. A cancelled sleeper is resumed at once with `CancellationError`, like `Task.sleep`.
///
/// `sleepers` tells a test how many tasks are parked on it, so it can wait for the code under test
/// to reach its `sleep` before it moves time (see `waitForSleepers(_:)`). In an async test,
/// `await advance(by:)` also lets the woken tasks run until they are parked again, and
/// `await run()` plays every sleep out, as swift-clocks' `TestClock` does.
public final class ManualClock: Clock, Sendable {
  public struct Instant: InstantProtocol {
    public var offset: Duration

    public init(offset: Duration = .zero) { self.offset = offset }

    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant()
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    /// Every deadline anyone has slept until, in the order the sleeps began.
    var history: [Duration] = []
  }

  private let state = Locked(State())

  public init() { Quiescence.install() }

  public var now: Instant { state.withLock { $0.now } }
  public var minimumResolution: Duration { .zero }

  /// How many tasks are sleeping on this clock right now.
  public var sleepers: Int { state.withLock { $0.sleepers.count } }

  /// The durations every `sleep` asked for, in order: lets a test check a backoff schedule.
  public var sleepHistory: [Duration] { state.withLock { $0.history } }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let resumeNow: Result<Void, any Error>? = state.withLock { state in
          state.history.append(state.now.duration(to: deadline))
          if Task.isCancelled { return .failure(CancellationError()) }
          if deadline <= state.now { return .success(()) }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return nil
        }
        if let resumeNow { continuation.resume(with: resumeNow) }
      }
    } onCancel: {
      let cancelled = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return state.sleepers.remove(at: index)
      }
      cancelled?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward and wakes, in deadline order, everyone whose deadline has passed, without
  /// waiting for them to run (for synchronous callers such as the figures' simulations).
  public func advance(by duration: Duration) {
    let due = state.withLock { state -> [Sleeper] in
      state.now = state.now.advanced(by: duration)
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
      state.sleepers.removeAll { $0.deadline <= now }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Moves time forward, wakes everyone whose deadline has passed, and returns once the woken
  /// tasks have run as far as they can (every task is parked again; see `Quiescence`).
  public func advance(by duration: Duration) async {
    let wake: () -> Void = { self.advance(by: duration) }
    wake()
    await Quiescence.settle()
  }

  /// Plays out every sleep: moves time to the next deadline, lets the woken tasks run, and goes on
  /// until no one sleeps on the clock. Returns the time that passed.
  @discardableResult
  public func run() async -> Duration {
    let start = now
    await Quiescence.settle()
    while let next = state.withLock({ $0.sleepers.map(\.deadline).min() }) {
      await advance(by: now.duration(to: next))
    }
    return start.duration(to: now)
  }

  /// Suspends the caller until at least `count` tasks sleep on this clock, and says whether they do.
  ///
  /// A test that is about to move time first waits for the code under test to reach its `sleep`.
  /// This waits for that point in the code, never for time to pass: with `.tasks` (the default) it
  /// fails as soon as every task is parked with fewer sleepers, and at once when `giveUp` returns
  /// true, for example when the tasks under test have already finished, as unfinished starter
  /// code does. Use `.threads` when the sleep is reached from a thread the runtime does not run.
  @discardableResult
  public func waitForSleepers(
    _ count: Int = 1, _ progress: RunsOn = .tasks, giveUp: () -> Bool = { false }
  ) async -> Bool {
    await eventually(progress, giveUp: { giveUp() }) { sleepers >= count }
  }
}
