import Foundation

/// Where the code a test waits for runs, which decides how the wait knows it is over. (Not
/// `Progress`, which Foundation already names.)
public enum RunsOn: Sendable {
  /// On Swift tasks alone (actors, task groups, `AsyncStream`, continuations) and the test's own
  /// seams (`ManualClock`, `Gate`, a scripted transport). The wait ends as soon as the condition
  /// holds, or fails as soon as nothing is left to run (`Quiescence`): wrong code fails at once.
  case tasks
  /// Also on threads the Swift runtime does not run: a `DispatchQueue`, an `OperationQueue`,
  /// `URLSession` (and `StubURLProtocol`), the practice server. The runtime cannot tell when such
  /// work is over, so the wait polls until the condition holds, `giveUp` says stop, or the
  /// safety net runs out.
  case threads
}

/// The longest any wait lasts: 20 s, or 40 s under the thread sanitizer. Correct code never
/// reaches it, however busy the machine: it is only there so that code which never does the thing
/// (and never stops running either) fails instead of hanging. It stays below the one-minute
/// `.timeLimit` of every suite, so such a failure names the wait rather than the whole test.
public let safetyNet: Duration = .seconds(20) * sanitizerSlowdown

/// Waits until `condition` holds, and says whether it did.
///
/// The test waits for an event (the code under test reached a known point: callers joined one
/// flight, a sleeper is on the clock, a request reached the server), never for time to pass.
/// - With `.tasks` (the default), it returns false as soon as every task is parked and the
///   condition still does not hold: nothing can make it hold until the test acts, so a wrong
///   solution fails in the time a right one passes.
/// - With `.threads`, it polls every millisecond (the one real sleep in the tests; see `RunsOn`).
///
/// Either way it gives up at once when `giveUp` returns true, for example when every task under
/// test has finished, as an unfinished starter's do, and at `within` (the safety net) at the
/// latest. Conditions run on the caller's actor, so a main-actor test reads main-actor state from
/// the main actor.
@discardableResult
public func eventually(
  _ progress: RunsOn = .tasks, within timeout: Duration = safetyNet,
  isolation: isolated (any Actor)? = #isolation,
  giveUp: () async -> Bool = { false }, _ condition: () async -> Bool
) async -> Bool {
  Quiescence.install()
  let deadline = ContinuousClock.now.advanced(by: timeout)
  while true {
    if await condition() { return true }
    if await giveUp() { return false }
    if ContinuousClock.now >= deadline { return false }
    switch progress {
    case .tasks where Quiescence.isAvailable:
      // Settled: everything under test is parked, so the condition is final until the test acts.
      // The wait for it goes in slices: other tests keep the process busy, and a condition that
      // comes true meanwhile is seen at the next slice instead of when the whole process rests.
      let slice = min(deadline, ContinuousClock.now.advanced(by: .milliseconds(100)))
      if await Quiescence.settle(before: slice) { return await condition() }
    case .tasks, .threads:
      try? await Task.sleep(for: .milliseconds(1))
    }
  }
}

/// How much longer a wait for other threads may take: 2 under the thread sanitizer (both
/// `make sanitize` and `SANITIZE=1` set `TSAN_OPTIONS`), else 1.
public let sanitizerSlowdown = ProcessInfo.processInfo.environment["TSAN_OPTIONS"] == nil ? 1 : 2
