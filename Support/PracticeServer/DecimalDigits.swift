/// A non-negative decimal number as HTTP writes one: `1*DIGIT` and nothing else.
///
/// Swift's `Int(_:)` accepts a sign (`-5`, `+5`) and answers nil both for `12abc` and for a number
/// too large for an `Int`; a server has to tell those apart. A Content-Length of 2^70 is not "no
/// length" and not 0: it is a length this server cannot represent, and saying so (400) is the
/// only answer that keeps both ends agreeing on where the message ends (RFC 9112 §6.3).
enum DecimalDigits {
  enum Parsed: Equatable {
    case value(Int)
    /// Only digits, but more than `Int.max`.
    case tooLarge
    /// Empty, or something other than digits.
    case invalid
  }

  static func parse(_ text: some Collection<UInt8>) -> Parsed {
    guard !text.isEmpty else { return .invalid }
    var value = 0
    var overflowed = false
    for byte in text {
      guard ASCII.isDigit(byte) else { return .invalid }
      if overflowed { continue }
      let (times10, overflowA) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowB) = times10.addingReportingOverflow(Int(byte - 0x30))
      overflowed = overflowA || overflowB
      value = sum
    }
    return overflowed ? .tooLarge : .value(value)
  }

  static func parse(_ text: some StringProtocol) -> Parsed { parse(Array(text.utf8)) }
}
