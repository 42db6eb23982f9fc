import Foundation

extension ConnectionInput {
  /// Reads a chunked body and returns it decoded (RFC 9112 §7.1): chunks of
  /// `size-in-hex [;extensions] CRLF data CRLF`, then `0 CRLF`, optional trailer fields and an
  /// empty line.
  ///
  /// The limits apply to the decoded total, whatever the chunk sizes claim: a chunk size is never
  /// trusted to allocate memory, a size too large to represent is refused rather than wrapped, and
  /// trailers count against the same budget as headers. Extensions and trailers are read and
  /// dropped, as RFC 9112 §7.1.1 and RFC 9110 §6.5.1 allow.
  mutating func chunkedBody(limits: PracticeServer.Limits, until deadline: ContinuousClock.Instant) throws(RequestError) -> Data {
    var body = Data()
    while true {
      let line = try line(
        maximumLength: 1_024, tooLong: RequestError(400, "a chunk-size line is longer than 1024 bytes (RFC 9112 §7.1)"), until: deadline)
      let digitCount = line.prefix { ASCII.hexValue($0) != nil }.count
      guard digitCount > 0 else { throw RequestError(400, "a chunk must start with its size in hexadecimal (RFC 9112 §7.1)") }
      let afterSize = line.dropFirst(digitCount).drop { $0 == ASCII.space || $0 == ASCII.tab }
      guard afterSize.isEmpty || afterSize.first == ASCII.semicolon else {
        throw RequestError(400, "a chunk size is followed by something other than an extension (RFC 9112 §7.1.1)")
      }
      // Every size up to Int.max is read (and then refused as too large, 413); one more digit's
      // worth is caught before the multiplication that would overflow and trap.
      var size = 0
      for digit in line.prefix(digitCount) {
        let (shifted, overflow) = size.multipliedReportingOverflow(by: 16)
        guard !overflow else { throw RequestError(400, "a chunk size does not fit in a signed 64-bit integer (RFC 9112 §7.1)") }
        size = shifted + (ASCII.hexValue(digit) ?? 0)
      }
      guard size <= limits.maximumBodyBytes - body.count else {
        throw RequestError(413, "the chunked body is larger than this server's limit of \(limits.maximumBodyBytes) bytes")
      }
      if size == 0 { break }
      body.append(try take(size, until: deadline))
      guard try take(2, until: deadline) == Data([ASCII.cr, ASCII.lf]) else {
        throw RequestError(400, "a chunk's data must be followed by CRLF: its size was wrong (RFC 9112 §7.1)")
      }
    }
    var trailerBytes = 0
    let tooLarge = RequestError(431, "the trailer fields are longer than \(limits.maximumHeaderBytes) bytes (RFC 6585 §5)")
    while true {
      let field = try line(maximumLength: limits.maximumHeaderBytes, tooLong: tooLarge, until: deadline)
      if field.isEmpty { return body }
      trailerBytes += field.count + 2
      guard trailerBytes <= limits.maximumHeaderBytes else { throw tooLarge }
    }
  }
}
