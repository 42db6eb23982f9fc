import Foundation

/// One mock system-design interview. A chapter's drill is the Markdown file its `exercises.json`
/// names (`"extras": { "drill": "drill.md" }`), and its id is the chapter's number; a drill beyond
/// the chapters is `Drills/<name>/drill.md`, listed in `Drills/drills.json`, and its id is its name.
struct Drill: Equatable {
  let id: String
  /// As the listing shows it: the drill's `# Drill: …` heading for a chapter's drill, the title in
  /// `Drills/drills.json` for one beyond the chapters.
  let title: String
  /// The folder of the drill and of its `figures/`: `Chapters/06-feed` or `Drills/chat`.
  let folder: String
  /// The drill's Markdown file, relative to the workbook's root.
  let file: String
  /// The chapter whose drill it is; nil for a drill beyond the chapters.
  let chapter: Int?
  /// For a drill beyond the chapters, the chapters whose components it builds on.
  let reuses: [Int]

  /// The reference design's description, which `make figures` draws.
  var referenceDescription: String { "\(folder)/figures/\(FiguresCommand.description)" }
  /// The reference design as `make figures` draws it.
  var referenceDrawing: String { "\(folder)/figures/\(FiguresCommand.drawing)" }
}

/// `Drills/drills.json`: the drills beyond the chapters, in the order they are listed.
struct DrillList: Decodable, Equatable {
  struct Entry: Decodable, Equatable {
    let name: String
    let title: String
    /// The chapters whose components the drill builds on.
    let reuses: [Int]
  }

  let drills: [Entry]

  static let relativePath = "Drills/drills.json"

  /// The list; nil when there is no `Drills/drills.json`.
  static func load(root: String = ".") throws -> DrillList? {
    let file = path(relativePath, in: root)
    guard FileManager.default.fileExists(atPath: file) else { return nil }
    let text = try TextFile.contents(file, shown: relativePath)
    do {
      return try JSONDecoder().decode(DrillList.self, from: Data(text.utf8))
    } catch {
      throw Failure("\(relativePath) is not valid: \(error); it reads { \"drills\": [ { \"name\": …, \"title\": …, \"reuses\": [1, 2] } ] }")
    }
  }
}

/// Every drill of the workbook: the chapters' in chapter order, then those of `Drills/drills.json`.
struct DrillCatalog {
  let drills: [Drill]

  /// Reads the chapters' drills from `catalog` and the others from `Drills/drills.json` (none when
  /// it is missing; an invalid one throws).
  static func load(_ catalog: Catalog, root: String = ".") throws -> DrillCatalog {
    var drills: [Drill] = []
    for chapter in catalog.chapters {
      guard let name = chapter.extras.drill else { continue }
      let file = "\(chapter.folder)/\(name)"
      let heading = TextFile.read(path(file, in: root)).flatMap(Self.heading)
      drills.append(
        Drill(
          id: String(chapter.number), title: heading ?? chapter.title, folder: chapter.folder, file: file,
          chapter: chapter.number, reuses: []))
    }
    for entry in try DrillList.load(root: root)?.drills ?? [] {
      drills.append(
        Drill(
          id: entry.name, title: entry.title, folder: "Drills/\(entry.name)", file: "Drills/\(entry.name)/drill.md",
          chapter: nil, reuses: entry.reuses))
    }
    return DrillCatalog(drills: drills)
  }

  var ids: [String] { drills.map(\.id) }

  /// The drill `argument` names: a chapter's number (`6`, `06`) or a name (`chat`, `Chat`).
  func drill(_ argument: String) throws -> Drill {
    let id = Self.normalized(argument)
    if let drill = drills.first(where: { $0.id == id }) { return drill }
    guard !drills.isEmpty else { throw Failure("there is no drill \(argument): the workbook has no drills yet") }
    throw Failure("there is no drill \(argument); the drills are \(ids.joined(separator: ", ")) (make drill lists them)")
  }

  /// A command line's id as the catalog spells it: a number without leading zeros, a name in
  /// lower case, without a `drill-` in front.
  static func normalized(_ argument: String) -> String {
    var id = argument.trimmingCharacters(in: .whitespaces).lowercased()
    if id.hasPrefix("drill-") { id.removeFirst("drill-".count) }
    if let number = Int(id), number >= 0 { return String(number) }
    return id
  }

  /// `Design an iOS feed` from a first heading `# Drill: design an iOS feed`.
  static func heading(_ text: String) -> String? {
    guard let line = text.components(separatedBy: "\n").first(where: { $0.hasPrefix("# ") }) else { return nil }
    var title = line.dropFirst(2).trimmingCharacters(in: .whitespaces)
    if title.lowercased().hasPrefix("drill:") { title = title.dropFirst(6).trimmingCharacters(in: .whitespaces) }
    guard let first = title.first else { return nil }
    return first.uppercased() + title.dropFirst()
  }
}
