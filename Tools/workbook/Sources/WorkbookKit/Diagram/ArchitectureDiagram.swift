import Foundation

/// A drill's reference design, `<drill folder>/figures/reference-design.json`: layers drawn as rows
/// from top to bottom, boxes left to right in each row, and arrows between boxes.
///
///     { "title": "Reference design: the offline-first feed",
///       "layers": [ { "name": "Main actor",
///                     "boxes": [ { "id": "vm", "title": "FeedViewModel", "lines": ["screen state"] } ] } ],
///       "arrows": [ { "from": "vm", "to": "repo", "label": "loadNextPage()" } ],
///       "notes": [ "Decoding runs off the actors (@concurrent)." ] }
///
/// `make figures` (`workbook figures`) draws it to `reference-design.svg` beside it; `outline` is
/// the same design as text for the terminal.
struct ArchitectureDiagram: Codable, Equatable {
  struct Box: Codable, Equatable {
    var id: String
    var title: String
    var lines: [String]?
  }

  struct Layer: Codable, Equatable {
    var name: String
    var boxes: [Box]
  }

  struct Arrow: Codable, Equatable {
    var from: String
    var to: String
    var label: String?
  }

  var title: String
  var layers: [Layer]
  var arrows: [Arrow]
  var notes: [String]?

  /// How much a description may hold: what one SVG of a readable size, and a terminal, can show.
  enum Limit {
    static let layers = 1...6
    static let boxesPerLayer = 1...4
    static let linesPerBox = 0...3
    /// Characters of a box's title.
    static let title = 28
    /// Characters of a line of a box, and of an arrow's label.
    static let line = 34
    /// Characters of a note.
    static let note = 90
  }

  /// What is wrong with a description: each problem names the file, the field (a path such as
  /// `layers[1].boxes[0].title`, counted from 0 as in the JSON) and the limit it breaks.
  struct Problems: Error, CustomStringConvertible, Equatable {
    let file: String
    let problems: [String]
    var description: String { problems.map { "\(file): \($0)" }.joined(separator: "\n") }
  }

  /// Parses and validates the description at `path` (the limits in `Limit`, unique ids, arrows
  /// between existing boxes, no field the format does not have); every problem found is in the
  /// error, which names the file, the field and the limit.
  static func load(_ path: String) throws -> ArchitectureDiagram {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Problems(file: path, problems: ["is missing or cannot be read"])
    }
    return try parse(data, file: path)
  }

  /// `load` for the bytes of a description; `file` is the path the messages name.
  static func parse(_ data: Data, file: String) throws -> ArchitectureDiagram {
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw Problems(file: file, problems: ["is not valid JSON (\(error.localizedDescription))"])
    }
    let unknown = unknownFields(object)
    if !unknown.isEmpty { throw Problems(file: file, problems: unknown) }
    let diagram: ArchitectureDiagram
    do {
      diagram = try JSONDecoder().decode(ArchitectureDiagram.self, from: data)
    } catch let error as DecodingError {
      throw Problems(file: file, problems: [describe(error)])
    }
    let problems = diagram.problems
    if !problems.isEmpty { throw Problems(file: file, problems: problems) }
    return diagram
  }

  /// Every way the description breaks the format's limits, each as `field: what is wrong`.
  var problems: [String] {
    var found: [String] = []
    func text(_ value: String, _ field: String, limit: Int?) {
      if value.trimmingCharacters(in: .whitespaces).isEmpty {
        found.append("\(field): is empty")
      } else if value.contains(where: \.isNewline) {
        found.append("\(field): has a line break; the diagram draws one line of text per field")
      } else if let limit, value.count > limit {
        found.append("\(field): \(quoted(value)) is \(value.count) characters; at most \(limit)")
      }
    }
    func count(_ value: Int, _ what: String, _ field: String, _ range: ClosedRange<Int>) {
      if value > range.upperBound {
        found.append("\(field): \(value) \(what); at most \(range.upperBound)")
      } else if value < range.lowerBound {
        found.append("\(field): \(value) \(what); at least \(range.lowerBound)")
      }
    }

    text(title, "title", limit: nil)
    count(layers.count, "layers", "layers", Limit.layers)
    var boxes: [String: String] = [:]  // id: its field
    for (l, layer) in layers.enumerated() {
      text(layer.name, "layers[\(l)].name", limit: nil)
      count(layer.boxes.count, "boxes", "layers[\(l)].boxes", Limit.boxesPerLayer)
      for (b, box) in layer.boxes.enumerated() {
        let field = "layers[\(l)].boxes[\(b)]"
        if box.id.isEmpty {
          found.append("\(field).id: is empty")
        } else if let first = boxes[box.id] {
          found.append("\(field).id: \(quoted(box.id)) is also the id of \(first); ids are unique")
        } else {
          boxes[box.id] = field
        }
        text(box.title, "\(field).title", limit: Limit.title)
        let lines = box.lines ?? []
        count(lines.count, "lines", "\(field).lines", Limit.linesPerBox)
        for (n, line) in lines.enumerated() { text(line, "\(field).lines[\(n)]", limit: Limit.line) }
      }
    }
    for (a, arrow) in arrows.enumerated() {
      for (end, id) in [("from", arrow.from), ("to", arrow.to)] where boxes[id] == nil {
        found.append("arrows[\(a)].\(end): \(quoted(id)) is the id of no box")
      }
      if arrow.from == arrow.to, boxes[arrow.from] != nil {
        found.append("arrows[\(a)]: goes from \(quoted(arrow.from)) to itself; an arrow joins two boxes")
      }
      if let label = arrow.label { text(label, "arrows[\(a)].label", limit: Limit.line) }
    }
    for (n, note) in (notes ?? []).enumerated() { text(note, "notes[\(n)]", limit: Limit.note) }
    return found
  }

  /// The box with `id`, and its layer and column.
  func place(of id: String) -> (layer: Int, column: Int, box: Box)? {
    for (l, layer) in layers.enumerated() {
      if let column = layer.boxes.firstIndex(where: { $0.id == id }) { return (l, column, layer.boxes[column]) }
    }
    return nil
  }

  /// The diagram as indented text for the terminal: the title, each layer with its boxes and their
  /// lines, the arrows by box title, and the notes.
  var outline: String {
    var out = [title]
    for layer in layers {
      out.append("  \(layer.name)")
      for box in layer.boxes {
        out.append("    \(box.title)")
        for line in box.lines ?? [] { out.append("      \(line)") }
      }
    }
    if !arrows.isEmpty {
      out.append("  Arrows")
      for arrow in arrows {
        let from = place(of: arrow.from)?.box.title ?? arrow.from
        let to = place(of: arrow.to)?.box.title ?? arrow.to
        out.append("    \(from) → \(to)" + (arrow.label.map { ": \($0)" } ?? ""))
      }
    }
    if let notes, !notes.isEmpty {
      out.append("  Notes")
      for note in notes { out.append("    \(note)") }
    }
    return out.joined(separator: "\n")
  }

  // MARK: - Reading the JSON

  private static let fields: [String: Set<String>] = [
    "": ["title", "layers", "arrows", "notes"],
    "layer": ["name", "boxes"],
    "box": ["id", "title", "lines"],
    "arrow": ["from", "to", "label"],
  ]

  /// Fields the format does not have (a misspelt `line` would otherwise be dropped in silence).
  private static func unknownFields(_ object: Any) -> [String] {
    var found: [String] = []
    func check(_ value: Any, _ kind: String, _ field: String) {
      guard let dictionary = value as? [String: Any] else { return }
      let known = fields[kind] ?? []
      for key in dictionary.keys.sorted() where !known.contains(key) {
        let prefix = field.isEmpty ? "" : "\(field)."
        found.append("\(prefix)\(key): is not a field of the format; a \(kind.isEmpty ? "diagram" : kind) has \(known.sorted().joined(separator: ", "))")
      }
    }
    check(object, "", "")
    let root = object as? [String: Any] ?? [:]
    for (l, layer) in (root["layers"] as? [Any] ?? []).enumerated() {
      check(layer, "layer", "layers[\(l)]")
      for (b, box) in ((layer as? [String: Any])?["boxes"] as? [Any] ?? []).enumerated() {
        check(box, "box", "layers[\(l)].boxes[\(b)]")
      }
    }
    for (a, arrow) in (root["arrows"] as? [Any] ?? []).enumerated() { check(arrow, "arrow", "arrows[\(a)]") }
    return found
  }

  /// A decoding error as `field: what is wrong`.
  private static func describe(_ error: DecodingError) -> String {
    func path(_ keys: [any CodingKey]) -> String {
      var text = ""
      for key in keys {
        if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
      }
      return text.isEmpty ? "the file" : text
    }
    switch error {
    case .keyNotFound(let key, let context):
      return "\(path(context.codingPath + [key])): is missing"
    case .typeMismatch(let type, let context):
      return "\(path(context.codingPath)): is not \(expected(type))"
    case .valueNotFound(let type, let context):
      return "\(path(context.codingPath)): is null, not \(expected(type))"
    case .dataCorrupted(let context):
      return "\(path(context.codingPath)): \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }

  private static func expected(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: return "a string"
    case is [Any].Type: return "an array"
    default: return type == [String: Any].self ? "an object" : "a \(type)"
    }
  }
}

/// `text` in quotation marks, for a message.
private func quoted(_ text: String) -> String { "\"\(text)\"" }
