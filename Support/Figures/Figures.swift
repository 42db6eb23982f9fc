/// One chart and where it goes.
struct Figure {
  let chapter: String
  let name: String
  let chart: LineChart
}

/// Every figure whose chapter is part of this build.
func allFigures() -> [Figure] {
  let figures: [Figure] = []
  return figures
}
