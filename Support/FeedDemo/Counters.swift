import Foundation
import PracticeServer

/// Which code this build of the demo runs for each chapter the feed is made of. `Package.swift`
/// defines `DEMO_REFERENCE_<N>` for each chapter it took from `answers/`, so the words below are
/// what was compiled, not what a command line claims.
enum BuiltFrom {
  static let chapters: [(number: Int, module: String)] = [(1, "DataStore"), (3, "Networking"), (4, "ImageCache"), (6, "Feed")]

  static var reference: Set<Int> {
    var numbers: Set<Int> = []
    #if DEMO_REFERENCE_1
      numbers.insert(1)
    #endif
    #if DEMO_REFERENCE_3
      numbers.insert(3)
    #endif
    #if DEMO_REFERENCE_4
      numbers.insert(4)
    #endif
    #if DEMO_REFERENCE_6
      numbers.insert(6)
    #endif
    return numbers
  }

  /// Whether every chapter came from `answers/`.
  static var allReference: Bool { chapters.allSatisfy { reference.contains($0.number) } }

  /// "yours" when every chapter is the learner's, "reference" when none is, "yours + reference" otherwise.
  static var name: String {
    if allReference { return "reference" }
    return reference.isEmpty ? "yours" : "yours + reference"
  }

  /// `1 DataStore: yours · 3 Networking: reference · …`
  static var description: String {
    chapters.map { "\($0.number) \($0.module): \(reference.contains($0.number) ? "reference" : "yours")" }.joined(separator: " · ")
  }
}

/// What one run of the script did, counted where it can be counted without trusting the code
/// under test: the practice server's own log for what went over the wire, the demo's own calls
/// for what the screen asked, and `ImageLoader.metrics` (chapter 4's count, labelled so) only
/// for which cache tier answered.
struct Counters {
  /// One row of the comparison: a key for the file, and a label that says exactly what it counts.
  struct Row {
    let key: String
    let label: String
  }

  static let rows: [Row] = [
    Row(key: "pageRequests", label: "feed page requests the server received, retries included"),
    Row(key: "pagesAnswered", label: "feed page requests the server answered 200"),
    Row(key: "postsAfterScroll", label: "posts on screen after scrolling 100 rows"),
    Row(key: "pagesAfterScroll", label: "pages on screen after scrolling (those posts ÷ 20, rounded up)"),
    Row(key: "duplicatesShown", label: "duplicate posts on screen, most at any one check"),
    Row(key: "resent", label: "requests sent again after the server refused them (503, 401)"),
    Row(key: "refreshes", label: "token refreshes the server received"),
    Row(key: "commentsAnswered", label: "comment requests the server answered 201"),
    Row(key: "imagesAsked", label: "image requests made by the cells (3 views per cell)"),
    Row(key: "imageDownloads", label: "image downloads the server served"),
    Row(key: "downloadsAfterWarning", label: "images downloaded again after the memory warning"),
    Row(key: "withoutDownload", label: "loader calls answered with no fetch of their own (ImageLoader.metrics)"),
    Row(key: "offlinePosts", label: "saved posts on screen at the relaunch with no server"),
  ]

  /// Counts that move with timing even for the same code: when three views ask for one image at
  /// once, a later one joins the load in flight or, if it has landed, is a memory hit.
  static let timingRows: [Row] = [
    Row(key: "memoryHits", label: "memory hits, as ImageLoader.metrics counts them"),
    Row(key: "diskHits", label: "disk hits, as ImageLoader.metrics counts them"),
  ]

  static var allRows: [Row] { rows + timingRows }

  var values: [String: Int] = [:]
  /// Which code ran (`BuiltFrom.description` of the build that counted).
  var code = ""
  var seconds = 0.0

  subscript(key: String) -> Int {
    get { values[key] ?? 0 }
    set { values[key] = newValue }
  }

  /// Writes `key<TAB>value` lines, for the run that compares.
  func write(to path: String) throws {
    var text = "code\t\(code)\nseconds\t\(seconds)\n"
    for row in Self.allRows { text += "\(row.key)\t\(self[row.key])\n" }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  static func read(from path: String) throws -> Counters {
    var counters = Counters()
    for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
      let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { continue }
      switch parts[0] {
      case "code": counters.code = parts[1]
      case "seconds": counters.seconds = Double(parts[1]) ?? 0
      default: counters.values[parts[0]] = Int(parts[1])
      }
    }
    return counters
  }
}

/// What the practice server saw, read from its request log.
struct ServerCounts {
  var pageRequests = 0
  var pagesAnswered = 0
  var resent = 0
  var refreshes = 0
  var commentsAnswered = 0
  var imageDownloads = 0

  init() {}

  init(_ server: PracticeServer) {
    pageRequests = server.requestCount("/v1/feed")
    refreshes = server.refreshCount
    var refused: Set<String> = []
    for request in server.requestLog {
      let query = request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
      let key = "\(request.method) \(request.path)?\(query)"
      if refused.contains(key) { resent += 1 }
      if request.status >= 400 { refused.insert(key) } else { refused.remove(key) }
      if request.path == "/v1/feed" && request.status == 200 { pagesAnswered += 1 }
      if request.path.hasSuffix("/comments") && request.method == "POST" && request.status == 201 { commentsAnswered += 1 }
      if request.path.hasPrefix("/images/") && request.status == 200 { imageDownloads += 1 }
    }
  }
}

/// The table that sets the learner's run beside the reference's.
enum Comparison {
  static let width = Counters.allRows.map(\.label.count).max() ?? 40

  static func print(yours: Counters, reference: Counters) {
    Swift.print("Your feed and the reference's, on the same script (each against a fresh practice server)\n")
    Swift.print("  " + label("") + "    yours  reference")
    var differing = 0
    for row in Counters.rows {
      if yours[row.key] != reference[row.key] { differing += 1 }
      Swift.print(line(row, yours, reference, mark: "≠"))
    }
    Swift.print("  " + label("time for the whole script (s)") + String(format: "%9.1f%11.1f", yours.seconds, reference.seconds))
    Swift.print("")
    if differing == 0 {
      Swift.print("Every count in the table is the reference's.")
    } else {
      Swift.print("\(differing) of the \(Counters.rows.count) counts in the table differ from the reference's (≠). Not every difference is")
      Swift.print("a bug (a loader may count its own calls differently), but a page requested twice, a duplicate on")
      Swift.print("screen or a second token refresh is one.")
    }
    Swift.print("\nNot compared: which cache tier answered moves with timing, even for the same code. A view that asks")
    Swift.print("for an image while another view's load is in flight joins that load; a moment later, it is a memory hit.")
    for row in Counters.timingRows { Swift.print(line(row, yours, reference, mark: "~")) }
  }

  static func print(alone counters: Counters) {
    Swift.print("What the feed did on the script\n")
    for row in Counters.allRows { Swift.print("  " + label(row.label) + pad(counters[row.key], 9)) }
    Swift.print("  " + label("time for the whole script (s)") + String(format: "%9.1f", counters.seconds))
  }

  static func line(_ row: Counters.Row, _ yours: Counters, _ reference: Counters, mark: String) -> String {
    let same = yours[row.key] == reference[row.key]
    return "  " + label(row.label) + pad(yours[row.key], 9) + pad(reference[row.key], 11) + (same ? "" : "  " + mark)
  }

  static func label(_ text: String) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }

  static func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: " ", count: max(0, width - text.count)) + text
  }
}
