import Foundation

/// How many tiers of each failure's hint (`HintLadder`) a learner has seen in a chapter: the grader
/// prints the next one when the same test fails again, and `make hint-N` the next one when asked.
/// Kept beside the last grading's summary, in `.build/grade/hints-chN.json`, as `{"2/startsAtZero": 1}`;
/// losing it (`make clean`) only starts each hint at its question again.
struct HintTiersSeen: Equatable {
  private(set) var seen: [String: Int]

  static func path(_ chapter: Chapter, root: String = ".") -> String {
    WorkbookKit.path(".build/grade/hints-ch\(chapter.number).json", in: root)
  }

  /// What was saved for `chapter`; nothing seen when there is no file or it cannot be read.
  static func load(_ chapter: Chapter, root: String = ".") -> HintTiersSeen {
    let data = FileManager.default.contents(atPath: path(chapter, root: root))
    return HintTiersSeen(seen: data.flatMap { try? JSONDecoder().decode([String: Int].self, from: $0) } ?? [:])
  }

  /// The tiers seen of the ladder with `key` (0: none).
  func tiers(of key: String) -> Int { seen[key] ?? 0 }

  /// Records that tier `tier` of `key`'s ladder was shown (a lower one shown again changes nothing).
  mutating func saw(_ tier: Int, of key: String) {
    seen[key] = max(seen[key] ?? 0, tier)
  }

  func save(_ chapter: Chapter, root: String = ".") {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(seen) else { return }
    try? FileManager.default.createDirectory(atPath: WorkbookKit.path(".build/grade", in: root), withIntermediateDirectories: true)
    try? data.write(to: URL(fileURLWithPath: Self.path(chapter, root: root)), options: .atomic)
  }
}
