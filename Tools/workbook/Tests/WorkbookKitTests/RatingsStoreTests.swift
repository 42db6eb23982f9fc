import Foundation
import Testing

@testable import WorkbookKit

/// `.workbook/review.json`: written whole and atomically, and a file that cannot be read is set
/// aside, never lost.
@Suite("Ratings store")
struct RatingsStoreTests {
  let schedule = Schedule(calendar: utcCalendar())

  @Test("a rating is written and read back, with no temporary file left beside it")
  func roundTrip() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let store = RatingsStore(root: workbook.root) { Issue.record("nothing to report: \($0)") }
    let clock = TestClock()
    let question = sampleQuestions()[0]
    let card = try store.record(.good, for: question, schedule: schedule, at: clock.now(), seconds: 42)
    #expect(store.load(now: clock.now()) == [question.key: card])
    #expect(card.answers == [Answer(date: clock.now(), rating: .good, seconds: 42)])
    #expect(try FileManager.default.contentsOfDirectory(atPath: workbook.root + "/.workbook") == ["review.json"])
    let text = try workbook.read(".workbook/review.json")
    #expect(text.contains("\"version\" : 1"), "the file says its format")
    #expect(text.contains("\"heading\" : \"How do you count?\""), "the file names each question, so a learner can read it")
  }

  /// A write in place (truncate, then write) changes the file's inode, which every hard link to it
  /// shares; a new file renamed over the old name leaves the old inode, and the link, as they were.
  @Test("a save replaces the file in one rename: a hard link to the old file still holds the old text")
  func saveIsAtomic() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let store = RatingsStore(root: workbook.root) { Issue.record("nothing to report: \($0)") }
    let clock = TestClock()
    let questions = sampleQuestions()
    try store.record(.good, for: questions[0], schedule: schedule, at: clock.now())
    let old = try workbook.read(".workbook/review.json")
    try FileManager.default.linkItem(atPath: store.file, toPath: workbook.root + "/old-ratings.json")
    try store.record(.hard, for: questions[1], schedule: schedule, at: clock.now())
    #expect(try workbook.read("old-ratings.json") == old, "the old file was never written to")
    let new = try workbook.read(".workbook/review.json")
    #expect(new != old && new.contains(questions[1].key), "the new text is under the file's name")
    #expect(try FileManager.default.contentsOfDirectory(atPath: workbook.root + "/.workbook") == ["review.json"])
  }

  @Test("a file that is not JSON is set aside with the time in its name, reported in one line, and rating goes on")
  func corrupt() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    try workbook.write(".workbook/review.json", "{ \"version\": 1, \"cards\": ")
    var said: [String] = []
    let store = RatingsStore(root: workbook.root) { said.append($0) }
    let clock = TestClock()
    #expect(store.load(now: clock.now()).isEmpty)
    let aside = ".workbook/review.json.corrupt-20261125T180000Z"
    #expect(try workbook.read(aside) == "{ \"version\": 1, \"cards\": ", "the old file is kept as it was")
    #expect(
      said == ["\(RatingsStore.relativePath) was set aside as \(aside) because it could not be read; your ratings start afresh and the old file is kept."])
    #expect(!said[0].contains("\n"), "one line")
    try store.record(.easy, for: sampleQuestions()[0], schedule: schedule, at: clock.now())
    #expect(store.load(now: clock.now()).count == 1, "a new file starts")

    // A second bad file in the same second does not replace the first one set aside.
    try workbook.write(".workbook/review.json", "[]")
    #expect(store.load(now: clock.now()).isEmpty)
    #expect(workbook.exists(aside + "-2"))
    #expect(try workbook.read(aside) == "{ \"version\": 1, \"cards\": ")
  }

  @Test("a file in the right version with a card that cannot be read is set aside as corrupt")
  func badCard() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    try workbook.write(".workbook/review.json", #"{ "version": 1, "cards": { "7/x": { "heading": 3 } } }"#)
    var said: [String] = []
    let store = RatingsStore(root: workbook.root) { said.append($0) }
    #expect(store.load(now: TestClock().now()).isEmpty)
    #expect(workbook.exists(".workbook/review.json.corrupt-20261125T180000Z"))
    #expect(said.count == 1)
  }

  @Test("a file from a newer format is set aside under its version, not read as if it were ours")
  func unknownVersion() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let newer = #"{ "version": 2, "cards": {}, "decks": [] }"#
    try workbook.write(".workbook/review.json", newer)
    var said: [String] = []
    let store = RatingsStore(root: workbook.root) { said.append($0) }
    let clock = TestClock()
    #expect(store.load(now: clock.now()).isEmpty)
    #expect(try workbook.read(".workbook/review.json.version-2-20261125T180000Z") == newer)
    #expect(said.count == 1 && said[0].contains("format 2, which this workbook does not know (it reads 1)"))
    try store.record(.good, for: sampleQuestions()[0], schedule: schedule, at: clock.now())
    #expect(try workbook.read(".workbook/review.json.version-2-20261125T180000Z") == newer, "the newer file is never overwritten")
  }

  @Test("an edited heading keeps its history; a rewritten one starts afresh and the old record stays in the file")
  func editedHeadings() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let store = RatingsStore(root: workbook.root) { Issue.record("nothing to report: \($0)") }
    let clock = TestClock()
    let before = InterviewQuestion.parse(
      """
      ## How would you persist a session so that a crash never loses data?
      ### Model answer
      Atomically.
      ## What is a torn write?
      ### Model answer
      Half a file.
      """, chapter: 1, chapterTitle: "Store")
    for question in before { try store.record(.good, for: question, schedule: schedule, at: clock.now()) }
    let after = InterviewQuestion.parse(
      """
      ## How do you persist a session so that a crash never loses data?
      ### Model answer
      Atomically.
      ## Why does rename make a write atomic on POSIX file systems?
      ### Model answer
      One step.
      """, chapter: 1, chapterTitle: "Store")
    #expect(before[0].key != after[0].key, "the slug changed with the heading")
    let cards = store.reconcile(after, now: clock.now())
    #expect(cards[after[0].key]?.heading == before[0].heading, "a word changed: the old record is the question's")
    #expect(cards[after[1].key] == nil, "a new question has no history")
    #expect(cards[before[1].key] != nil, "the record of the question that went stays")
    #expect(store.load(now: clock.now())[after[0].key] != nil, "the file now has the new key")
    #expect(store.load(now: clock.now())[before[0].key] == nil, "and not the old one")
  }

  @Test("keys: the chapter and a slug of the first twelve words; a repeated heading gets -2")
  func keys() {
    let long = "How would you persist a session so that a crash never loses data?"
    #expect(
      QuestionKey.slug(long) == QuestionKey.slug(long.replacingOccurrences(of: "data", with: "or leaks data")),
      "an edit after the twelfth word keeps the key")
    #expect(
      QuestionKey.slug("Actor, `Mutex`, `NSLock`, or a concurrent queue: how do you choose?") == "actor-mutex-nslock-or-a-concurrent-queue-how-do-you-choose")
    #expect(QuestionKey.slug("Où est l’élan?") == "ou-est-l-elan")
    #expect(
      QuestionKey.slug("one two three four five six seven eight nine ten eleven twelve thirteen")
        == "one-two-three-four-five-six-seven-eight-nine-ten-eleven-twelve")
    let questions = InterviewQuestion.parse("## Why?\n## Why?\n", chapter: 3, chapterTitle: "T")
    #expect(questions.map(\.key) == ["3/why", "3/why-2"])
  }
}
