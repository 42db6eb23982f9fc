// Exercise 5 — An AsyncStream of values (intermediate)
//
// Async code wants `for await value in model.values { ... }` instead of a closure and a token.
// Bridge the two: register an observer that yields into an `AsyncStream`, and remove it when the
// stream ends. A stream ends when its consuming task is cancelled, when the consumer stops
// iterating and drops it, or when nobody ever iterates it and it is dropped: in every case
// `onTermination` runs, and that is where the observer must go, or every finished screen leaves
// a closure behind.
//
// An `AsyncStream` has one consumer: two tasks iterating the same stream split the values between
// them. Several consumers each call `values` and get a stream of their own.
//
// Buffering is a choice, and the default here is newest-only: a consumer that falls behind skips
// to the latest value rather than working through stale ones (right for state a screen renders;
// wrong for events that must each be handled, for which pass `.unbounded`).
nonisolated extension Observable {
  /// The current value, then every change, for one consumer, keeping only the newest value while
  /// the consumer is busy (`.bufferingNewest(1)`).
  ///
  /// The stream finishes when the consuming task is cancelled, and its observer is removed
  /// whenever the stream ends or is dropped. Until then the stream keeps this observable alive.
  public var values: AsyncStream<Value> {
    values(buffering: .bufferingNewest(1))
  }

  /// The same, with your own buffering policy; `.unbounded` keeps every change for a slow consumer
  /// (memory grows with how far it falls behind).
  public func values(buffering policy: AsyncStream<Value>.Continuation.BufferingPolicy) -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: policy)
    let token = observe { continuation.yield($0) }
    continuation.onTermination = { _ in
      withExtendedLifetime(self) { token.cancel() }
    }
    return stream
  }
}
