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

// TODO: add the framework's macro to `ProfileModel`, as its comment says.
/// A screen's model. It needs the framework's `@Observable` macro. Spell it in full,
/// `@Observation.Observable`, so that no reader (and no compiler) takes it for this module's own
/// `Observable` class. Add it.
@MainActor
public final class ProfileModel {
  public var name: String
  public var unreadCount: Int

  public init(name: String, unreadCount: Int = 0) {
    self.name = name
    self.unreadCount = unreadCount
  }
}

// Given — the stream; it starts the tracker you write below and stops it when the stream ends.
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
    // TODO: read under `withObservationTracking`, yield, and on a change track again on the main actor.
    // Placeholder: it reads once, untracked, and ends the stream.
    continuation.yield(read())
    continuation.finish()
  }
}
