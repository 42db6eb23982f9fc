import Foundation

/// The learner's ratings, kept in `.workbook/review.json` at the root of the workbook (git ignores
/// `.workbook/`).
///
/// The file is written whole after every rating: a temporary file beside it, then `rename(2)`,
/// which replaces the old file in one step, so a crash or Ctrl-C mid-write leaves the old file or
/// the new one, never half of each. A file that cannot be read (not JSON, a missing field) or that
/// a newer version of the workbook wrote is moved aside, never overwritten or deleted, and the
/// learner is told in one line where it went.
struct RatingsStore {
  /// The format this tool writes and reads. A later format gets a new number; this tool moves
  /// such a file aside rather than guess at it.
  static let version = 1
  static let relativePath = ".workbook/review.json"

  /// What is on disk: the format version and a card per question key.
  struct Contents: Codable, Equatable {
    var version: Int
    var cards: [String: Card]
  }

  let root: String
  /// Says what happened to a file that was moved aside.
  var report: (String) -> Void = warn

  init(root: String = ".", report: @escaping (String) -> Void = warn) {
    self.root = root
    self.report = report
  }

  var file: String { path(Self.relativePath, in: root) }

  /// Every card on disk; none when there is no file yet. A file that cannot be read is moved aside
  /// (`now` names it) and counts as none.
  func load(now: Date = Date()) -> [String: Card] {
    (try? read(now: now)) ?? [:]
  }

  /// `load`, but throws when an unreadable file could not be moved aside, so that a write never
  /// replaces it.
  private func read(now: Date) throws -> [String: Card] {
    guard let data = FileManager.default.contents(atPath: file) else { return [:] }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    struct VersionOnly: Decodable { let version: Int }
    guard let version = try? decoder.decode(VersionOnly.self, from: data).version else {
      try moveAside(suffix: "corrupt", because: "it could not be read", now: now)
      return [:]
    }
    guard version == Self.version else {
      try moveAside(
        suffix: "version-\(version)", because: "it is in format \(version), which this workbook does not know (it reads \(Self.version))",
        now: now)
      return [:]
    }
    guard let contents = try? decoder.decode(Contents.self, from: data) else {
      try moveAside(suffix: "corrupt", because: "it could not be read", now: now)
      return [:]
    }
    return contents.cards
  }

  /// Writes every card: a temporary file, then a rename over the old one.
  func save(_ cards: [String: Card]) throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data = try encoder.encode(Contents(version: Self.version, cards: cards))
    let folder = (file as NSString).deletingLastPathComponent
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let temporary = "\(file).tmp-\(ProcessInfo.processInfo.processIdentifier)"
    guard FileManager.default.createFile(atPath: temporary, contents: data) else {
      throw Failure("cannot write \(temporary)")
    }
    guard rename(temporary, file) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(atPath: temporary)
      throw Failure("cannot replace \(file): \(reason)")
    }
  }

  /// Rates one question: reads the file again (another terminal may have rated since), applies
  /// the rating, writes the file, and returns the new card.
  @discardableResult
  func record(
    _ rating: Rating, for question: InterviewQuestion, schedule: Schedule, at now: Date, seconds: Int? = nil
  ) throws -> Card {
    var cards = try read(now: now)
    let card = schedule.rate(cards[question.key], rating, heading: question.heading, at: now, seconds: seconds)
    cards[question.key] = card
    try save(cards)
    return card
  }

  /// The cards of `questions`, by key, after matching edited headings to their old records.
  ///
  /// A question with no card of its own takes the card of a key that no question has any more,
  /// in the same chapter, when their slugs share at least `threshold` of their words; each old
  /// card goes to one question at most, the most alike first. When any card moved, the file is
  /// written with the new keys (the old ones are gone from it, their history now under the new).
  /// Cards no question matches stay in the file untouched.
  ///
  /// - Complexity: O(q × o) slug comparisons for q unmatched questions and o orphaned cards, each
  ///   a few dozen words.
  func reconcile(_ questions: [InterviewQuestion], now: Date = Date(), threshold: Double = 0.6) -> [String: Card] {
    var cards = load(now: now)
    let current = Set(questions.map(\.key))
    let orphans = cards.keys.filter { !current.contains($0) }
    let homeless = questions.filter { cards[$0.key] == nil }
    var pairs: [(score: Double, question: String, orphan: String)] = []
    for question in homeless {
      for orphan in orphans where QuestionKey.chapter(of: orphan) == question.chapter {
        let score = QuestionKey.similarity(question.key, orphan)
        if score >= threshold { pairs.append((score, question.key, orphan)) }
      }
    }
    pairs.sort { ($0.score, $1.question, $1.orphan) > ($1.score, $0.question, $0.orphan) }
    var moved = false
    var taken: Set<String> = []
    for pair in pairs where cards[pair.question] == nil && !taken.contains(pair.orphan) {
      cards[pair.question] = cards.removeValue(forKey: pair.orphan)
      taken.insert(pair.orphan)
      moved = true
    }
    if moved { try? save(cards) }
    return cards
  }

  /// Renames an unreadable file to `review.json.<suffix>-<UTC time>` (`-2`, `-3` if that exists).
  private func moveAside(suffix: String, because reason: String, now: Date) throws {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    let base = "\(file).\(suffix)-\(formatter.string(from: now))"
    var aside = base
    var count = 1
    while FileManager.default.fileExists(atPath: aside) {
      count += 1
      aside = "\(base)-\(count)"
    }
    let shown = aside.hasPrefix(root + "/") ? String(aside.dropFirst(root.count + 1)) : aside
    if rename(file, aside) == 0 {
      report("\(Self.relativePath) was set aside as \(shown) because \(reason); your ratings start afresh and the old file is kept.")
    } else {
      let message =
        "\(Self.relativePath) cannot be read (\(reason)) nor moved aside (\(String(cString: strerror(errno)))); it is left as it is and no rating is saved."
      report(message)
      throw Failure(message)
    }
  }
}
