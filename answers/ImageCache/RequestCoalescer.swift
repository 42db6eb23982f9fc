// Exercise 5 — Coalescing with per-waiter cancellation (advanced)
//
// When 1,000 cells ask for the same URL, fetch it once. Keep one "flight" per key: the shared
// work runs in its own unstructured task, and each caller waits on a continuation of its own.
// A caller that is cancelled gets `CancellationError` at once while the others keep waiting; the
// shared work is cancelled only when the last waiter leaves. Tag each flight with an id, so a
// flight that finishes (or is abandoned) late never removes a newer flight for the same key.
import Workbook

/// Runs at most one operation per key at a time and hands its result to every caller waiting
/// for that key.
///
/// Joining a flight is O(1). Cancellation is per waiter: cancelling one caller's task ends that
/// caller's wait only. The shared work is cancelled when, and only when, every waiter has gone.
public actor RequestCoalescer<Key: Hashable & Sendable, Value: Sendable> {
  private struct Flight {
    let id: UInt64
    var task: Task<Void, Never>?
    var waiters: [UInt64: CheckedContinuation<Value, any Error>] = [:]
  }

  private var flights: [Key: Flight] = [:]
  private var nextID: UInt64 = 0

  public init() {}

  /// The result of `operation` for `key`, shared with every other caller for `key` that
  /// arrives before it finishes. Throws `CancellationError` as soon as the caller is cancelled.
  public func value(for key: Key, operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
    nextID += 1
    let waiterID = nextID
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
        join(key, waiterID: waiterID, continuation: continuation, operation: operation)
      }
    } onCancel: {
      Task { await self.cancelWaiter(waiterID, for: key) }
    }
  }

  /// Whether an operation for `key` is running.
  public func isInFlight(_ key: Key) -> Bool { flights[key] != nil }

  /// How many callers are waiting for `key` right now.
  public func waiterCount(for key: Key) -> Int { flights[key]?.waiters.count ?? 0 }

  private func join(
    _ key: Key, waiterID: UInt64, continuation: CheckedContinuation<Value, any Error>,
    operation: @escaping @Sendable () async throws -> Value
  ) {
    // Cancelled before joining: the cancellation handler may already have run and found nothing.
    if Task.isCancelled {
      continuation.resume(throwing: CancellationError())
      return
    }
    if flights[key] != nil {
      flights[key]?.waiters[waiterID] = continuation
      return
    }
    nextID += 1
    let flightID = nextID
    flights[key] = Flight(id: flightID, waiters: [waiterID: continuation])
    flights[key]?.task = Task {
      let result: Result<Value, any Error>
      do {
        result = .success(try await Self.run(operation))
      } catch {
        result = .failure(error)
      }
      self.finish(key, flightID: flightID, with: result)
    }
  }

  /// Runs the shared operation off the coalescer, so the actor takes joins and cancellations
  /// while the operation works. The flight's `Task` is made on the actor and inherits it; under
  /// `NonisolatedNonsendingByDefault` (SE-0461) an operation called from there would run on the
  /// actor too, until its first suspension. `@concurrent` leaves the actor under both settings.
  @concurrent private static func run(_ operation: @Sendable () async throws -> Value) async throws -> Value {
    try await operation()
  }

  private func finish(_ key: Key, flightID: UInt64, with result: Result<Value, any Error>) {
    // Only our own flight: after every waiter left, a newer flight may own the key.
    guard let flight = flights[key], flight.id == flightID else { return }
    flights[key] = nil
    for continuation in flight.waiters.values { continuation.resume(with: result) }
  }

  private func cancelWaiter(_ waiterID: UInt64, for key: Key) {
    guard let continuation = flights[key]?.waiters.removeValue(forKey: waiterID) else { return }
    continuation.resume(throwing: CancellationError())
    if let flight = flights[key], flight.waiters.isEmpty {
      flight.task?.cancel()
      flights[key] = nil
    }
  }
}
