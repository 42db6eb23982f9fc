import Foundation

/// One `## ` question of a chapter's `interview.md`, with the parts `workbook check` requires.
///
/// The walkthrough, the review queue, the readiness in `make progress` and the Anki export all read
/// questions through this type, so they agree on what a question is and on its key.
struct InterviewQuestion: Equatable {
  let chapter: Int
  let chapterTitle: String
  let heading: String
  /// The whole body under the heading, as the walkthrough shows it.
  let body: String
  /// The `### Model answer`, `### Follow-ups` and `### Red flags` parts; empty when a part is
  /// missing (`workbook check` reports that; the walkthrough still shows the body).
  let modelAnswer: String
  let followUps: String
  let redFlags: String
  /// See `QuestionKey`.
  let key: String
  /// For a card made from a drill's missed signal (`DrillSignalCards`), the drill's id; its
  /// `chapter` is then the drill's chapter, or 0 for a drill beyond the chapters.
  var drill: String? = nil

  /// `ch3`, or `drill-chat` for a card from a drill.
  var label: String { drill.map { "drill-\($0)" } ?? "ch\(chapter)" }

  /// Every question of a chapter, in the order of its `interview.md`.
  static func load(_ chapter: Chapter, root: String = ".") throws -> [InterviewQuestion] {
    let text = try TextFile.contents(path(chapter.interviewPath, in: root), shown: chapter.interviewPath)
    return parse(text, chapter: chapter.number, chapterTitle: chapter.title)
  }

  /// Every question of every chapter, chapter by chapter. A chapter whose `interview.md` is
  /// missing, is not UTF-8 or has no `## ` question has no questions here, and `report` says so
  /// (once per chapter): a chapter is never left out in silence.
  static func loadAll(_ catalog: Catalog, root: String = ".", report: (String) -> Void = warn) -> [InterviewQuestion] {
    catalog.chapters.flatMap { chapter -> [InterviewQuestion] in
      do {
        let questions = try load(chapter, root: root)
        if questions.isEmpty {
          report("\(chapter.interviewPath) has no `## ` questions: chapter \(chapter.number) is left out")
        }
        return questions
      } catch {
        report("\(error): chapter \(chapter.number) is left out")
        return []
      }
    }
  }

  /// - Complexity: O(n) in the length of `text`.
  static func parse(_ text: String, chapter: Int, chapterTitle: String) -> [InterviewQuestion] {
    var keys = QuestionKey.Maker(chapter: chapter)
    return markdownSections(text: text).map { section in
      let parts = subsections(section.body)
      func part(_ name: String) -> String { parts.first { $0.heading == name }?.body ?? "" }
      return InterviewQuestion(
        chapter: chapter, chapterTitle: chapterTitle, heading: section.heading, body: section.body,
        modelAnswer: part("Model answer"), followUps: part("Follow-ups"), redFlags: part("Red flags"),
        key: keys.key(for: section.heading))
    }
  }
}

/// The stable name of a question in `.workbook/review.json`: `1/what-is-actor-reentrancy-and-where-does-it-bite`,
/// the chapter number and a slug of the heading's first twelve words.
///
/// Why the heading, and what happens when it is edited: the interview files have no ids of their
/// own and the learner should never have to write one, so the heading is the only name a question
/// has. Its position would survive an edit but not a question inserted above it, which would move
/// every rating to the wrong question; a wrong history is worse than a lost one. So the key is the
/// slug. Twelve words tell the questions of a chapter apart and keep the key short, and an edit
/// after them (a clause added to a long question) leaves the key as it was. Any other edit is
/// handled when ratings are read (`RatingsStore.reconcile`): a
/// question with no record takes over the record of a question that no longer exists in the same
/// chapter if their slugs share most of their words (a typo fixed, a clause added). A question
/// rewritten beyond that starts afresh, and its old record stays in the file, never deleted, so a
/// heading changed back finds it again.
enum QuestionKey {
  /// How many words of the heading the slug keeps.
  static let words = 12

  /// Lowercase ASCII letters and digits, the first `words` words joined by `-`: `Actor, \`Mutex\`,
  /// or…` reads `actor-mutex-or`. Letters with accents lose them (`é` → `e`).
  static func slug(_ heading: String) -> String {
    let folded = heading.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "en_US_POSIX"))
    var words: [String] = []
    var word = ""
    for scalar in folded.unicodeScalars {
      if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
        word.unicodeScalars.append(scalar)
      } else if !word.isEmpty {
        words.append(word)
        word = ""
      }
    }
    if !word.isEmpty { words.append(word) }
    return words.isEmpty ? "question" : words.prefix(Self.words).joined(separator: "-")
  }

  /// The chapter a key belongs to.
  static func chapter(of key: String) -> Int? {
    key.split(separator: "/", maxSplits: 1).first.flatMap { Int($0) }
  }

  /// How alike two keys' slugs are: the words they share over the words either has (Jaccard).
  static func similarity(_ a: String, _ b: String) -> Double {
    func words(_ key: String) -> Set<Substring> {
      Set((key.split(separator: "/", maxSplits: 1).last ?? "").split(separator: "-"))
    }
    let (x, y) = (words(a), words(b))
    let union = x.union(y).count
    return union == 0 ? 0 : Double(x.intersection(y).count) / Double(union)
  }

  /// Keys for the questions of one chapter, in order: a heading written twice gets `-2`, `-3`.
  struct Maker {
    let chapter: Int
    private var used: Set<String> = []

    init(chapter: Int) { self.chapter = chapter }

    mutating func key(for heading: String) -> String {
      let base = "\(chapter)/\(QuestionKey.slug(heading))"
      var key = base
      var count = 1
      while used.contains(key) {
        count += 1
        key = "\(base)-\(count)"
      }
      used.insert(key)
      return key
    }
  }
}
