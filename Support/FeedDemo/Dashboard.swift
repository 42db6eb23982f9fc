import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The numbers the demo shows, one snapshot at a time. Each line says where its numbers come
/// from: the screen (the view model's posts), the server's log, or the image loader's own count.
struct Snapshot {
  var phase = ""
  var status = ""
  var posts = 0
  var duplicates = 0
  var server = ServerCounts()
  var imagesAsked = 0
  var memoryHits = 0
  var diskHits = 0

  var lines: [String] {
    [
      "phase     \(phase)",
      "screen    posts \(posts), duplicates \(duplicates) · \(status)",
      "server    feed page requests \(server.pageRequests), retries included (answered 200: \(server.pagesAnswered)) · "
        + "sent again after a refusal \(server.resent) · token refreshes \(server.refreshes)",
      "images    asked by the cells \(imagesAsked) · downloaded \(server.imageDownloads) · ImageLoader.metrics: "
        + "memory \(memoryHits), disk \(diskHits)",
    ]
  }
}

/// Draws the dashboard: redrawn in place on a terminal, one block per phase otherwise (a log
/// file or CI keeps a readable record). A quiet dashboard (the reference's run after the
/// learner's) prints one line per phase instead.
final class Dashboard {
  let quiet: Bool
  let interactive: Bool
  private var drawn = 0

  init(quiet: Bool) {
    self.quiet = quiet
    interactive = !quiet && isatty(STDOUT_FILENO) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
  }

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
  /// it; otherwise the block is printed once (or, quiet, the phase's one line).
  func finishPhase(_ snapshot: Snapshot, line: String) {
    if quiet {
      print("  " + line)
    } else if interactive {
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
