import Foundation

/// Collects what observers receive, from any thread. An `NSLock` rather than a `Mutex`, so the
/// thread sanitizer sees the lock and checks the tests' own bookkeeping too.
final class Recorder<Element: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [Element] = []

  func append(_ element: Element) {
    lock.withLock { storage.append(element) }
  }

  var values: [Element] { lock.withLock { storage } }
  var count: Int { lock.withLock { storage.count } }
}

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
