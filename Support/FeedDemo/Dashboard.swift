import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The numbers the demo shows, one snapshot at a time.
struct Snapshot {
  var phase = ""
  var status = ""
  var pages = 0
  var posts = 0
  var memoryHits = 0
  var diskHits = 0
  var networkFetches = 0
  var coalesced = 0
  var requests = 0
  var retries = 0
  var refreshes = 0
  var failures = 0

  var lines: [String] {
    [
      "phase     \(phase)",
      "feed      \(pages) pages · \(posts) posts · \(status)",
      "images    memory \(memoryHits) · disk \(diskHits) · network \(networkFetches) · saved by coalescing \(coalesced)",
      "network   \(requests) requests · \(retries) retries · \(refreshes) token refreshes · \(failures) failed attempts",
    ]
  }
}

/// Draws the dashboard: redrawn in place on a terminal, one block per phase otherwise (a log
/// file or CI keeps a readable record).
final class Dashboard {
  let interactive = isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
  private var drawn = 0

  func draw(_ snapshot: Snapshot) {
    let lines = snapshot.lines
    if interactive {
      if drawn > 0 { print("\u{1B}[\(drawn)A", terminator: "") }
      for line in lines { print("\u{1B}[2K" + line) }
      drawn = lines.count
    }
    fflush(nil)
  }

  /// Ends the current phase: on a terminal the block stays on screen and a new one starts under
  /// it; otherwise the block is printed once.
  func finishPhase(_ snapshot: Snapshot) {
    if interactive {
      draw(snapshot)
      drawn = 0
      print("")
    } else {
      snapshot.lines.forEach { print($0) }
      print("")
    }
    fflush(nil)
  }
}
