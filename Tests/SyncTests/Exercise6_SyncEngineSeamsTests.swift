import Foundation
import Networking
import PracticeServer
import Synchronization
import Testing
import Workbook
import WorkbookTesting

@testable import Sync

/// What the engine does with what `init` hands it: the retry policy and the clock it waits on,
/// and the device's clock.
@Suite("Exercise 6 — The engine (policy and clocks)", .timeLimit(.minutes(1)))
struct Exercise6_SyncEngineSeamsTests {
  /// A policy whose one wait is long enough that a real clock would be noticed.
  static let retryOnce = RetryPolicy(maxAttempts: 2, baseDelay: .seconds(30), maxDelay: .seconds(30), jitter: .none)

  @Test func aSyncRetriesAFailedPushOnTheClockItWasGiven() async throws {
    try await withTemporaryDirectory("sync-engine-retry") { folder in
      let service = SyncService()
      let transport = ScriptedSyncTransport(
        server: InProcessServer(service: service), script: [.answer(status: 503, body: Data("{}".utf8))])
      let clock = ManualClock()
      let engine = try SyncEngine(
        directory: folder.url, transport: transport, baseURL: InProcessServer.baseURL, policy: Self.retryOnce, clock: clock)
      try await engine.edit("n1", set: ["title": "Groceries"])

      let finished = Mutex(false)
      let syncing = Task {
        defer { finished.withLock { $0 = true } }
        try await engine.sync()
      }
      let waited = await clock.waitForSleepers(1, giveUp: { finished.withLock { $0 } })
      guard waited else {
        syncing.cancel()
        let outcome = await syncing.result
        Issue.record(
          """
          the first push got 503 and the engine's policy allows 2 attempts 30 s apart, so the sync should have \
          waited on the ManualClock the engine was given; no task slept on it (the sync \
          \((try? outcome.get()) == nil ? "threw" : "returned") with \(transport.requests.count) requests sent)
          """)
        return
      }
      await clock.advance(by: .seconds(30))
      try await syncing.value
      #expect(clock.sleepHistory == [.seconds(30)], "one retry, 30 s after the 503, on the engine's clock: \(clock.sleepHistory)")
      #expect(await engine.pending.isEmpty, "the retry was applied (200), so the outbox should be empty")
      #expect(service.appliedCount == 1, "the server should have applied the edit once, on the retry; it applied \(service.appliedCount)")
    }
  }

  @Test func theDevicesClockStampsEditsAndOrdersNothing() async throws {
    try await withTemporaryDirectory("sync-engine-now") { folder in
      // The user sets the clock back an hour between the two edits.
      let readings = Mutex([Date(timeIntervalSince1970: 1_900_000_000), Date(timeIntervalSince1970: 1_899_996_400)])
      let engine = try SyncEngine(
        directory: folder.url, transport: ScriptedSyncTransport(server: nil), baseURL: InProcessServer.baseURL,
        now: { readings.withLock { $0.isEmpty ? Date(timeIntervalSince1970: 0) : $0.removeFirst() } })
      try await engine.edit("n1", set: ["title": "first"])
      try await engine.delete("n2")
      let pending = await engine.pending
      #expect(pending.map(\.note) == ["n1", "n2"], "the outbox keeps the order the user made the edits in: \(pending.map(\.note))")
      #expect(
        pending.map(\.editedAt) == [Date(timeIntervalSince1970: 1_900_000_000), Date(timeIntervalSince1970: 1_899_996_400)],
        "each edit should carry the reading of the `now` the engine was given, taken when it was made: \(pending.map(\.editedAt))")
    }
  }
}
