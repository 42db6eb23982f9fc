/// A small seeded generator (SplitMix64) for the server's seeded chaos: the same seed gives the
/// same numbers in the same order on every platform, so a run of faults can be replayed.
///
/// The tests' `SeededRandom` is the same algorithm; the server cannot depend on the test support
/// module, so it keeps its own copy.
struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (`bound` > 0): the remainder, as the workbook's simulations draw, so
  /// that a replay in a test draws exactly what the server drew.
  mutating func below(_ bound: Int) -> Int {
    Int(next() % UInt64(bound))
  }
}
