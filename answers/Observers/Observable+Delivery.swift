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
  /// next. Each delivery costs O(n log n) for n observers (a binary search per observer), and an
  /// observer's first call O(log n) (one binary search).
  func deliverPending() {
    let becameDeliverer = state.withLock { state -> Bool in
      if state.isDelivering { return false }
      state.isDelivering = true
      return true
    }
    guard becameDeliverer else { return }
    while let delivery = nextDelivery() {
      if let only = delivery.onlyTo {
        let handler = state.withLock { state -> Handler? in
          let index = Self.position(after: only - 1, in: state.observers)
          return index < state.observers.count && state.observers[index].id == only ? state.observers[index].handler : nil
        }
        handler?(delivery.value)
        continue
      }
      var lastServed = 0
      while let recipient = nextRecipient(of: delivery, after: lastServed) {
        lastServed = recipient.id
        recipient.handler?(delivery.value)
      }
    }
  }

  /// The oldest pending delivery, or nil after marking that nobody is delivering any more (in the
  /// same critical section, so a write that queues right after sees it and delivers itself).
  private func nextDelivery() -> Delivery? {
    state.withLock { state in
      guard !state.pending.isEmpty else {
        state.isDelivering = false
        return nil
      }
      return state.pending.removeFirst()
    }
  }

  /// The first observer registered after the one with id `lastServed`, looked up now: an observer
  /// cancelled meanwhile is simply not found, and one added meanwhile is found but skipped (its
  /// `seen` version is already this one's or newer). `handler` is nil for an observer to skip.
  private func nextRecipient(of delivery: Delivery, after lastServed: Int) -> (id: Int, handler: Handler?)? {
    state.withLock { state in
      let low = Self.position(after: lastServed, in: state.observers)
      guard low < state.observers.count else { return nil }
      let entry = state.observers[low]
      guard entry.seen < delivery.version else { return (entry.id, nil) }
      state.observers[low].seen = delivery.version
      return (entry.id, entry.handler)
    }
  }

  /// Where the first observer with an id greater than `id` is (or `observers.count`). Observers
  /// stay in registration order and ids only grow, so the array is sorted by id.
  /// - Complexity: O(log n), a binary search.
  private static func position(after id: Int, in observers: [Entry]) -> Int {
    var low = 0
    var high = observers.count
    while low < high {
      let middle = (low + high) / 2
      if observers[middle].id <= id { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
