import Foundation

extension ArchitectureDiagram {
  /// The SVG `make figures` writes: the title on top, each layer a grey band with its name at the
  /// left and its boxes centred in it, arrows with arrowheads from box edge to box edge, each label
  /// beside its arrow, and the notes under the diagram.
  ///
  /// The size follows from the content, measured with Helvetica's widths (Arial and Liberation Sans
  /// have the same), and every number is printed with at most one decimal; nothing depends on the
  /// date, the locale or the machine, so the same description gives the same bytes. The style is the
  /// one of the chapters' charts (`Support/Figures/LineChart.swift`).
  ///
  /// An arrow between neighbours in a layer runs side to side; one between layers runs from a
  /// bottom edge to a top edge, straight when nothing is in the way. An arrow that would cross a box
  /// (past a neighbour in its layer, or across a layer with a box in its path) takes the gaps
  /// between the layers instead, and the channel left of the boxes.
  var svg: String { DiagramLayout(self).svg }
}

/// Where everything of an `ArchitectureDiagram` goes. Coordinates are in SVG user units (pixels).
struct DiagramLayout {
  // Type and spacing.
  static let fontSize = 12.0
  static let titleSize = 15.0
  static let margin = 20.0
  static let titleBaseline = 26.0
  static let firstBandTop = 44.0
  static let boxPadding = 10.0
  static let minimumBoxWidth = 120.0
  static let boxTitleBaseline = 19.0
  static let lineStep = 16.0
  static let boxBottomPadding = 11.0
  static let bandPadding = 12.0
  static let namePadding = 12.0
  static let minimumGap = 40.0
  static let minimumLayerGap = 36.0
  static let slotHeight = 16.0
  static let laneStep = 8.0
  static let gapPadding = 8.0
  static let channelStep = 10.0
  static let labelOffset = 6.0
  static let noteStep = 16.0
  // Colours and strokes, those of the charts.
  static let ink = "#333"
  static let bandFill = "#f7f7f7"
  static let bandStroke = "#e5e5e5"
  static let boxStroke = "#1f77b4"

  struct Rect {
    var x: Double
    var y: Double
    var width: Double
    var height: Double
    var midX: Double { x + width / 2 }
    var midY: Double { y + height / 2 }
    var maxX: Double { x + width }
    var maxY: Double { y + height }
  }

  /// How an arrow is drawn.
  enum Route {
    /// Side to side between neighbours in one layer: the `index`-th of the `of` arrows between the two.
    case side(index: Int, of: Int)
    /// A straight line between a bottom edge and a top edge.
    case straight
    /// Through the gap below its layer: past a box in its own layer.
    case under
    /// Through the gaps and the channel left of the boxes: past boxes in the layers between.
    case around(channel: Int)
  }

  struct Placed {
    let arrow: ArchitectureDiagram.Arrow
    let from: (layer: Int, column: Int)
    let to: (layer: Int, column: Int)
    var route: Route
    var points: [(x: Double, y: Double)] = []
    /// The label's baseline start, and whether it is centred there.
    var labelAt: (x: Double, y: Double, centred: Bool)?
  }

  let diagram: ArchitectureDiagram
  var boxes: [[Rect]] = []
  var bands: [Rect] = []
  var placed: [Placed] = []
  var width = 0.0
  var height = 0.0
  var nameX = 0.0
  var notesTop = 0.0

  init(_ diagram: ArchitectureDiagram) {
    self.diagram = diagram
    // Every arrow between layers starts straight; one that crosses a box is routed around, and
    // the layout is made again (the gaps it needs move the boxes), until none crosses a box.
    var around: Set<Int> = []
    while true {
      layOut(around: around)
      let blocked = blockedArrows()
      if blocked.isEmpty || blocked.isSubset(of: around) { break }
      around.formUnion(blocked)
    }
  }

  /// The straight arrows that pass through a box of a layer between their two ends.
  private func blockedArrows() -> Set<Int> {
    var found: Set<Int> = []
    for (i, item) in placed.enumerated() {
      guard case .straight = item.route, item.points.count == 2 else { continue }
      let between = (min(item.from.layer, item.to.layer) + 1)..<max(item.from.layer, item.to.layer)
      let crosses = between.contains { l in
        boxes[l].contains { box in
          let padded = Rect(x: box.x - 6, y: box.y - 6, width: box.width + 12, height: box.height + 12)
          return Self.segment(item.points[0], item.points[1], crosses: padded)
        }
      }
      if crosses { found.insert(i) }
    }
    return found
  }

  // MARK: - Layout

  private mutating func layOut(around: Set<Int>) {
    placed = []
    let layers = diagram.layers
    let boxTexts = layers.flatMap(\.boxes).map { box in
      max(Self.textWidth(box.title, bold: true), (box.lines ?? []).map { Self.textWidth($0) }.max() ?? 0)
    }
    let boxWidth = max(Self.minimumBoxWidth, (boxTexts.max() ?? 0) + 2 * Self.boxPadding).rounded(.up)
    let nameColumn = (layers.map { Self.textWidth($0.name, bold: true) }.max() ?? 0).rounded(.up) + 2 * Self.namePadding

    // Classify each arrow, in the order of the description.
    var channels = 0
    for arrow in diagram.arrows {
      guard let from = diagram.place(of: arrow.from), let to = diagram.place(of: arrow.to) else { continue }
      let route: Route
      if from.layer == to.layer {
        route = abs(from.column - to.column) == 1 ? .side(index: 0, of: 1) : .under
      } else {
        route = .straight  // settled below, once the boxes are placed
      }
      placed.append(Placed(arrow: arrow, from: (from.layer, from.column), to: (to.layer, to.column), route: route))
    }
    // Arrows between the same two neighbours are spread apart.
    for i in placed.indices {
      guard case .side = placed[i].route else { continue }
      let pair = Set([placed[i].from.column, placed[i].to.column])
      let same = placed.indices.filter {
        guard case .side = placed[$0].route else { return false }
        return placed[$0].from.layer == placed[i].from.layer && Set([placed[$0].from.column, placed[$0].to.column]) == pair
      }
      placed[i].route = .side(index: same.firstIndex(of: i) ?? 0, of: same.count)
    }
    let sideLabels = placed.compactMap { item -> Double? in
      guard case .side = item.route, let label = item.arrow.label else { return nil }
      return Self.textWidth(label)
    }
    let gap = max(Self.minimumGap, ((sideLabels.max() ?? 0) + 20).rounded(.up))
    let widest = Double(layers.map(\.boxes.count).max() ?? 1)
    let rowsWidth = widest * boxWidth + (widest - 1) * gap

    func columns(channelWidth: Double) -> (left: Double, xs: [[Double]]) {
      let left = Self.margin + nameColumn + channelWidth + Self.bandPadding
      let xs = layers.map { layer -> [Double] in
        let count = Double(layer.boxes.count)
        let start = left + (rowsWidth - (count * boxWidth + (count - 1) * gap)) / 2
        return layer.boxes.indices.map { start + Double($0) * (boxWidth + gap) }
      }
      return (left, xs)
    }
    let heights = layers.map { layer in
      Self.boxTitleBaseline + Double(layer.boxes.map { ($0.lines ?? []).count }.max() ?? 0) * Self.lineStep + Self.boxBottomPadding
    }
    func rows(gaps: [Double]) -> [Double] {
      var tops: [Double] = []
      var y = Self.firstBandTop
      for (l, height) in heights.enumerated() {
        tops.append(y)
        y += height + 2 * Self.bandPadding + gaps[l]
      }
      return tops
    }
    for i in placed.indices where around.contains(i) {
      placed[i].route = .around(channel: channels)
      channels += 1
    }
    let channelWidth = channels == 0 ? 0 : Double(channels) * Self.channelStep + 4
    let (left, xs) = columns(channelWidth: channelWidth)
    let channelX = { (channel: Int) in Self.margin + nameColumn + 4 + Double(channel) * Self.channelStep }

    // The gaps: below layer l sit, top to bottom, the lanes of arrows going up, the label slots,
    // the lanes of arrows going down and of arrows passing under their own layer.
    var lanesUp = Array(repeating: 0, count: layers.count)
    var slots = Array(repeating: 0, count: layers.count)
    var lanesDown = Array(repeating: 0, count: layers.count)
    var assigned: [(sourceGap: Int?, slot: Int?, sourceLane: Int?, targetLane: Int?)] = []
    for item in placed {
      var entry: (sourceGap: Int?, slot: Int?, sourceLane: Int?, targetLane: Int?) = (nil, nil, nil, nil)
      switch item.route {
      case .side:
        break
      case .under:
        let g = item.from.layer
        entry.sourceGap = g
        if item.arrow.label != nil {
          entry.slot = slots[g]
          slots[g] += 1
        }
        entry.sourceLane = lanesDown[g]
        lanesDown[g] += 1
      case .straight, .around:
        let down = item.from.layer < item.to.layer
        let g = down ? item.from.layer : item.from.layer - 1
        entry.sourceGap = g
        if item.arrow.label != nil {
          entry.slot = slots[g]
          slots[g] += 1
        }
        if case .around = item.route {
          let t = down ? item.to.layer - 1 : item.to.layer
          if down {
            entry.sourceLane = lanesDown[g]
            lanesDown[g] += 1
            entry.targetLane = lanesDown[t]
            lanesDown[t] += 1
          } else {
            entry.sourceLane = lanesUp[g]
            lanesUp[g] += 1
            entry.targetLane = lanesUp[t]
            lanesUp[t] += 1
          }
        }
      }
      assigned.append(entry)
    }
    let gaps = layers.indices.map { l -> Double in
      let content =
        Double(slots[l]) * Self.slotHeight + Double(lanesUp[l] + lanesDown[l]) * Self.laneStep
      let needed = content == 0 ? 0 : content + 2 * Self.gapPadding
      return l == layers.count - 1 ? needed : max(Self.minimumLayerGap, needed)
    }
    let tops = rows(gaps: gaps)
    let gapTop = { (l: Int) in tops[l] + heights[l] + 2 * Self.bandPadding }
    func slotBaseline(_ l: Int, _ slot: Int) -> Double {
      gapTop(l) + Self.gapPadding + Double(lanesUp[l]) * Self.laneStep + Double(slot) * Self.slotHeight + 12
    }
    func laneUpY(_ l: Int, _ lane: Int) -> Double { gapTop(l) + Self.gapPadding + (Double(lane) + 0.5) * Self.laneStep }
    func laneDownY(_ l: Int, _ lane: Int) -> Double {
      gapTop(l) + Self.gapPadding + Double(lanesUp[l]) * Self.laneStep + Double(slots[l]) * Self.slotHeight
        + (Double(lane) + 0.5) * Self.laneStep
    }

    boxes = layers.indices.map { l in
      xs[l].map { Rect(x: $0, y: tops[l] + Self.bandPadding, width: boxWidth, height: heights[l]) }
    }
    nameX = Self.margin + Self.namePadding
    let bandRight = left + rowsWidth + Self.bandPadding

    // Where each arrow leaves and enters its boxes: the ends on one edge are spread along it, in
    // the order of the boxes at their other ends, so that arrows do not cross near a box.
    enum Edge: Hashable {
      case top, bottom
    }
    struct End: Hashable {
      let layer: Int
      let column: Int
      let edge: Edge
    }
    var ends: [End: [(arrow: Int, order: Double)]] = [:]
    for (i, item) in placed.enumerated() {
      let fromX = xs[item.from.layer][item.from.column]
      let toX = xs[item.to.layer][item.to.column]
      switch item.route {
      case .side:
        continue
      case .under:
        ends[End(layer: item.from.layer, column: item.from.column, edge: .bottom), default: []].append((i, toX))
        ends[End(layer: item.to.layer, column: item.to.column, edge: .bottom), default: []].append((i, fromX))
      case .straight, .around:
        let down = item.from.layer < item.to.layer
        let isAround: Bool
        if case .around = item.route { isAround = true } else { isAround = false }
        ends[End(layer: item.from.layer, column: item.from.column, edge: down ? .bottom : .top), default: []].append(
          (i, isAround ? -Double.infinity : toX))
        ends[End(layer: item.to.layer, column: item.to.column, edge: down ? .top : .bottom), default: []].append(
          (i, isAround ? -Double.infinity : fromX))
      }
    }
    var attach: [End: [Int: Double]] = [:]
    for (end, list) in ends {
      let box = boxes[end.layer][end.column]
      let sorted = list.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }
      for (k, entry) in sorted.enumerated() {
        attach[end, default: [:]][entry.element.arrow] = box.x + box.width * Double(k + 1) / Double(sorted.count + 1)
      }
    }
    func point(_ i: Int, _ layer: Int, _ column: Int, _ edge: Edge) -> (x: Double, y: Double) {
      let box = boxes[layer][column]
      return (attach[End(layer: layer, column: column, edge: edge)]?[i] ?? box.midX, edge == .top ? box.y : box.maxY)
    }

    var contentRight = bandRight
    for i in placed.indices {
      let item = placed[i]
      let entry = assigned[i]
      let labelWidth = item.arrow.label.map { Self.textWidth($0) } ?? 0
      switch item.route {
      case .side(let index, let count):
        let a = boxes[item.from.layer][item.from.column]
        let b = boxes[item.to.layer][item.to.column]
        let y = a.midY + (Double(index) - Double(count - 1) / 2) * 14
        let rightwards = a.x < b.x
        placed[i].points = [(rightwards ? a.maxX : a.x, y), (rightwards ? b.x : b.maxX, y)]
        let middle = ((rightwards ? a.maxX : b.maxX) + (rightwards ? b.x : a.x)) / 2
        placed[i].labelAt = (middle, index % 2 == 0 ? y - 5 : y + 14, true)
      case .under:
        let start = point(i, item.from.layer, item.from.column, .bottom)
        let end = point(i, item.to.layer, item.to.column, .bottom)
        let lane = laneDownY(item.from.layer, entry.sourceLane ?? 0)
        placed[i].points = [start, (start.x, lane), (end.x, lane), end]
        if let slot = entry.slot {
          placed[i].labelAt = (start.x + Self.labelOffset, slotBaseline(item.from.layer, slot), false)
        }
      case .straight:
        let down = item.from.layer < item.to.layer
        let start = point(i, item.from.layer, item.from.column, down ? .bottom : .top)
        let end = point(i, item.to.layer, item.to.column, down ? .top : .bottom)
        placed[i].points = [start, end]
        if let slot = entry.slot, let g = entry.sourceGap {
          let y = slotBaseline(g, slot)
          func xAt(_ y: Double) -> Double { start.x + (end.x - start.x) * (y - start.y) / (end.y - start.y) }
          placed[i].labelAt = (max(xAt(y - 10), xAt(y + 4)) + Self.labelOffset, y, false)
        }
      case .around(let channel):
        let down = item.from.layer < item.to.layer
        let start = point(i, item.from.layer, item.from.column, down ? .bottom : .top)
        let end = point(i, item.to.layer, item.to.column, down ? .top : .bottom)
        let g = entry.sourceGap ?? 0
        let t = down ? item.to.layer - 1 : item.to.layer
        let first = down ? laneDownY(g, entry.sourceLane ?? 0) : laneUpY(g, entry.sourceLane ?? 0)
        let last = down ? laneDownY(t, entry.targetLane ?? 0) : laneUpY(t, entry.targetLane ?? 0)
        let x = channelX(channel)
        placed[i].points = [start, (start.x, first), (x, first), (x, last), (end.x, last), end]
        if let slot = entry.slot {
          placed[i].labelAt = (start.x + Self.labelOffset, slotBaseline(g, slot), false)
        }
      }
      if let at = placed[i].labelAt {
        contentRight = max(contentRight, at.centred ? at.x + labelWidth / 2 : at.x + labelWidth)
      }
    }

    // The width: the widest of the bands (with the labels), the title and the notes.
    let notes = diagram.notes ?? []
    let textRight = max(
      Self.textWidth(diagram.title, bold: true, size: Self.titleSize) + Self.margin,
      (notes.map { Self.textWidth($0) }.max() ?? 0) + Self.margin)
    width = (max(contentRight, textRight) + Self.margin).rounded(.up)
    // When the title or a note is wider than the boxes and their labels, these move to the middle
    // of the room right of the layer names.
    let shift = ((width - Self.margin - contentRight) / 2).rounded(.down)
    if shift > 0 {
      for l in boxes.indices {
        for c in boxes[l].indices { boxes[l][c].x += shift }
      }
      for i in placed.indices {
        placed[i].points = placed[i].points.map { ($0.x + shift, $0.y) }
        placed[i].labelAt?.x += shift
      }
    }
    bands = layers.indices.map { l in
      Rect(x: Self.margin, y: tops[l], width: width - 2 * Self.margin, height: heights[l] + 2 * Self.bandPadding)
    }
    let bottom = (tops.last ?? Self.firstBandTop) + (heights.last ?? 0) + 2 * Self.bandPadding + (gaps.last ?? 0)
    notesTop = bottom
    height = (bottom + Double(notes.count) * Self.noteStep + (notes.isEmpty ? 0 : 8) + Self.margin).rounded(.up)
  }

  /// Whether the segment from `a` to `b` passes through `rect`.
  static func segment(_ a: (Double, Double), _ b: (Double, Double), crosses rect: Rect) -> Bool {
    // Clip the segment to the rectangle's vertical extent, then compare the x range it covers there.
    let (ax, ay) = a
    let (bx, by) = b
    guard ay != by else { return ay >= rect.y && ay <= rect.maxY && max(ax, bx) >= rect.x && min(ax, bx) <= rect.maxX }
    let t0 = max(0, min(1, (rect.y - ay) / (by - ay)))
    let t1 = max(0, min(1, (rect.maxY - ay) / (by - ay)))
    let (lo, hi) = (min(t0, t1), max(t0, t1))
    let yLo = ay + (by - ay) * lo
    let yHi = ay + (by - ay) * hi
    guard max(yLo, yHi) >= rect.y, min(yLo, yHi) <= rect.maxY, hi > lo else { return false }
    let x0 = ax + (bx - ax) * lo
    let x1 = ax + (bx - ax) * hi
    return max(x0, x1) >= rect.x && min(x0, x1) <= rect.maxX
  }

  // MARK: - Drawing

  var svg: String {
    let w = Self.number(width)
    let h = Self.number(height)
    var out = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(w)" height="\(h)" viewBox="0 0 \(w) \(h)" font-family="Helvetica, Arial, sans-serif" font-size="12">
      <defs><marker id="arrowhead" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M 0 0 L 10 5 L 0 10 z" fill="\(Self.ink)"/></marker></defs>
      <rect width="100%" height="100%" fill="white"/>
      <text x="\(Self.number(width / 2))" y="\(Self.number(Self.titleBaseline))" text-anchor="middle" font-size="15" font-weight="bold">\(Self.escape(diagram.title))</text>

      """
    for (l, layer) in diagram.layers.enumerated() {
      let band = bands[l]
      out +=
        "<rect x=\"\(Self.number(band.x))\" y=\"\(Self.number(band.y))\" width=\"\(Self.number(band.width))\" height=\"\(Self.number(band.height))\" "
        + "fill=\"\(Self.bandFill)\" stroke=\"\(Self.bandStroke)\"/>\n"
      out +=
        "<text x=\"\(Self.number(nameX))\" y=\"\(Self.number(band.midY))\" dominant-baseline=\"middle\" font-weight=\"bold\" fill=\"\(Self.ink)\">"
        + "\(Self.escape(layer.name))</text>\n"
      for (b, box) in layer.boxes.enumerated() {
        let rect = boxes[l][b]
        // A box with fewer lines than the tallest of its layer has its text centred in it.
        let lines = box.lines ?? []
        let own = Self.boxTitleBaseline + Double(lines.count) * Self.lineStep + Self.boxBottomPadding
        let top = rect.y + ((rect.height - own) / 2).rounded()
        out +=
          "<rect x=\"\(Self.number(rect.x))\" y=\"\(Self.number(rect.y))\" width=\"\(Self.number(rect.width))\" height=\"\(Self.number(rect.height))\" "
          + "rx=\"4\" fill=\"white\" stroke=\"\(Self.boxStroke)\" stroke-width=\"1.5\"/>\n"
        out +=
          "<text x=\"\(Self.number(rect.midX))\" y=\"\(Self.number(top + Self.boxTitleBaseline))\" text-anchor=\"middle\" font-weight=\"bold\">"
          + "\(Self.escape(box.title))</text>\n"
        for (n, line) in lines.enumerated() {
          let y = top + Self.boxTitleBaseline + Double(n + 1) * Self.lineStep
          out +=
            "<text x=\"\(Self.number(rect.midX))\" y=\"\(Self.number(y))\" text-anchor=\"middle\" fill=\"\(Self.ink)\">\(Self.escape(line))</text>\n"
        }
      }
    }
    for item in placed {
      let points = item.points.map { "\(Self.number($0.x)),\(Self.number($0.y))" }.joined(separator: " ")
      out +=
        "<polyline points=\"\(points)\" fill=\"none\" stroke=\"\(Self.ink)\" stroke-width=\"1.5\" marker-end=\"url(#arrowhead)\"/>\n"
    }
    // The labels go over every arrow, each on a white halo, so that a line crossing one does not
    // cross its letters.
    for item in placed {
      guard let label = item.arrow.label, let at = item.labelAt else { continue }
      out +=
        "<text x=\"\(Self.number(at.x))\" y=\"\(Self.number(at.y))\"\(at.centred ? " text-anchor=\"middle\"" : "") fill=\"\(Self.ink)\" "
        + "stroke=\"white\" stroke-width=\"4\" stroke-linejoin=\"round\" paint-order=\"stroke\">\(Self.escape(label))</text>\n"
    }
    for (n, note) in (diagram.notes ?? []).enumerated() {
      let y = notesTop + 8 + Double(n + 1) * Self.noteStep
      out += "<text x=\"\(Self.number(Self.margin))\" y=\"\(Self.number(y))\" fill=\"\(Self.ink)\">\(Self.escape(note))</text>\n"
    }
    out += "</svg>\n"
    return out
  }

  // MARK: - Text

  /// `text` for an SVG text node or attribute value.
  static func escape(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      default: out.append(character)
      }
    }
    return out
  }

  /// A coordinate with at most one decimal and no locale: `12`, `12.5`.
  static func number(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    let magnitude = abs(tenths)
    return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
  }

  /// How wide `text` is drawn at `size`, with room to spare: Helvetica's widths (Arial's and
  /// Liberation Sans's are the same), and a tenth more (a fifth in bold) for the sans serif drawn
  /// where none of those is installed, DejaVu Sans on many Linux systems, which is that much wider.
  static func textWidth(_ text: String, bold: Bool = false, size: Double = fontSize) -> Double {
    let table = bold ? helveticaBold : helvetica
    var units = 0
    for scalar in text.unicodeScalars {
      let value = Int(scalar.value)
      if value >= 32 && value < 127 {
        units += table[value - 32]
      } else if value < 0x300 {
        units += 600  // accented Latin letters: about a lower-case letter's width, a little over
      } else if (0x300..<0x370).contains(value) || (0xFE00..<0xFE10).contains(value) || value == 0x200D {
        continue  // combining marks and joiners take no room of their own
      } else {
        units += 1_000  // dashes, ellipses, arrows, CJK and emoji: a whole em
      }
    }
    return Double(units) * size / 1_000 * (bold ? 1.2 : 1.1)
  }

  /// The advance widths of the printable ASCII characters (32–126) in thousandths of an em, from
  /// Adobe's Helvetica font metrics (the Core 14 AFM files).
  static let helvetica = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
  ]

  /// The same for Helvetica Bold.
  static let helveticaBold = [
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
    975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
    333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
    611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
  ]
}
