// Exercise 5 — Scheduling (advanced)
//
// Syncs are asked for from everywhere: after an edit, on launch, when the network comes back, on
// a push notification, from a background task. Run one at a time per engine; a request that
// arrives during a run is remembered, and all of those become one more run after it. While the
// server fails, wait longer before each new try (chapter 3's backoff, with its jitter, so a
// thousand devices do not come back together), and while the device is offline do not try at all:
// the request waits for the network.
import Foundation
import Networking

/// Decides when the engine's sync runs.
public actor SyncScheduler<C: Clock> where C.Duration == Duration {
  private let clock: C
  private let policy: RetryPolicy
  private let random: RandomSource
  private let sync: @Sendable () async throws -> Void
  private var online: Bool
  private var running: Task<Void, Never>?
  private var wanted = false
  private var failures = 0
  private var idleWaiters: [CheckedContinuation<Void, Never>] = []

  /// - Parameter sync: one sync; a throw counts as a failure and is retried after a backoff.
  public init(
    clock: C, policy: RetryPolicy = RetryPolicy(), random: RandomSource = .system, online: Bool = true,
    sync: @escaping @Sendable () async throws -> Void
  ) {
    self.clock = clock
    self.policy = policy
    self.random = random
    self.online = online
    self.sync = sync
  }

  /// How many syncs failed in a row (0 after a success): the next wait grows with it.
  public var consecutiveFailures: Int { failures }

  /// Whether a sync is running or waiting out a backoff.
  public var isBusy: Bool { running != nil }

  /// Asks for a sync: it starts now when none is running and the device is online, runs once more
  /// after the current one when one is running, and waits for the network when offline.
  public func trigger() {
    // TODO: remember the wish, and start a run (a Task kept in `running`) if none is going and online (this empty body runs nothing).
  }

  /// Tells the scheduler the network came or went; coming back runs a sync that was asked for.
  public func setOnline(_ isOnline: Bool) {
    // TODO: keep the state, and start a wanted run when online again (this empty body ignores it).
  }

  /// Returns when no sync is running or waiting to retry.
  public func waitUntilIdle() async {
    // TODO: suspend until the current run and its backoffs end (this empty body returns at once).
  }

  /// Stops the current run and its backoff; a later trigger starts again.
  public func cancel() {
    // TODO: cancel the running task (this empty body cancels nothing).
  }
}
