// Exercise 2 — Re-entrancy: one delivery at a time (intermediate)
//
// Observers are arbitrary code, and they call back: a screen cancels its own token when it sees
// "logged out", another registers a new observer, a third writes a corrected value. If
// `deliverPending()` simply loops over the observers and calls them, a write from inside a
// callback starts a second, nested delivery: later observers then get the new value BEFORE the
// old one. Removing an entry from the array you are walking by index skips its neighbour.
//
// Make delivery serial: one thread delivers at a time, taking pending deliveries oldest first;
// a write made meanwhile (from a callback, or from another thread) only queues its delivery and
// returns. Walk the observers by id, looking each one up under the lock, and call it outside.
// A delivery with `onlyTo` is an observer's first call: give it to that one observer, if it is
// still registered, and to nobody else. Any other delivery skips an observer whose `seen` is
// already at or past its version (it registered after the change). Do not apply that skip to
// the first call: it carries the version the observer registered at, so its `seen` equals it.
import Synchronization

nonisolated extension Observable {
  /// Makes every pending delivery, oldest first, unless another call is already doing so (on
  /// this thread further up the stack, or on another thread): then that call makes them.
  ///
  /// Consequence, documented on purpose: a write from inside an observer, or from a second thread
  /// while a delivery runs, returns before its own delivery happened; the deliverer makes it
  /// next. Each delivery costs O(n log n) for n observers (a binary search per observer).
  func deliverPending() {
    // TODO: deliver one at a time: claim `isDelivering`, take the oldest delivery, walk by id.
    // Placeholder: the naive version, good enough for exercise 1 and wrong for everything in
    // exercise 2. It takes everything pending and calls, right here, the observers registered at
    // this moment, even when another delivery is running further up the stack or on another thread.
    let (deliveries, observers) = state.withLock { state in
      defer { state.pending.removeAll() }
      return (state.pending, state.observers)
    }
    for delivery in deliveries {
      for entry in observers where delivery.onlyTo == nil || delivery.onlyTo == entry.id {
        entry.handler(delivery.value)
      }
    }
  }
}
