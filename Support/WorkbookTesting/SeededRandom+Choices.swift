/// The draws a model-based test's generator makes most: one of a few values, an input at a
/// stated limit or next to it, and a string that a file format or a URL must escape.
extension SeededRandom {
  /// One of `choices`, each as likely.
  public mutating func pick<Element>(_ choices: [Element]) -> Element {
    choices[Int.random(in: 0..<choices.count, using: &self)]
  }

  /// True with probability `percent` / 100.
  public mutating func chance(_ percent: Int) -> Bool {
    Int.random(in: 0..<100, using: &self) < percent
  }

  /// A value at `limit` or next to it (one below, at, one past), or 0, or 1: where an
  /// off-by-one in a limit shows.
  public mutating func boundary(_ limit: Int) -> Int {
    pick([0, 1, max(0, limit - 1), limit, limit + 1])
  }

  /// A short string a careless encoder gets wrong: quotes, a backslash, a slash, a newline, a NUL,
  /// percent signs and ampersands, letters outside ASCII (one made of two scalars), or nothing.
  public mutating func awkwardString() -> String {
    pick(["", "plain", "a\"quote", "back\\slash", "a/b", "line\nbreak", "nul\u{0}byte", "100%&x=1", "é", "e\u{301}", "👩‍💻", " "])
  }
}
