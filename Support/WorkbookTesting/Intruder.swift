import Foundation

/// Another thread that acts once, right after the n-th time a lock is released: a second caller
/// arriving at one exact moment between two critical sections.
///
/// Pass `afterUnlock` to the code under test's `InstrumentedMutex` (for example
/// `Observable(_:afterUnlock:)` or `LockedStore(_:afterUnlock:)`), `arm` it with what the other
/// thread does, then make the call under test. At the chosen unlock, the thread that released the lock waits
/// there, outside the lock, while a new thread runs the action to its end. Unlocks made while the
/// action runs are not counted. A test that tries n = 1, 2, 3... until the intruder no longer
/// gets its turn has stepped in at every moment the code under test leaves the lock.
public final class Intruder: @unchecked Sendable {
  private let lock = NSLock()
  private let moment: Int
  private var unlocks = 0
  private var action: (@Sendable () -> Void)?
  private var running = false
  private var ran = false
  private var stuck = false

  public init(at moment: Int) { self.moment = moment }

  /// Counts unlocks from now on and runs `action` on a new thread at the chosen one.
  public func arm(_ action: @escaping @Sendable () -> Void) {
    lock.withLock { self.action = action }
  }

  /// Stops counting.
  public func disarm() {
    lock.withLock { action = nil }
  }

  /// Whether the action ran: false when the lock was released fewer times than the chosen moment.
  public var intruded: Bool { lock.withLock { ran } }

  /// Whether the action did not finish within the safety net: it waited for something the
  /// interrupted thread held (a lock of its own, say), which correct code never makes it do.
  public var gotStuck: Bool { lock.withLock { stuck } }

  /// The hook for the lock: counts the unlock and, at the chosen one, runs the action on another
  /// thread and waits for it.
  @Sendable public func afterUnlock() {
    let now = lock.withLock { () -> (@Sendable () -> Void)? in
      guard let action, !running else { return nil }
      unlocks += 1
      guard unlocks == moment else { return nil }
      running = true
      return action
    }
    guard let now else { return }
    let done = DispatchSemaphore(value: 0)
    Thread {
      now()
      done.signal()
    }.start()
    let finished = done.wait(timeout: .now() + .seconds(Int(safetyNet.components.seconds))) == .success
    lock.withLock {
      running = false
      ran = true
      stuck = !finished
    }
  }
}
