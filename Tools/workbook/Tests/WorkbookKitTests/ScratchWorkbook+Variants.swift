extension ScratchWorkbook {
  /// Chapter 7's variants: five other correct ways to write the counters, as many as
  /// `workbook check` asks of a chapter.
  static let chapter7Variants: [(String, String)] = [
    variant(
      "01-assigns-the-sum", title: "the counter assigns the sum", why: "`+=` or a plain assignment, as you like",
      file: "Counter.swift", answer: "    value += 1", with: "    value = value + 1"),
    variant(
      "02-if-instead-of-guard", title: "an if instead of a guard", why: "the early return may be written either way",
      file: "Counter.swift", answer: "    guard value < Limits.maximum else { return }",
      with: "    if value >= Limits.maximum { return }"),
    variant(
      "03-clamps-with-min", title: "the counter clamps with min", why: "the limit is a clamp as much as a guard",
      file: "Counter.swift", answer: "    guard value < Limits.maximum else { return }\n    value += 1",
      with: "    value = min(value + 1, Limits.maximum)"),
    variant(
      "04-second-first", title: "the total adds the second first", why: "addition commutes",
      file: "Pair.swift", answer: "first.value + second.value", with: "second.value + first.value"),
    variant(
      "05-reduces-the-pair", title: "the total reduces both counters", why: "a sum over a list reads the same",
      file: "Pair.swift", answer: "first.value + second.value", with: "[first, second].reduce(0) { $0 + $1.value }"),
  ]

  /// A variant file of chapter 7 with one block.
  static func variant(
    _ name: String, title: String, why: String, file: String, answer: String, with replacement: String
  ) -> (String, String) {
    (
      "Chapters/07-counters/variants/\(name).variant",
      "title: \(title)\nwhy: \(why)\nfile: \(file)\n<<<<<<< answer\n\(answer)\n=======\n\(replacement)\n>>>>>>> variant\n"
    )
  }
}
