import Foundation

/// Waits until `condition` holds, for at most about five seconds, and says whether it did.
///
/// The code under test runs on other threads; a test waits for it to reach a known point (1,000
/// callers waiting, a flight gone) before it moves a `ManualClock`. It gives up at once when
/// `giveUp` returns true, for example when every task under test has already finished, as
/// unfinished starter code does.
@discardableResult
func eventually(
  giveUp: @Sendable () async -> Bool = { false }, _ condition: @Sendable () async -> Bool
) async -> Bool {
  for attempt in 0..<6_000 {
    if await condition() { return true }
    if await giveUp() { return false }
    if attempt < 1_000 {
      await Task.yield()
    } else {
      try? await Task.sleep(nanoseconds: 1_000_000)
    }
  }
  return await condition()
}
