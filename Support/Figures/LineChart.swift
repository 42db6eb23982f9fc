/// A small, dependency-free SVG line chart.
///
/// The output is byte-for-byte deterministic: numbers are printed with fixed precision, series
/// keep their order, and nothing depends on the date, locale or machine. So `make figures` run
/// twice gives identical files, and a check can compare the committed figures with fresh ones.
struct LineChart {
  struct Series {
    let name: String
    let color: String
    let points: [(x: Double, y: Double)]
    /// An SVG `stroke-dasharray` such as "6 4"; nil draws a solid line.
    var dash: String? = nil
  }

  var title: String
  var xLabel: String
  var yLabel: String
  var series: [Series]
  var width = 720.0
  var height = 400.0
  /// Fixed axis ranges; nil fits the data (from zero).
  var yMaximum: Double?
  var xMaximum: Double?

  private let left = 70.0
  private let right = 170.0
  private let top = 40.0
  private let bottom = 50.0

  func svg() -> String {
    let allX = series.flatMap { $0.points.map(\.x) }
    let allY = series.flatMap { $0.points.map(\.y) }
    let maxX = xMaximum ?? niceCeiling(allX.max() ?? 1)
    let maxY = yMaximum ?? niceCeiling(allY.max() ?? 1)
    let plotWidth = width - left - right
    let plotHeight = height - top - bottom
    func px(_ x: Double) -> String { fixed(left + x / maxX * plotWidth) }
    func py(_ y: Double) -> String { fixed(top + plotHeight - min(y, maxY) / maxY * plotHeight) }

    var out = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(fixed(width))" height="\(fixed(height))" viewBox="0 0 \(fixed(width)) \(fixed(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
      <rect width="100%" height="100%" fill="white"/>
      <text x="\(fixed(width / 2))" y="22" text-anchor="middle" font-size="15" font-weight="bold">\(escape(title))</text>

      """
    // Grid and ticks: five steps on each axis.
    for step in 0...5 {
      let y = maxY * Double(step) / 5
      out += "<line x1=\"\(fixed(left))\" y1=\"\(py(y))\" x2=\"\(fixed(left + plotWidth))\" y2=\"\(py(y))\" stroke=\"#e5e5e5\"/>\n"
      out += "<text x=\"\(fixed(left - 8))\" y=\"\(py(y))\" text-anchor=\"end\" dominant-baseline=\"middle\">\(label(y))</text>\n"
      let x = maxX * Double(step) / 5
      out += "<text x=\"\(px(x))\" y=\"\(fixed(top + plotHeight + 18))\" text-anchor=\"middle\">\(label(x))</text>\n"
    }
    out +=
      "<line x1=\"\(fixed(left))\" y1=\"\(fixed(top + plotHeight))\" x2=\"\(fixed(left + plotWidth))\" y2=\"\(fixed(top + plotHeight))\" stroke=\"#333\"/>\n"
    out += "<line x1=\"\(fixed(left))\" y1=\"\(fixed(top))\" x2=\"\(fixed(left))\" y2=\"\(fixed(top + plotHeight))\" stroke=\"#333\"/>\n"
    out += "<text x=\"\(fixed(left + plotWidth / 2))\" y=\"\(fixed(height - 10))\" text-anchor=\"middle\">\(escape(xLabel))</text>\n"
    out += "<text transform=\"translate(16 \(fixed(top + plotHeight / 2))) rotate(-90)\" text-anchor=\"middle\">\(escape(yLabel))</text>\n"

    for (index, line) in series.enumerated() {
      let path = line.points.map { "\(px($0.x)),\(py($0.y))" }.joined(separator: " ")
      let dash = line.dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
      out += "<polyline fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"1.8\"\(dash) points=\"\(path)\"/>\n"
      let legendY = top + 10 + Double(index) * 20
      out +=
        "<line x1=\"\(fixed(width - right + 15))\" y1=\"\(fixed(legendY))\" x2=\"\(fixed(width - right + 35))\" y2=\"\(fixed(legendY))\" stroke=\"\(line.color)\" stroke-width=\"3\"\(dash)/>\n"
      out += "<text x=\"\(fixed(width - right + 40))\" y=\"\(fixed(legendY))\" dominant-baseline=\"middle\">\(escape(line.name))</text>\n"
    }
    out += "</svg>\n"
    return out
  }

  /// The smallest of 1, 2 or 5 × 10ⁿ that is at least `value`.
  private func niceCeiling(_ value: Double) -> Double {
    guard value > 0 else { return 1 }
    var magnitude = 1.0
    while magnitude * 10 <= value { magnitude *= 10 }
    while magnitude > value { magnitude /= 10 }
    for factor in [1.0, 2.0, 5.0, 10.0] where factor * magnitude >= value {
      return factor * magnitude
    }
    return 10 * magnitude
  }

  private func label(_ value: Double) -> String {
    if value == value.rounded() { return String(Int(value)) }
    return fixed(value)
  }
}

/// A number with two decimals and no locale: the same text on every machine.
func fixed(_ value: Double) -> String {
  let scaled = Int((value * 100).rounded())
  let sign = scaled < 0 ? "-" : ""
  let magnitude = abs(scaled)
  let fraction = magnitude % 100
  return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}

func escape(_ text: String) -> String {
  text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    .replacingOccurrences(of: ">", with: "&gt;")
}
