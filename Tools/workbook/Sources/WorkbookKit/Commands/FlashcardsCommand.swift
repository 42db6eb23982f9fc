import Foundation

/// `make flashcards`: every interview question of every chapter as an Anki deck, in
/// `.workbook/flashcards.txt` (the format is `AnkiExport`'s). For the commute: the same questions
/// as the walkthrough, on a phone.
struct FlashcardsCommand: Command {
  static let name = "flashcards"
  static let arguments = ""
  static let summary = "write every interview question to .workbook/flashcards.txt for Anki"

  init(_ arguments: [String]) throws {
    _ = try Arguments(arguments)
  }

  func run() throws -> Bool {
    let catalog = try Catalog.load()
    var skipped: [String] = []
    let questions = InterviewQuestion.loadAll(catalog) { skipped.append($0) }
    for message in skipped { warn(Style.yellow(message)) }
    guard !questions.isEmpty else { throw Failure("no chapter has interview questions") }
    let signals = DrillSignalCards.questions(catalog, now: SystemClock().now())
    try Self.write(questions + signals, to: AnkiExport.relativePath)
    let decks = Set((questions + signals).map { AnkiExport.deck($0) }).count
    print("Wrote \(questions.count + signals.count) cards in \(decks) decks to \(AnkiExport.relativePath).")
    if !signals.isEmpty {
      print("  \(plural(signals.count, "card")) of them are signals you missed in a drill (deck Drills).")
    }
    print(
      Style.dim(
        "In Anki: File > Import, and choose the file; its header lines set the note type (Basic), the decks and the tags.\n"
          + "Import it again after the questions change: each card keeps its id, so Anki matches it instead of adding a copy."
      ))
    // The deck is written for the chapters that could be read, and the run fails for the others.
    return skipped.isEmpty
  }

  /// Writes the deck atomically (a temporary file, then a rename).
  static func write(_ questions: [InterviewQuestion], to file: String) throws {
    let folder = (file as NSString).deletingLastPathComponent
    if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
    try Data(AnkiExport.text(questions).utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
  }
}
