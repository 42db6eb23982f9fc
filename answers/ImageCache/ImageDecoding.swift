// Exercise 1 — Image values from headers (beginner)
//
// A cache needs two numbers about an image before it decodes a single pixel: its width and its
// height, because decoded memory is width × height × 4 bytes whatever the file size. Read them
// from the PNG, GIF and JPEG headers in `HeaderImageDecoder.decode(_:)`, and make
// `DecodedImage.cost` width × height × 4, saturating. Never trap on bad input: data that starts
// like one of the three formats but whose bytes run out too early (a strict prefix of a
// signature, or a header cut short) is `.truncated`; data that matches no signature, empty data
// included, is `.notAnImage`, and so is a JPEG that reaches its end-of-image (FF D9) or
// start-of-scan (FF DA) marker before any frame header; absurd dimensions are typed errors too.
import Foundation
import Workbook

/// The container formats the header decoder understands.
public nonisolated enum ImageFormat: String, Sendable, Hashable, CaseIterable {
  case png, jpeg, gif
}

/// A platform-neutral image: the encoded bytes plus what a cache must know about them.
///
/// Graded code never touches UIKit, so the "image" is a value that runs everywhere. An app wraps
/// a `UIImage` or `CGImage` the same way; only `cost` matters to the cache.
public nonisolated struct DecodedImage: Sendable, Hashable {
  public let format: ImageFormat
  public let width: Int
  public let height: Int
  /// The encoded file, exactly as it came from the network or the disk.
  public let bytes: Data

  public init(format: ImageFormat, width: Int, height: Int, bytes: Data) {
    self.format = format
    self.width = width
    self.height = height
    self.bytes = bytes
  }

  /// Bytes the decoded bitmap occupies: width × height × 4 (RGBA, 8 bits per channel).
  ///
  /// This, not `bytes.count`, is what an image costs in memory: a 40 KB JPEG of 3000 × 2000
  /// pixels decodes to 24 MB. Saturates instead of overflowing, so hostile headers cannot trap.
  public var cost: Int {
    let (pixels, overflow1) = width.multipliedReportingOverflow(by: height)
    let (total, overflow2) = pixels.multipliedReportingOverflow(by: 4)
    return overflow1 || overflow2 ? Int.max : total
  }
}

/// Why data could not be turned into a `DecodedImage`.
public nonisolated enum ImageDecodingError: Error, Equatable, Sendable {
  /// The data starts like an image but ends before the dimensions.
  case truncated
  /// The data is not a PNG, JPEG or GIF at all (an HTML error page, JSON, garbage).
  case notAnImage
  /// The header says 0 × something: nothing to draw, and a divide-by-zero waiting to happen.
  case invalidDimensions(width: Int, height: Int)
  /// More pixels than the decoder accepts: decoding it would exhaust memory on a phone.
  case tooLarge(width: Int, height: Int)
}

/// Turns encoded bytes into a `DecodedImage`. Pluggable so an app can use ImageIO or UIKit while
/// the graded code and its tests stay platform-neutral.
public nonisolated protocol ImageDecoder: Sendable {
  /// Decodes `data`, throwing `ImageDecodingError` for anything that is not a usable image.
  func decode(_ data: Data) throws -> DecodedImage
}

/// Reads the dimensions from the first bytes of a PNG, GIF or JPEG file: PNG and GIF at fixed
/// offsets, JPEG by walking segment headers up to the first frame header.
///
/// The rules, byte by byte:
/// - PNG: the signature, then the first chunk must be `IHDR` with a length of 13 (PNG
///   specification, §11.2.2); anything else there is `.notAnImage`. Width and height are the next
///   two big-endian 32-bit numbers.
/// - JPEG (ITU-T T.81, annex B): a marker is one or more `0xFF` fill bytes, then the marker code.
///   SOI (`D8`), TEM (`01`) and the restart markers RST0–RST7 (`D0`–`D7`) have no length field
///   and are stepped over; every other segment has a two-byte length that counts itself, so a
///   length under 2 is `.notAnImage` (it could never move the walk forward). The frame headers are
///   `C0`–`CF` except `C4` (Huffman tables), `C8` (reserved) and `CC` (arithmetic coding).
public nonisolated struct HeaderImageDecoder: ImageDecoder {
  /// Images with more pixels than this are refused with `.tooLarge`. The initializer's default
  /// decodes to 200 MB, more than a low-end phone gives an app.
  public let maximumPixelCount: Int

  public init(maximumPixelCount: Int = 50_000_000) {
    self.maximumPixelCount = maximumPixelCount
  }

  public func decode(_ data: Data) throws -> DecodedImage {
    let bytes = [UInt8](data)
    let (format, width, height) = try dimensions(of: bytes)
    guard width > 0, height > 0 else { throw ImageDecodingError.invalidDimensions(width: width, height: height) }
    let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
    guard !overflow, pixels <= maximumPixelCount else { throw ImageDecodingError.tooLarge(width: width, height: height) }
    return DecodedImage(format: format, width: width, height: height, bytes: data)
  }

  private func dimensions(of bytes: [UInt8]) throws -> (ImageFormat, Int, Int) {
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    if startsWith(bytes, png) { return try pngDimensions(bytes) }
    if startsWith(bytes, Array("GIF87a".utf8)) || startsWith(bytes, Array("GIF89a".utf8)) {
      guard bytes.count >= 10 else { throw ImageDecodingError.truncated }
      let width = Int(bytes[6]) | Int(bytes[7]) << 8
      let height = Int(bytes[8]) | Int(bytes[9]) << 8
      return (.gif, width, height)
    }
    if startsWith(bytes, [0xFF, 0xD8]) { return try jpegDimensions(bytes) }
    // A prefix of a known signature is a truncated image, not "something else".
    if !bytes.isEmpty, [png, Array("GIF87a".utf8), Array("GIF89a".utf8), [0xFF, 0xD8]].contains(where: { startsWith($0, bytes) }) {
      throw ImageDecodingError.truncated
    }
    throw ImageDecodingError.notAnImage
  }

  private func pngDimensions(_ bytes: [UInt8]) throws -> (ImageFormat, Int, Int) {
    // Signature (8), IHDR length (4), "IHDR" (4), width (4, big-endian), height (4, big-endian).
    guard bytes.count >= 24 else { throw ImageDecodingError.truncated }
    guard bigEndian(bytes, at: 8, count: 4) == 13, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
      throw ImageDecodingError.notAnImage  // the first chunk must be IHDR, 13 bytes long
    }
    return (.png, bigEndian(bytes, at: 16, count: 4), bigEndian(bytes, at: 20, count: 4))
  }

  private func jpegDimensions(_ bytes: [UInt8]) throws -> (ImageFormat, Int, Int) {
    var index = 2
    while true {
      // Each segment: one or more 0xFF fill bytes, a marker byte, then (mostly) a 2-byte length.
      guard index < bytes.count else { throw ImageDecodingError.truncated }
      guard bytes[index] == 0xFF else { throw ImageDecodingError.notAnImage }
      while index < bytes.count, bytes[index] == 0xFF { index += 1 }
      guard index < bytes.count else { throw ImageDecodingError.truncated }
      let marker = bytes[index]
      index += 1
      switch marker {
      case 0xD8, 0x01, 0xD0...0xD7:
        continue  // no length field
      case 0xD9, 0xDA:
        throw ImageDecodingError.notAnImage  // end of image or scan data before any frame header
      default:
        break
      }
      guard index + 2 <= bytes.count else { throw ImageDecodingError.truncated }
      let length = bigEndian(bytes, at: index, count: 2)
      guard length >= 2 else { throw ImageDecodingError.notAnImage }
      let isFrameHeader = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
      if isFrameHeader {
        // length (2), precision (1), height (2), width (2)
        guard index + 7 <= bytes.count else { throw ImageDecodingError.truncated }
        return (.jpeg, bigEndian(bytes, at: index + 5, count: 2), bigEndian(bytes, at: index + 3, count: 2))
      }
      index += length
    }
  }

  private func startsWith(_ bytes: [UInt8], _ prefix: [UInt8]) -> Bool {
    bytes.count >= prefix.count && Array(bytes[0..<prefix.count]) == prefix
  }

  private func bigEndian(_ bytes: [UInt8], at offset: Int, count: Int) -> Int {
    bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
  }
}

/// Builders for the smallest valid headers, used by the tests and by the practice scenarios.
public nonisolated enum SampleImages {
  /// A PNG signature and IHDR chunk for a `width` × `height` image (no pixel data follows).
  public static func png(width: Int, height: Int) -> Data {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    bytes += Array("IHDR".utf8) + be32(width) + be32(height) + [8, 6, 0, 0, 0] + [0, 0, 0, 0]
    return Data(bytes)
  }

  /// A GIF89a logical screen descriptor for a `width` × `height` image.
  public static func gif(width: Int, height: Int) -> Data {
    let bytes = Array("GIF89a".utf8) + [UInt8(width & 0xFF), UInt8(width >> 8 & 0xFF), UInt8(height & 0xFF), UInt8(height >> 8 & 0xFF)]
    return Data(bytes + [0, 0, 0])
  }

  /// A JPEG with an APP0 segment followed by a baseline frame header (SOF0).
  public static func jpeg(width: Int, height: Int) -> Data {
    var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
    bytes += [0xFF, 0xC0, 0x00, 0x11, 0x08] + be16(height) + be16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
    return Data(bytes + [0xFF, 0xD9])
  }

  private static func be32(_ value: Int) -> [UInt8] {
    [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }

  private static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
}
