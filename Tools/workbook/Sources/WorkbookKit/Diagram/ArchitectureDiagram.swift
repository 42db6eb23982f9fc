import Foundation

/// A drill's reference design: layers of boxes drawn top to bottom, with arrows between boxes.
///
/// This stand-in decodes the description and lists it as text; the full model (limits checked,
/// the SVG drawn) replaces it.
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

  /// Decodes the description at `path`.
  static func load(_ path: String) throws -> ArchitectureDiagram {
    guard let data = FileManager.default.contents(atPath: path) else { throw Failure("\(path) is missing") }
    do {
      return try JSONDecoder().decode(ArchitectureDiagram.self, from: data)
    } catch {
      throw Failure("\(path) is not a diagram: \(error)")
    }
  }

  /// The diagram as indented text: layers, boxes with their lines, arrows, notes.
  var outline: String {
    var text = [title]
    for layer in layers {
      text.append("  \(layer.name)")
      for box in layer.boxes {
        text.append("    \(box.title)")
        for line in box.lines ?? [] { text.append("      \(line)") }
      }
    }
    for arrow in arrows {
      text.append("  \(arrow.from) → \(arrow.to)" + (arrow.label.map { ": \($0)" } ?? ""))
    }
    for note in notes ?? [] { text.append("  \(note)") }
    return text.joined(separator: "\n")
  }

  /// A placeholder picture.
  var svg: String {
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"></svg>\n"
  }
}
