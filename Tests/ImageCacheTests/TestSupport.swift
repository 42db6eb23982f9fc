import Foundation
import WorkbookTesting

@testable import ImageCache

/// Starts `count` callers and returns them once they all wait on the coalescer's flight for `key`
/// (with the `alreadyWaiting` callers that were there before them): the coalescing tests' one
/// fixture, shared by the coalescer, the loader and the prefetcher.
///
/// From then on the shared work cannot end before every one of them has joined it, so a test can
/// cancel one of them, finish the work, or add a caller at a known point. The wait ends early,
/// with fewer callers waiting, when every caller has already finished (the starter's throw at
/// once) or when everything is parked without them (the code does not coalesce): the test's own
/// checks then say what went wrong.
func joined<Key: Hashable & Sendable, Value: Sendable, T: Sendable>(
  _ count: Int, on coalescer: RequestCoalescer<Key, Value>, key: Key, alreadyWaiting: Int = 0,
  _ call: @escaping @Sendable (Int) async throws -> T
) async -> Crowd<T> {
  let callers = Crowd(count, call)
  await eventually(giveUp: { callers.allFinished }) {
    await coalescer.waiterCount(for: key) == alreadyWaiting + count
  }
  return callers
}

/// Whether `result` is the `CancellationError` a cancelled caller gets.
func isCancellation<Value>(_ result: Result<Value, any Error>) -> Bool {
  if case .failure(let error) = result, error is CancellationError { return true }
  return false
}
