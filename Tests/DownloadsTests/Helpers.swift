import Foundation
import Synchronization
import Testing
import WorkbookTesting

@testable import Downloads

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Counts how many pieces of work run at once, and the most that ever did.
final class Concurrency: Sendable {
  private let state = Mutex((now: 0, peak: 0, started: [String]()))

  func enter(_ name: String = "") {
    state.withLock {
      $0.now += 1
      $0.peak = max($0.peak, $0.now)
      $0.started.append(name)
    }
  }

  func leave() { state.withLock { $0.now -= 1 } }

  var now: Int { state.withLock { $0.now } }
  var peak: Int { state.withLock { $0.peak } }
  /// The names passed to `enter`, in the order the work started.
  var started: [String] { state.withLock { $0.started } }
}

/// A URL of a scripted file.
func fileURL(_ name: String, size: Int64) -> URL {
  URL(string: "http://files.test/files/\(name)?size=\(size)")!
}

/// Every event of a download, and how it ended.
func collect(_ handle: DownloadHandle) async -> (events: [DownloadEvent], error: (any Error)?) {
  var events: [DownloadEvent] = []
  do {
    for try await event in handle.events { events.append(event) }
    return (events, nil)
  } catch {
    return (events, error)
  }
}

/// The byte counts of the progress events, in order.
func progressCounts(_ events: [DownloadEvent]) -> [Int64] {
  events.compactMap {
    if case .progress(let bytes, _) = $0 { return bytes }
    return nil
  }
}

/// The files in `directory`, by name, with their sizes.
func sizes(in directory: TemporaryDirectory) -> [String: Int64] {
  var result: [String: Int64] = [:]
  for name in directory.contents() {
    let attributes = try? FileManager.default.attributesOfItem(atPath: directory.file(name).path)
    result[name] = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
  }
  return result
}

/// Holds downloads part way: the chapter's one fixture for "stop the transfer here".
///
/// Its chunk hook (for `ScriptedTransport`, or the seam of `URLSessionTransport`) makes a transfer
/// sleep on `clock` before a chosen chunk, until the test moves the clock or the transfer is
/// cancelled (a pause or a cancel ends the sleep at once). At that exact point the test looks at
/// the disk, pauses, cancels, or lets more callers join; nothing depends on how fast anything runs.
struct Hold: Sendable {
  /// Where transfers stop.
  enum Point: Sendable, CustomStringConvertible {
    /// Before the chunk with this index in its transfer (0 is the first).
    case chunk(Int)
    /// Before the chunk that starts at this offset in the file.
    case offset(Int64)

    var description: String {
      switch self {
      case .chunk(let index): "before chunk \(index)"
      case .offset(let offset): "at byte \(offset)"
      }
    }
  }

  let clock = ManualClock()
  let point: Point
  /// Only the first transfer that reaches the point stops (so a resume runs through).
  let once: Bool
  private let reached = Counter()

  init(at point: Point, once: Bool = false) {
    self.point = point
    self.once = once
  }

  /// The chunk hook that holds transfers at `point`.
  var hook: ScriptedTransport.ChunkHook {
    { [clock, point, once, reached] _, offset, index in
      let here =
        switch point {
        case .chunk(let chunk): index == chunk
        case .offset(let start): offset == start
        }
      guard here, !once || reached.increment() == 1 else { return }
      try await clock.sleep(for: .seconds(1))
    }
  }

  /// A scripted transport whose transfers stop at `point`.
  func transport(chunkSize: Int) -> ScriptedTransport {
    ScriptedTransport(chunkSize: chunkSize, onChunk: hook)
  }

  /// A transport on a real `URLSession` whose transfers stop at `point`.
  func urlSessionTransport(_ configuration: URLSessionConfiguration = .ephemeral) -> URLSessionTransport {
    URLSessionTransport(configuration: configuration, seams: .init(beforeChunk: hook))
  }

  /// How many transfers are held now.
  var held: Int { clock.sleepers }

  /// Lets every held transfer go on, and returns once they have run as far as they can.
  func release() async {
    await clock.advance(by: .seconds(1))
  }

  /// Waits until `handle`'s transfer is held. Rethrows the download's own error if it ended
  /// first (such as "not implemented"); fails the test if it is neither held nor over. Use
  /// `.threads` for a transfer that runs on `URLSession`.
  func waitUntilHeld(_ handle: DownloadHandle, _ progress: RunsOn = .tasks) async throws {
    let ended = Counter()
    Task {
      _ = try? await handle.result()
      ended.increment()
    }
    let held = await clock.waitForSleepers(1, progress, giveUp: { ended.value > 0 })
    if !held && ended.value > 0 { _ = try await handle.result() }
    try #require(held, "the transfer should be running, held \(point); it never got there")
  }

  /// Starts a download, waits until it is held, pauses it and returns its resume data.
  func pausedDownload(
    _ downloader: Downloader, _ url: URL, to destination: URL, _ progress: RunsOn = .tasks
  ) async throws -> ResumeData {
    let handle = downloader.start(url, to: destination)
    try await waitUntilHeld(handle, progress)
    return try await handle.pause()
  }
}

/// A scheduler the test drives: it records what the manager asks of it and runs a job only when
/// the test says so, so a test can look at the queue before anything starts.
///
/// It can also hold the manager's calls at a gate, to force what may happen while the manager
/// awaits another actor: a submit that reached `submitGate` is recorded (its job exists and can be
/// run) but has not returned its `JobID` to the manager; a priority change that reached
/// `priorityGate` is recorded as requested but not yet applied.
actor RecordingScheduler: TransferScheduling {
  struct Submission: Equatable {
    let id: JobID
    let priority: DownloadPriority
  }

  struct PriorityChange: Equatable, CustomStringConvertible {
    let id: JobID
    let priority: DownloadPriority

    var description: String { "\(id) to .\(priority)" }
  }

  let submitGate: Gate?
  let priorityGate: Gate?
  private(set) var submissions: [Submission] = []
  private(set) var cancellations: [JobID] = []
  /// Every `changePriority` call, in the order they arrived, whatever its job's state.
  private(set) var priorityRequests: [PriorityChange] = []
  /// The changes that found their job queued, in the order they were applied.
  private(set) var priorityChanges: [PriorityChange] = []
  private var queued: [JobID: @Sendable () async -> Void] = [:]
  private var nextID: UInt64 = 0

  init(holdingSubmits submitGate: Gate? = nil, holdingPriorityChanges priorityGate: Gate? = nil) {
    self.submitGate = submitGate
    self.priorityGate = priorityGate
  }

  func submit(priority: DownloadPriority, _ work: @escaping @Sendable () async -> Void) async -> JobID {
    nextID += 1
    let id = JobID(rawValue: nextID)
    submissions.append(Submission(id: id, priority: priority))
    queued[id] = work
    await submitGate?.pass()
    return id
  }

  func cancel(_ id: JobID) {
    cancellations.append(id)
    queued[id] = nil
  }

  func changePriority(of id: JobID, to priority: DownloadPriority) async -> Bool {
    priorityRequests.append(PriorityChange(id: id, priority: priority))
    await priorityGate?.pass()
    guard queued[id] != nil else { return false }
    priorityChanges.append(PriorityChange(id: id, priority: priority))
    return true
  }

  /// Runs a queued job to its end, as a free slot would.
  func run(_ id: JobID) async {
    guard let work = queued.removeValue(forKey: id) else { return }
    await work()
  }
}
