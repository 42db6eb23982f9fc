import Workbook

/// What the server remembers of its requests: the most recent answered ones, bounded both in
/// number and in bytes, and arrival counts for a bounded number of paths.
///
/// Tests read the log to see what a client sent ("the resume asked for bytes=1000-"), and only
/// ever need the recent past. A log that kept everything would grow with every request, until a
/// learner's retry loop left running, or a load test, filled the memory of the process.
final class RequestLog: Sendable {
  private struct Entry {
    var request: PracticeServer.LoggedRequest
    var bytes: Int
  }

  private struct State {
    /// A ring: the live entries are `entries[first...]`; the dead prefix is dropped in bulk.
    var entries: [Entry] = []
    var first = 0
    var bytes = 0
    var arrivals: [String: Int] = [:]
    /// The counted paths, oldest first, as a ring like `entries`.
    var paths: [String] = []
    var firstPath = 0
  }

  private let state = Locked(State())
  private let maximumEntries: Int
  private let maximumBytes: Int
  private let maximumPaths: Int

  init(limits: PracticeServer.Limits) {
    maximumEntries = max(1, limits.requestLogEntries)
    maximumBytes = max(1, limits.requestLogBytes)
    maximumPaths = max(1, limits.countedPaths)
  }

  /// Counts a request for `path` as it arrives; past `countedPaths` distinct paths, the path
  /// counted first is forgotten.
  func arrived(_ path: String) {
    state.withLock { state in
      if let count = state.arrivals[path] {
        state.arrivals[path] = count + 1
        return
      }
      if state.arrivals.count >= maximumPaths {
        state.arrivals[state.paths[state.firstPath]] = nil
        state.firstPath += 1
        if state.firstPath >= 1_024 && state.firstPath * 2 >= state.paths.count {
          state.paths.removeFirst(state.firstPath)
          state.firstPath = 0
        }
      }
      state.arrivals[path] = 1
      state.paths.append(path)
    }
  }

  func count(_ path: String) -> Int { state.withLock { $0.arrivals[path] ?? 0 } }

  /// Adds an answered request, dropping the oldest entries while there are more than
  /// `requestLogEntries` or they hold more than `requestLogBytes`.
  func served(_ request: PracticeServer.LoggedRequest) {
    let bytes = Self.bytes(of: request)
    state.withLock { state in
      state.entries.append(Entry(request: request, bytes: bytes))
      state.bytes += bytes
      while state.first < state.entries.count && (state.entries.count - state.first > maximumEntries || state.bytes > maximumBytes) {
        state.bytes -= state.entries[state.first].bytes
        state.first += 1
      }
      if state.first >= 1_024 && state.first * 2 >= state.entries.count {
        state.entries.removeFirst(state.first)
        state.first = 0
      }
    }
  }

  /// The kept entries, oldest first.
  var entries: [PracticeServer.LoggedRequest] { state.withLock { $0.entries[$0.first...].map(\.request) } }

  /// Entries, bytes and counted paths now.
  var size: (entries: Int, bytes: Int, paths: Int) {
    state.withLock { ($0.entries.count - $0.first, $0.bytes, $0.arrivals.count) }
  }

  /// What an entry costs: its text, plus a fixed allowance for the structures around it.
  private static func bytes(of request: PracticeServer.LoggedRequest) -> Int {
    var bytes = 128 + request.method.utf8.count + request.path.utf8.count
    for (name, value) in request.query { bytes += 32 + name.utf8.count + value.utf8.count }
    for (name, value) in request.headers { bytes += 32 + name.utf8.count + value.utf8.count }
    return bytes
  }
}
