import Foundation

/// How one exercise fared.
struct ExerciseResult: Codable {
  let number: Int
  let title: String
  var passed = 0
  var failures: [TestCase] = []

  /// Whether the learner's files are still the ones the workbook shipped (nil: unknown).
  var untouched: Bool? = nil
  /// The tests the report says were skipped (counted in `passed`: nothing failed). A variant
  /// (`make variants`) must run every test, so there they fail it.
  var skipped: [String]? = nil

  var total: Int { passed + failures.count }
  var solved: Bool { total > 0 && failures.isEmpty }
  var notStarted: Bool {
    // Tests that crashed or never finished say something, whatever the file looks like.
    if failures.contains(where: { $0.name == TestCase.wholeExercise || $0.crashed == true }) { return false }
    if !solved, untouched == true { return true }
    return passed == 0 && !failures.isEmpty && failures.allSatisfy { NotImplementedMarker.isIn($0.failure ?? "") }
  }

  /// What the failures say is not written yet (`Type.member`), each once, in order.
  var unwritten: [String] {
    var names: [String] = []
    for failure in failures {
      for name in NotImplementedMarker.members(in: failure.failure ?? "") where !names.contains(name) {
        names.append(name)
      }
    }
    return names
  }
}

/// The outcome of grading one chapter: what was built, and each exercise.
struct ChapterResult: Codable {
  let chapter: Int
  /// The code that was graded; nil in a summary saved by an older version of the tool.
  let variant: Variant?
  var compiled: Bool
  /// Set when the test process crashed or hung, with what it printed last.
  var crash: String?
  var exercises: [ExerciseResult]
  var date = Date()

  init(chapter: Int, variant: Variant, exercises: [ExerciseResult]) {
    self.chapter = chapter
    self.variant = variant
    self.compiled = false
    self.exercises = exercises
  }

  enum CodingKeys: String, CodingKey {
    case chapter, variant, compiled, crash, exercises, date
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    chapter = try container.decode(Int.self, forKey: .chapter)
    variant = try? container.decode(Variant.self, forKey: .variant)
    compiled = try container.decode(Bool.self, forKey: .compiled)
    crash = try container.decodeIfPresent(String.self, forKey: .crash)
    exercises = try container.decode([ExerciseResult].self, forKey: .exercises)
    date = try container.decode(Date.self, forKey: .date)
  }

  var solvedCount: Int { exercises.filter(\.solved).count }
  var allSolved: Bool { compiled && crash == nil && exercises.allSatisfy(\.solved) }
}

/// The last grading of each chapter's own code, kept in `.build/grade/` for `make progress`,
/// `make hint-N` (which builds nothing: it reads this) and the note about exercises that passed
/// last time.
///
/// `make reset-N` puts the starter back, so the last grading no longer describes the code: the
/// reset removes it and leaves a marker instead (`markReset`), and the next grading says the
/// chapter was reset rather than that the learner broke what passed.
enum Summary {
  static func path(_ chapter: Chapter, root: String = ".") -> String {
    WorkbookKit.path(".build/grade/summary-ch\(chapter.number)-starter.json", in: root)
  }

  static func resetMarker(_ chapter: Chapter, root: String = ".") -> String {
    WorkbookKit.path(".build/grade/reset-ch\(chapter.number)", in: root)
  }

  static func save(_ result: ChapterResult, _ chapter: Chapter, root: String = ".") {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .prettyPrinted
    guard let data = try? encoder.encode(result) else { return }
    try? FileManager.default.createDirectory(atPath: WorkbookKit.path(".build/grade", in: root), withIntermediateDirectories: true)
    try? data.write(to: URL(fileURLWithPath: path(chapter, root: root)), options: .atomic)
    try? FileManager.default.removeItem(atPath: resetMarker(chapter, root: root))
  }

  static func load(_ chapter: Chapter, root: String = ".") -> ChapterResult? {
    guard let data = FileManager.default.contents(atPath: path(chapter, root: root)) else { return nil }
    return try? JSONDecoder().decode(ChapterResult.self, from: data)
  }

  /// After `make reset-N`: the last grading is gone, and a marker says why.
  static func markReset(_ chapter: Chapter, root: String = ".") {
    try? FileManager.default.removeItem(atPath: path(chapter, root: root))
    try? FileManager.default.createDirectory(atPath: WorkbookKit.path(".build/grade", in: root), withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: resetMarker(chapter, root: root), contents: Data())
  }

  /// Whether the chapter was reset after its last grading (and not graded since).
  static func wasReset(_ chapter: Chapter, root: String = ".") -> Bool {
    FileManager.default.fileExists(atPath: resetMarker(chapter, root: root))
  }
}
