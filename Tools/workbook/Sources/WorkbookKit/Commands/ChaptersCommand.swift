/// `workbook chapters`: one line per chapter (number, folder, module, title), for scripts.
struct ChaptersCommand: Command {
  static let name = "chapters"
  static let arguments = ""
  static let summary = "list the chapters (number, folder, module, title)"

  init(_ arguments: [String]) throws {
    _ = try Arguments(arguments)
  }

  func run() throws -> Bool {
    for chapter in try Catalog.load().chapters {
      print("\(chapter.number) \(chapter.folder) \(chapter.module) \(chapter.title)")
    }
    return true
  }
}
