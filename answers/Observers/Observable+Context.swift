// Exercise 3 — Delivery on a queue or the main actor (intermediate)
//
// A plain observer runs on whichever thread made the write: a network callback that sets
// `isLoggedIn` runs every screen's observer on a background thread, and UIKit code there is a
// crash or a corrupted layout. Let observers choose: deliver on a given serial queue, or on the
// main actor, with a handler the compiler knows is main-actor isolated.
//
// Two traps. Hopping is asynchronous, so a value can still be waiting on the queue when the token
// is cancelled: check, on the queue, that the observation is still live before calling. And do
// not capture the token in the handler to check it: the observable keeps the handler, the
// handler would keep the token, and releasing the token would no longer cancel anything.
import Dispatch
import Synchronization

/// Open until closed, once, from any thread: tells a hop that already left whether it still may run.
nonisolated final class DeliveryGate: Sendable {
  private let open = Atomic<Bool>(true)

  var isOpen: Bool { open.load(ordering: .acquiring) }

  func close() { open.store(false, ordering: .releasing) }
}

nonisolated extension Observable {
  /// Like `observe(initial:_:)`, but every call of `handler` runs on `queue`, in the order of
  /// the changes when `queue` is serial. The first call hops too, even for an observer
  /// registered on `queue` itself, so the order never depends on where you registered.
  ///
  /// After `cancel()` returns (or the token is released) no call starts, even for a change
  /// that was already waiting on the queue; a call running at that moment finishes.
  public func observe(on queue: DispatchQueue, initial: Bool = true, _ handler: @escaping Handler) -> ObserverToken {
    let gate = DeliveryGate()
    let inner = observe(initial: initial) { value in
      queue.async {
        if gate.isOpen { handler(value) }
      }
    }
    return ObserverToken {
      gate.close()
      inner.cancel()
    }
  }

  /// Every call of `handler` runs on the main actor, in order, always asynchronously (also the
  /// first call, also when you register from the main actor). This is the one to use for UI.
  public func observeOnMainActor(
    initial: Bool = true, _ handler: @escaping @MainActor @Sendable (Value) -> Void
  ) -> ObserverToken {
    // The main queue is the main actor's executor, and it runs blocks in the order they were
    // submitted. A `Task { @MainActor in }` per value would start in creation order too (SE-0431),
    // but costs a task per value and lets a suspending handler be overtaken.
    observe(on: .main, initial: initial) { value in
      MainActor.assumeIsolated { handler(value) }
    }
  }
}
