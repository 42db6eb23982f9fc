import Foundation
import Testing

@testable import WorkbookKit

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A drill's reference design (`reference-design.json`): read within the format's limits, with
/// errors that name the file, the field and the limit; drawn to the same SVG bytes every time, with
/// arrows from box edge to box edge and nothing drawn over anything else.
@Suite("Architecture diagram")
struct ArchitectureDiagramTests {
  typealias Diagram = ArchitectureDiagram

  static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/reference-design.json").path

  /// A valid diagram: `layers` layers of `boxes` boxes, each box with `lines` lines.
  static func diagram(layers: Int = 2, boxes: Int = 2, lines: Int = 1) -> Diagram {
    let all = (0..<layers).map { l in
      Diagram.Layer(
        name: "Layer \(l)",
        boxes: (0..<boxes).map { b in
          Diagram.Box(id: "b\(l)\(b)", title: "Box \(l).\(b)", lines: (0..<lines).map { "line \($0)" })
        })
    }
    return Diagram(title: "A design", layers: all, arrows: [.init(from: "b00", to: "b10", label: "call()")], notes: ["A note."])
  }

  /// `diagram` written to a file and loaded back: the problems `load` reports, empty when it loads.
  static func problems(_ diagram: Diagram) throws -> [String] {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("reference-design-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: file) }
    try JSONEncoder().encode(diagram).write(to: URL(fileURLWithPath: file))
    return try problems(file: file)
  }

  static func problems(file: String) throws -> [String] {
    do {
      _ = try Diagram.load(file)
      return []
    } catch let error as Diagram.Problems {
      #expect(error.file == file)
      #expect(error.description.hasPrefix("\(file): "), "each line of the message names the file")
      return error.problems
    }
  }

  static func problems(json: String) throws -> [String] {
    do {
      _ = try Diagram.parse(Data(json.utf8), file: "Drills/chat/figures/reference-design.json")
      return []
    } catch let error as Diagram.Problems {
      return error.problems
    }
  }

  @Test("the example description loads and has no problems")
  func example() throws {
    let diagram = try Diagram.load(Self.fixture)
    #expect(diagram.layers.count == 3)
    #expect(diagram.problems.isEmpty)
  }

  @Test("6 layers load, 7 do not")
  func layers() throws {
    #expect(try Self.problems(Self.diagram(layers: 6)) == [])
    #expect(try Self.problems(Self.diagram(layers: 7)) == ["layers: 7 layers; at most 6"])
    var none = Self.diagram()
    none.layers = []
    none.arrows = []
    #expect(try Self.problems(none) == ["layers: 0 layers; at least 1"])
  }

  @Test("4 boxes in a layer load, 5 do not")
  func boxes() throws {
    #expect(try Self.problems(Self.diagram(boxes: 4)) == [])
    var five = Self.diagram(boxes: 4)
    five.layers[1].boxes.append(.init(id: "extra", title: "Extra"))
    #expect(try Self.problems(five) == ["layers[1].boxes: 5 boxes; at most 4"])
  }

  @Test("3 lines in a box load, 4 do not")
  func lines() throws {
    #expect(try Self.problems(Self.diagram(lines: 3)) == [])
    var four = Self.diagram(lines: 3)
    four.layers[0].boxes[1].lines?.append("one line too many")
    #expect(try Self.problems(four) == ["layers[0].boxes[1].lines: 4 lines; at most 3"])
  }

  @Test("a box title of 28 characters loads, 29 does not")
  func titleLength() throws {
    var diagram = Self.diagram()
    diagram.layers[0].boxes[0].title = String(repeating: "T", count: 28)
    #expect(try Self.problems(diagram) == [])
    diagram.layers[0].boxes[0].title = String(repeating: "T", count: 29)
    #expect(try Self.problems(diagram) == ["layers[0].boxes[0].title: \"\(diagram.layers[0].boxes[0].title)\" is 29 characters; at most 28"])
  }

  @Test("a line of 34 characters loads, 35 does not; labels likewise, and notes at 90 and 91")
  func lineLength() throws {
    var diagram = Self.diagram()
    diagram.layers[1].boxes[0].lines = [String(repeating: "l", count: 34)]
    diagram.arrows[0].label = String(repeating: "a", count: 34)
    diagram.notes = [String(repeating: "n", count: 90)]
    #expect(try Self.problems(diagram) == [])
    diagram.layers[1].boxes[0].lines = [String(repeating: "l", count: 35)]
    diagram.arrows[0].label = String(repeating: "a", count: 35)
    diagram.notes = [String(repeating: "n", count: 91)]
    let found = try Self.problems(diagram)
    #expect(found.count == 3)
    #expect(found.contains { $0.hasPrefix("layers[1].boxes[0].lines[0]: ") && $0.hasSuffix(" is 35 characters; at most 34") })
    #expect(found.contains { $0.hasPrefix("arrows[0].label: ") && $0.hasSuffix(" is 35 characters; at most 34") })
    #expect(found.contains { $0.hasPrefix("notes[0]: ") && $0.hasSuffix(" is 91 characters; at most 90") })
  }

  @Test("characters are counted as a reader sees them: an accent or an emoji is one")
  func characters() throws {
    var diagram = Self.diagram()
    diagram.layers[0].boxes[0].title = String(repeating: "é", count: 27) + "👩‍💻"
    #expect(try Self.problems(diagram) == [])
  }

  @Test("an arrow to an unknown id is named, with the field")
  func unknownID() throws {
    var diagram = Self.diagram()
    diagram.arrows.append(.init(from: "b01", to: "cache"))
    diagram.arrows.append(.init(from: "nowhere", to: "b11"))
    #expect(
      try Self.problems(diagram) == [
        "arrows[1].to: \"cache\" is the id of no box", "arrows[2].from: \"nowhere\" is the id of no box",
      ])
  }

  @Test("a duplicate id is named with the box that has it first")
  func duplicateID() throws {
    var diagram = Self.diagram()
    diagram.layers[1].boxes[1].id = "b00"
    #expect(try Self.problems(diagram) == ["layers[1].boxes[1].id: \"b00\" is also the id of layers[0].boxes[0]; ids are unique"])
  }

  @Test("an arrow from a box to itself, and empty text, are problems")
  func selfAndEmpty() throws {
    var diagram = Self.diagram()
    diagram.arrows = [.init(from: "b00", to: "b00")]
    diagram.layers[0].name = " "
    #expect(
      try Self.problems(diagram) == [
        "layers[0].name: is empty", "arrows[0]: goes from \"b00\" to itself; an arrow joins two boxes",
      ])
  }

  @Test("what is not the format: bad JSON, a missing field, a field of the wrong type, a misspelt field")
  func notTheFormat() throws {
    #expect(try Self.problems(json: "{ \"title\": ").first?.hasPrefix("is not valid JSON") == true)
    #expect(try Self.problems(json: #"{ "title": "T", "arrows": [] }"#) == ["layers: is missing"])
    #expect(
      try Self.problems(json: #"{ "title": "T", "layers": [ { "name": "L", "boxes": [ { "id": 1, "title": "B" } ] } ], "arrows": [] }"#)
        == ["layers[0].boxes[0].id: is not a string"])
    #expect(
      try Self.problems(json: #"{ "title": "T", "layers": [ { "name": "L", "boxes": [ { "id": "b", "title": "B", "line": ["x"] } ] } ], "arrows": [] }"#)
        == ["layers[0].boxes[0].line: is not a field of the format; a box has id, lines, title"])
    #expect(try Self.problems(file: "/nonexistent/reference-design.json") == ["is missing or cannot be read"])
  }

  @Test("the outline: the title, layers, boxes with their lines, arrows by box title, notes")
  func outline() throws {
    var diagram = Self.diagram(layers: 2, boxes: 1, lines: 2)
    diagram.arrows.append(.init(from: "b10", to: "b00"))
    #expect(
      diagram.outline == """
        A design
          Layer 0
            Box 0.0
              line 0
              line 1
          Layer 1
            Box 1.0
              line 0
              line 1
          Arrows
            Box 0.0 → Box 1.0: call()
            Box 1.0 → Box 0.0
          Notes
            A note.
        """)
  }

  @Test("text is XML-escaped: < & > \" and ' never reach the SVG as they are")
  func escaping() throws {
    var diagram = Self.diagram()
    diagram.title = #"Tom & Jerry's <"design">"#
    diagram.layers[0].name = "A<B"
    diagram.layers[0].boxes[0].title = "Cache<Key, Value>"
    diagram.layers[0].boxes[0].lines = [#"say "hi" & bye"#]
    diagram.arrows[0].label = "a > b"
    diagram.notes = ["x < y && y > z"]
    let svg = diagram.svg
    #expect(svg.contains(#">Tom &amp; Jerry&apos;s &lt;&quot;design&quot;&gt;</text>"#))
    #expect(svg.contains(">A&lt;B</text>"))
    #expect(svg.contains(">Cache&lt;Key, Value&gt;</text>"))
    #expect(svg.contains(">say &quot;hi&quot; &amp; bye</text>"))
    #expect(svg.contains(">a &gt; b</text>"))
    #expect(svg.contains(">x &lt; y &amp;&amp; y &gt; z</text>"))
    #expect(try Self.wellFormed(svg))
  }

  /// Whether `svg` parses as XML.
  static func wellFormed(_ svg: String) throws -> Bool {
    let parser = XMLParser(data: Data(svg.utf8))
    return parser.parse()
  }

  @Test("deterministic: the same description gives the same bytes, ending in a newline")
  func deterministic() throws {
    let first = try Diagram.load(Self.fixture).svg
    let second = try Diagram.load(Self.fixture).svg
    #expect(first == second)
    #expect(first.hasSuffix("</svg>\n"))
    #expect(first.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\""))
    #expect(try Self.wellFormed(first))
  }

  @Test("the example draws to the SVG kept beside it, byte for byte (after a change on purpose: workbook figures, then copy it)")
  func golden() throws {
    let kept = try Data(contentsOf: URL(fileURLWithPath: Self.fixture.replacingOccurrences(of: ".json", with: ".svg")))
    #expect(Data(try Diagram.load(Self.fixture).svg.utf8) == kept)
  }

  @Test("an arrow between neighbours in a layer runs from side to side")
  func withinLayer() throws {
    var diagram = Self.diagram(layers: 1, boxes: 2)
    diagram.arrows = [.init(from: "b01", to: "b00", label: "back")]
    let layout = DiagramLayout(diagram)
    let (left, right) = (layout.boxes[0][0], layout.boxes[0][1])
    let points = try #require(layout.placed.first?.points)
    #expect(points.count == 2)
    #expect(points[0].x == right.x, "leaves the left side of the box on the right")
    #expect(points[1].x == left.maxX, "and ends at the right side of the box on the left")
    #expect(points[0].y == points[1].y && points[0].y == left.midY)
    #expect(diagram.svg.contains("points=\"\(DiagramLayout.number(right.x)),\(DiagramLayout.number(left.midY)) "))
  }

  @Test("an arrow between layers runs from the bottom edge of one box to the top edge of the other")
  func acrossLayers() throws {
    var diagram = Self.diagram(layers: 2, boxes: 2)
    diagram.arrows = [.init(from: "b01", to: "b10"), .init(from: "b11", to: "b00", label: "up")]
    let layout = DiagramLayout(diagram)
    let down = try #require(layout.placed.first?.points)
    #expect(down.count == 2)
    let (from, to) = (layout.boxes[0][1], layout.boxes[1][0])
    #expect(down[0].y == from.maxY && (from.x...from.maxX).contains(down[0].x))
    #expect(down[1].y == to.y && (to.x...to.maxX).contains(down[1].x))
    let up = try #require(layout.placed.last?.points)
    #expect(up[0].y == layout.boxes[1][1].y, "an arrow going up leaves the top edge")
    #expect(up[1].y == layout.boxes[0][0].maxY, "and enters the bottom edge")
    #expect(diagram.svg.components(separatedBy: "marker-end=\"url(#arrowhead)\"").count == 3, "each arrow has its head")
  }

  @Test("an arrow that would cross a box goes around it, through the gaps")
  func around() throws {
    var diagram = Self.diagram(layers: 3, boxes: 1)
    diagram.layers[1].boxes.append(contentsOf: [.init(id: "x", title: "X"), .init(id: "y", title: "Y")])
    diagram.layers[0].boxes.append(contentsOf: [.init(id: "p", title: "P"), .init(id: "q", title: "Q")])
    diagram.arrows = [.init(from: "b00", to: "b20", label: "past the middle"), .init(from: "b00", to: "q", label: "under P")]
    let layout = DiagramLayout(diagram)
    for item in layout.placed {
      #expect(item.points.count > 2, "\(item.arrow.from) → \(item.arrow.to) bends")
      for (a, b) in zip(item.points, item.points.dropFirst()) {
        for (l, row) in layout.boxes.enumerated() {
          for (c, box) in row.enumerated() where box.y < max(a.y, b.y) - 0.5 && box.maxY > min(a.y, b.y) + 0.5 {
            let inside = DiagramLayout.Rect(x: box.x + 1, y: box.y + 1, width: box.width - 2, height: box.height - 2)
            #expect(!DiagramLayout.segment(a, b, crosses: inside), "\(item.arrow.from) → \(item.arrow.to) crosses box \(l).\(c)")
          }
        }
      }
    }
  }

  @Test("nothing overlaps in the example: boxes, labels, names, the title and the notes each have their own room")
  func noOverlap() throws {
    let layout = DiagramLayout(try Diagram.load(Self.fixture))
    var rects: [(String, DiagramLayout.Rect)] = []
    for (l, row) in layout.boxes.enumerated() {
      for (c, box) in row.enumerated() { rects.append(("box \(l).\(c)", box)) }
      let name = layout.diagram.layers[l].name
      rects.append(
        ("name \(name)", .init(x: layout.nameX, y: layout.bands[l].midY - 6, width: DiagramLayout.textWidth(name, bold: true), height: 12)))
    }
    for item in layout.placed {
      guard let label = item.arrow.label, let at = item.labelAt else { continue }
      let width = DiagramLayout.textWidth(label)
      rects.append(("label \(label)", .init(x: at.centred ? at.x - width / 2 : at.x, y: at.y - 10, width: width, height: 13)))
    }
    for (i, (name, rect)) in rects.enumerated() {
      #expect(rect.x >= 0 && rect.maxX <= layout.width && rect.y >= 0 && rect.maxY <= layout.height, "\(name) is inside the picture")
      for (other, second) in rects[(i + 1)...] {
        let apart = rect.maxX <= second.x || second.maxX <= rect.x || rect.maxY <= second.y || second.maxY <= rect.y
        #expect(apart, "\(name) overlaps \(other)")
      }
    }
    #expect(layout.notesTop >= (layout.bands.last?.maxY ?? 0))
  }

  @Test("the size follows the content")
  func size() {
    let small = DiagramLayout(Self.diagram(layers: 1, boxes: 1))
    let wide = DiagramLayout(Self.diagram(layers: 1, boxes: 4))
    let tall = DiagramLayout(Self.diagram(layers: 6, boxes: 1, lines: 3))
    #expect(wide.width > small.width)
    #expect(tall.height > small.height)
    let size = "width=\"\(DiagramLayout.number(small.width))\" height=\"\(DiagramLayout.number(small.height))\""
    #expect(small.svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" \(size)"))
  }

  @Test("workbook figures draws each reference design of Chapters/ and Drills/ beside it, and --check finds a stale one")
  func figuresCommand() throws {
    let workbook = try ScratchWorkbook(chapter7: false)
    let json = try String(contentsOfFile: Self.fixture, encoding: .utf8)
    try workbook.write("Chapters/06-feed/figures/reference-design.json", json)
    try workbook.write("Drills/chat/figures/reference-design.json", json)
    try workbook.write("Drills/sync/figures/other.json", json)
    #expect(
      FiguresCommand.descriptions(root: workbook.root) == [
        "Chapters/06-feed/figures/reference-design.json", "Drills/chat/figures/reference-design.json",
      ])
    var said: [String] = []
    #expect(try FiguresCommand.draw(root: workbook.root, check: false) { said.append($0) })
    #expect(said.count == 2 && said.allSatisfy { $0.contains("wrote") })
    let drawn = try workbook.read("Drills/chat/figures/reference-design.svg")
    #expect(drawn == (try Diagram.load(Self.fixture)).svg)
    #expect(try workbook.read("Chapters/06-feed/figures/reference-design.svg") == drawn)

    said = []
    #expect(try FiguresCommand.draw(root: workbook.root, check: true) { said.append($0) })
    #expect(said.allSatisfy { $0.contains("unchanged") })

    try workbook.write("Drills/chat/figures/reference-design.svg", "<svg/>\n")
    said = []
    #expect(try !FiguresCommand.draw(root: workbook.root, check: true) { said.append($0) })
    #expect(said.contains { $0.contains("Drills/chat/figures/reference-design.svg: run make figures") })

    try workbook.write("Drills/chat/figures/reference-design.json", #"{ "title": "T", "layers": [], "arrows": [] }"#)
    said = []
    #expect(try !FiguresCommand.draw(root: workbook.root, check: false) { said.append($0) })
    #expect(said.contains("    layers: 0 layers; at least 1"))
  }
}
