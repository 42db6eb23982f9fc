import Foundation
import Sync
import Synchronization
import WorkbookTesting

/// One call of `SyncEngine.sync()` as the simulation saw it, collected where it ran (in a
/// scheduler's task, for a scheduled sync) and judged after the step.
struct SyncRun: Sendable {
  var exchanges: [ChaosNetwork.Exchange]
  var error: SyncError?
  /// The waits on the history's clock during the call: the push's retries.
  var sleeps: Int
  var notesWrites: Int
  /// Writes of the outbox that left it as it was.
  var unchangedOutboxWrites: Int
  var refusedWrites: Int
  /// The outbox when the call began.
  var waiting: [Mutation]
  /// The outbox when it ended.
  var left: [Mutation]

  static func perform(_ device: String, engine: SyncEngine, disk: MemoryDisk, network: ChaosNetwork, time: ManualClock) async -> SyncRun {
    let refused = disk.refusedWrites
    let notesWrites = disk.writes(to: "notes.json")
    let unchangedOutboxWrites = disk.unchangedWrites(to: "outbox.json")
    let sleeps = time.sleepHistory.count
    let waiting = await engine.pending
    _ = network.takeExchanges(of: device)
    var failure: SyncError?
    do { try await engine.sync() } catch { failure = error }
    return SyncRun(
      exchanges: network.takeExchanges(of: device), error: failure, sleeps: time.sleepHistory.count - sleeps,
      notesWrites: disk.writes(to: "notes.json") - notesWrites,
      unchangedOutboxWrites: disk.unchangedWrites(to: "outbox.json") - unchangedOutboxWrites, refusedWrites: disk.refusedWrites - refused, waiting: waiting,
      left: await engine.pending)
  }
}

/// The syncs one device's scheduler ran since the step began, and how many ran at once.
final class RunLog: Sendable {
  /// How many failed runs in a row a step lets a scheduler make before its syncs stop syncing: with
  /// 38 requests in 100 meeting a fault, a right scheduler needs a few; one that never stops would
  /// otherwise hold the test until its time limit.
  static let cap = 100

  private struct State {
    var runs: [SyncRun] = []
    var running = 0
    var mostAtOnce = 0
    var capped = false
  }
  private let state = Mutex(State())

  /// The sync a scheduler calls: one engine sync, recorded; it throws what the engine threw.
  func run(_ body: () async -> SyncRun?) async throws(SyncError) {
    let go = state.withLock { state -> Bool in
      guard state.runs.count < Self.cap else {
        state.capped = true
        return false
      }
      state.running += 1
      state.mostAtOnce = max(state.mostAtOnce, state.running)
      return true
    }
    guard go else { return }
    let run = await body()
    state.withLock {
      $0.running -= 1
      if let run { $0.runs.append(run) }
    }
    if let error = run?.error { throw error }
  }

  /// How many runs ended since the last `take()`.
  var count: Int { state.withLock { $0.runs.count } }

  /// The runs since the last call, the most that ran at once, and whether the cap stopped them.
  func take() -> (runs: [SyncRun], mostAtOnce: Int, capped: Bool) {
    state.withLock { state in
      defer { state = State(running: state.running) }
      return (state.runs, state.mostAtOnce, state.capped)
    }
  }
}

/// The waits a clock was asked for, in order, and what happens at the next one.
final class SleepLog: Sendable {
  private let waits = Mutex<[Duration]>([])
  private let hook = Mutex<(@Sendable () async -> Void)?>(nil)

  func append(_ wait: Duration) { waits.withLock { $0.append(wait) } }

  /// Runs `action` once, at the start of the next wait (before the wait ends); nil takes it back.
  func atNextWait(_ action: (@Sendable () async -> Void)?) { hook.withLock { $0 = action } }

  /// The action for this wait, if one was set; it runs once.
  func takeAction() -> (@Sendable () async -> Void)? {
    hook.withLock { state in
      defer { state = nil }; return state
    }
  }

  /// The waits since the last call.
  func take() -> [Duration] {
    waits.withLock { state in
      defer { state = [] }; return state
    }
  }
}

/// How many runs had ended when the app cancelled a scheduler, once it has (the run whose request
/// was on its way included), and whether a request was.
final class CancelMark: Sendable {
  private let state = Mutex<(runsBefore: Int?, duringRequest: Bool)>((nil, false))

  var runsBefore: Int? {
    get { state.withLock { $0.runsBefore } }
    set { state.withLock { $0.runsBefore = newValue } }
  }

  var duringRequest: Bool {
    get { state.withLock { $0.duringRequest } }
    set { state.withLock { $0.duringRequest = newValue } }
  }
}
