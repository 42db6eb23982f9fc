import Foundation

/// The source excerpt Swift prints under a diagnostic, read so the learner sees the line that is
/// wrong. Swift 6's style prints numbered source lines (`35 | }`), marker lines under them with
/// the caret or the message (`   | `- error: expected '}' in actor`), and `:` where it skips
/// lines. The excerpt runs in line order, so the notes' lines (the `{` a missing `}` should
/// close, lines earlier in the file) come first and the error line last: a cut after the first
/// few lines shows the note and hides the error.
enum DiagnosticExcerpt {
  /// One source line of an excerpt and the marker lines under it.
  struct Group {
    let number: Int?
    var lines: [String]
    var markers: [String] { Array(lines.dropFirst()) }
  }

  static func isSourceLine(_ line: String) -> Bool {
    line.range(of: #"^\s*\d+ \|"#, options: .regularExpression) != nil
  }

  static func isMarkerLine(_ line: String) -> Bool {
    line.range(of: #"^\s+\|"#, options: .regularExpression) != nil
  }

  static func isElision(_ line: String) -> Bool {
    line.range(of: #"^\s+:\s*$"#, options: .regularExpression) != nil
  }

  /// Whether a line belongs to an excerpt rather than being a diagnostic of its own.
  static func isExcerptLine(_ line: String) -> Bool {
    isSourceLine(line) || isMarkerLine(line) || isElision(line)
  }

  /// The line a diagnostic points at: `File.swift:35:1: error: …` → 35.
  static func lineNumber(of diagnostic: String) -> Int? {
    guard let match = matches(#"\.swift:(\d+):\d+: "#, in: diagnostic).first else { return nil }
    return Int(match[1])
  }

  /// The excerpt under the diagnostic at `index` of `lines`, at most `budget` lines: the line
  /// before the one it points at, that line and its markers (the caret and the message), then
  /// each note's line and its markers, as far as the budget goes. An excerpt in which the line is
  /// not found is shown from its start.
  static func excerpt(_ lines: [String], after index: Int, budget: Int = 8) -> [String] {
    var block: [String] = []
    for line in lines.dropFirst(index + 1) {
      guard isExcerptLine(line) else { break }
      block.append(line)
    }
    var groups: [Group] = []
    for line in block {
      if isSourceLine(line) {
        let number = Int(line.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber })
        groups.append(Group(number: number, lines: [line]))
      } else if isMarkerLine(line), !groups.isEmpty, groups[groups.count - 1].number != nil {
        groups[groups.count - 1].lines.append(line)
      } else {
        groups.append(Group(number: nil, lines: [line]))
      }
    }
    guard let target = lineNumber(of: lines[index]),
      let primary = groups.lastIndex(where: { $0.number == target && !$0.markers.isEmpty })
        ?? groups.lastIndex(where: { $0.number == target })
    else { return Array(block.prefix(budget)) }

    var shown: [String] = []
    if primary > 0, let before = groups[primary - 1].number, before == target - 1, budget > groups[primary].lines.count {
      shown.append(groups[primary - 1].lines[0])
    }
    shown += groups[primary].lines.prefix(max(1, budget - shown.count))
    for (position, group) in groups.enumerated() where position != primary && group.number != nil {
      guard group.markers.contains(where: { $0.contains("note:") }), shown.count + group.lines.count < budget else { continue }
      // A `:` under the bars, as Swift marks lines it skips.
      let bar = group.lines[0].firstIndex(of: "|").map { group.lines[0].distance(from: group.lines[0].startIndex, to: $0) } ?? 3
      shown.append(String(repeating: " ", count: bar) + ":")
      shown += group.lines
    }
    return Array(shown.prefix(budget))
  }
}
