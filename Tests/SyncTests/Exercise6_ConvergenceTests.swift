import Foundation
import Testing
import WorkbookTesting

@testable import Sync

/// The capstone's promise: whatever the network, the disks and the crashes do, no step shows the
/// user something the app did not keep, no edit a device acknowledged is lost, and once the network
/// heals and every outbox drains, every device and the server hold the same notes. `SEED=n` runs one history only; a failure prints the shortest prefix of
/// its history that still fails.
@Suite("Exercise 6 — The engine (convergence)", .timeLimit(.minutes(2)))
struct Exercise6_ConvergenceTests {
  /// How many histories a run tries, and how long each is.
  static let seeds: ClosedRange<UInt64> = {
    if let text = ProcessInfo.processInfo.environment["SEED"], let seed = UInt64(text) { return seed...seed }
    return 1...200
  }()
  static let steps = 60

  @Test func threeDevicesConvergeThroughChaosCrashesAndTimeOffline() async throws {
    // Histories run four at a time, in seed order, each alone one step at a time. The run stops
    // after the first four that hold a failure and reports the lowest failing seed among them: the
    // lowest failing seed of all, whichever finished first, found in about the time one history takes.
    let seeds = Array(Self.seeds)
    var start = 0
    while start < seeds.count {
      let batch = seeds[start..<min(start + 4, seeds.count)]
      let failures = try await withThrowingTaskGroup(of: Simulation.Failure?.self) { group in
        for seed in batch { group.addTask { try await Simulation.run(seed: seed, steps: Self.steps) } }
        var failures: [Simulation.Failure] = []
        for try await outcome in group { if let outcome { failures.append(outcome) } }
        return failures
      }
      if let failure = failures.min(by: { $0.seed < $1.seed }) {
        let shortest = try await Simulation.shortest(failure)
        Issue.record(
          """
          Three devices broke a promise of sync (history SEED=\(failure.seed), the lowest-numbered that fails; \
          \(failure.seed - seeds[0]) before it passed). At every step, an edit that returned is on its device's \
          screen and stays in its outbox until the server applies it with the user's value, a failed edit changes \
          nothing, and a relaunch finds what the app held; after the network heals and each device syncs twice, every \
          device shows the server's notes with an empty outbox. Replay it with \
          SEED=\(failure.seed) make chapter-7 EXERCISE=6.
          \(shortest)
          """)
        return
      }
      start += batch.count
    }
  }
}
