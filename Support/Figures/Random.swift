import WorkbookTesting

/// The figures draw from `SeededRandom` (SplitMix64 with a fixed seed), so every run draws the
/// same numbers on every platform; the standard library's generator is seeded by the system.
extension SeededRandom {
  /// A uniform value in `0..<1` from the top 53 bits.
  mutating func unit() -> Double {
    Double(next() >> 11) / Double(1 << 53)
  }
}
