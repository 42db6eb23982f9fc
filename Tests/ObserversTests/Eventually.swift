/// Yields until `condition` holds, at most `attempts` times, and returns whether it held. Other
/// tasks and threads get to run at every yield; nothing here sleeps for real. It runs on the
/// caller's actor, so a main-actor test keeps checking main-actor state from the main actor.
@discardableResult
func eventually(
  attempts: Int = 10_000, isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool
) async -> Bool {
  for _ in 0..<attempts {
    if condition() { return true }
    await Task.yield()
  }
  return condition()
}
