import Foundation

/// Waits until `condition` holds and says whether it did.
///
/// The code under test runs on other threads; a test waits for it to reach a known point (callers
/// waiting on one flight, a server request logged) before it asserts or moves a `ManualClock`.
/// It yields first, then polls every millisecond, for at most `timeout` of real time: a wait for
/// other threads, never for a backoff or a TTL (those run on a `ManualClock`). It gives up at once
/// when `giveUp` returns true, for example when every task under test has already finished, as
/// unfinished starter code does. Conditions run on the caller's actor, so a main-actor test reads
/// main-actor state from the main actor. Under the thread sanitizer, which makes every thread
/// several times slower, each timeout is four times as long.
@discardableResult
public func eventually(
  within timeout: Duration = .seconds(5), isolation: isolated (any Actor)? = #isolation,
  giveUp: () async -> Bool = { false }, _ condition: () async -> Bool
) async -> Bool {
  let deadline = ContinuousClock.now.advanced(by: timeout * sanitizerSlowdown)
  var attempt = 0
  while ContinuousClock.now < deadline {
    if await condition() { return true }
    if await giveUp() { return false }
    attempt += 1
    if attempt < 1_000 {
      await Task.yield()
    } else {
      try? await Task.sleep(nanoseconds: 1_000_000)
    }
  }
  return await condition()
}

/// How much longer a wait for other threads may take: 4 under the thread sanitizer (both
/// `make sanitize` and `SANITIZE=1` set `TSAN_OPTIONS`), else 1.
let sanitizerSlowdown = ProcessInfo.processInfo.environment["TSAN_OPTIONS"] == nil ? 1 : 4
