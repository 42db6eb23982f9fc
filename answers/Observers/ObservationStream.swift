// Exercise 6 — The Observation framework, continuously (advanced)
//
// `@Observable` (the Observation framework, iOS 17 and Linux alike) is what SwiftUI watches: a
// view's body reads some properties, and a change to any of them re-renders the view. Outside
// SwiftUI the tool is `withObservationTracking(_:onChange:)`, and it has a trap: `onChange` fires
// ONCE, for the first change after the call, and it fires in `willSet`, before the new value is
// stored. Code that tracks once sees the first edit and silently misses every later one.
//
// `observations(of:)` is given; write `ChangeTracker.track()` (and add the macro to
// `ProfileModel`). It runs `read` under tracking and yields the result; when `onChange` fires,
// it hops to the main actor (by then the change is stored), reads again under a NEW tracking,
// yields again, and so on until the consumer stops. Changes made in one main-actor turn arrive
// as one new value.
import Observation

/// A screen's model. `@Observation.Observable` is the framework's `@Observable` macro, spelled in
/// full so that no reader (and no compiler) takes it for this module's own `Observable` class.
@Observation.Observable
@MainActor
public final class ProfileModel {
  public var name: String
  public var unreadCount: Int

  public init(name: String, unreadCount: Int = 0) {
    self.name = name
    self.unreadCount = unreadCount
  }
}

/// The result of `read()` now, then again after every change `withObservationTracking` reports
/// for it (re-registered after each change), newest only for a busy consumer.
///
/// The stream finishes when its consuming task is cancelled; no further `read` happens after
/// that. Changes made within one main-actor turn produce one new value, read after the turn.
@MainActor
public func observations<Value: Sendable>(of read: @escaping @MainActor () -> Value) -> AsyncStream<Value> {
  let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
  let tracker = ChangeTracker(read: read, continuation: continuation)
  let gate = tracker.gate
  continuation.onTermination = { _ in
    // The stream owns the tracker: once it ends, the tracker goes, and a pending `onChange`
    // (which holds it weakly) finds nothing to re-register.
    gate.close()
    withExtendedLifetime(tracker) {}
  }
  tracker.track()
  return stream
}

/// Reads under tracking, yields, and re-registers when told of a change.
@MainActor
final class ChangeTracker<Value: Sendable> {
  let read: @MainActor () -> Value
  let continuation: AsyncStream<Value>.Continuation
  let gate = DeliveryGate()

  init(read: @escaping @MainActor () -> Value, continuation: AsyncStream<Value>.Continuation) {
    self.read = read
    self.continuation = continuation
  }

  func track() {
    guard gate.isOpen else { return }
    let value = withObservationTracking {
      read()
    } onChange: { [weak self] in
      // Called in willSet, on the writer's thread, once. Read the stored value later, on the
      // main actor, and track again there.
      Task { @MainActor in self?.track() }
    }
    continuation.yield(value)
  }
}
