import Foundation
import Workbook

/// A point in the code under test where it stops until the test lets it through.
///
/// A gate forces an interleaving: the test parks the code at the named point (`await gate.pass()`
/// inside a fake transport, a factory or an injected hook), does what the interleaving needs (a
/// cancel, a second caller, a refresh), and then opens the gate. `waiting` counts who is parked,
/// and `arrivals(_:)` waits for them, so no test guesses how long the code takes to get there.
///
/// Waiting ignores cancellation on purpose: it stands for work that takes a while to notice it was
/// cancelled, which is exactly the window a cancellation test needs to hold open. So that a test
/// which stops early (a failed `#require` before it opens the gate) cannot leave a caller parked
/// for ever, and with it the whole test run, a caller still parked after `Gate.safetyNet` is let
/// through. Correct code never waits that long: the test opens the gate as soon as it has acted.
public final class Gate: Sendable {
  /// How long a caller stays parked if the test never opens the gate: 45 s, past the 20 s (40 s
  /// under the thread sanitizer) that any wait of the test itself (`settle()`, `eventually`) may
  /// last, and below every suite's one-minute limit. `settle()` waits until every task of the
  /// whole process is parked, so on a machine busy enough it can take that long; a gate that let
  /// its caller through at the same 20 s would move the code under test past the point the test
  /// is about to look at, and fail a right answer. A test that stops early still ends the wait.
  public static let safetyNet: Duration = .seconds(45)

  private struct State {
    var isOpen = false
    var passes = 0
    var arrived = 0
    var nextID: UInt64 = 0
    var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let state = Locked(State())

  /// A closed gate.
  public init() { Quiescence.install() }

  /// Parks the caller until the gate is opened or lets one through.
  public func pass() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let parked = state.withLock { state -> UInt64? in
        state.arrived += 1
        if state.isOpen { return nil }
        if state.passes > 0 {
          state.passes -= 1
          return nil
        }
        state.nextID += 1
        state.waiters.append((state.nextID, continuation))
        return state.nextID
      }
      guard let parked else { return continuation.resume() }
      let (seconds, attoseconds) = Gate.safetyNet.components
      let limit = DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
      DispatchQueue.global().asyncAfter(deadline: limit) { [state] in
        let stuck = state.withLock { state -> CheckedContinuation<Void, Never>? in
          guard let index = state.waiters.firstIndex(where: { $0.id == parked }) else { return nil }
          return state.waiters.remove(at: index).continuation
        }
        stuck?.resume()
      }
    }
  }

  /// How many callers are parked at the gate now.
  public var waiting: Int { state.withLock { $0.waiters.count } }

  /// How many callers have reached the gate so far, parked or let through.
  public var arrived: Int { state.withLock { $0.arrived } }

  /// Waits until `count` callers are parked at the gate; false as soon as nothing is left to run
  /// with fewer there (see `eventually`), or when `giveUp` says the code under test has finished.
  @discardableResult
  public func arrivals(
    _ count: Int, _ progress: RunsOn = .tasks, giveUp: () -> Bool = { false }
  ) async -> Bool {
    await eventually(progress, giveUp: { giveUp() }) { waiting >= count }
  }

  /// Lets every parked caller through, and every later one.
  public func open() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.isOpen = true
      defer { state.waiters = [] }
      return state.waiters.map(\.continuation)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Lets `count` callers through, the longest-parked first; a caller that arrives later takes
  /// a pass that is left over.
  public func release(_ count: Int = 1) {
    let woken = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      let now = state.waiters.prefix(count).map(\.continuation)
      state.waiters.removeFirst(now.count)
      state.passes += count - now.count
      return now
    }
    for waiter in woken { waiter.resume() }
  }
}
