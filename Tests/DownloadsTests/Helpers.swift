import Foundation
import Synchronization
import WorkbookTesting

@testable import Downloads

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

/// A scheduler the test drives: it records what the manager asks of it and runs a job only when
/// the test says so, so a test can look at the queue before anything starts.
actor RecordingScheduler: TransferScheduling {
  struct Submission: Equatable {
    let id: JobID
    let priority: DownloadPriority
  }

  struct PriorityChange: Equatable {
    let id: JobID
    let priority: DownloadPriority
  }

  private(set) var submissions: [Submission] = []
  private(set) var cancellations: [JobID] = []
  private(set) var priorityChanges: [PriorityChange] = []
  private var queued: [JobID: @Sendable () async -> Void] = [:]
  private var nextID: UInt64 = 0

  func submit(priority: DownloadPriority, _ work: @escaping @Sendable () async -> Void) -> JobID {
    nextID += 1
    let id = JobID(rawValue: nextID)
    submissions.append(Submission(id: id, priority: priority))
    queued[id] = work
    return id
  }

  func cancel(_ id: JobID) {
    cancellations.append(id)
    queued[id] = nil
  }

  func changePriority(of id: JobID, to priority: DownloadPriority) -> Bool {
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
