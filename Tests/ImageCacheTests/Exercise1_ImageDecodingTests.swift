import Foundation
import Testing
import WorkbookTesting

@testable import ImageCache

@Suite("Exercise 1 — Image values from headers", .timeLimit(.minutes(1)))
struct Exercise1_ImageDecodingTests {
  let decoder = HeaderImageDecoder()

  @Test("PNG, GIF and JPEG headers give their width and height")
  func readsEachFormat() throws {
    let cases: [(Data, ImageFormat, Int, Int)] = [
      (SampleImages.png(width: 640, height: 480), .png, 640, 480),
      (SampleImages.gif(width: 300, height: 2), .gif, 300, 2),
      (SampleImages.jpeg(width: 1024, height: 768), .jpeg, 1024, 768),
      (SampleImages.png(width: 70_000, height: 3), .png, 70_000, 3),
    ]
    for (data, format, width, height) in cases {
      let image = try decoder.decode(data)
      #expect(image.format == format, "the signature says \(format), got \(image.format)")
      #expect(
        image.width == width && image.height == height,
        "\(format) header says \(width) × \(height), decoded \(image.width) × \(image.height): check the byte offsets and the byte order (PNG and JPEG are big-endian, GIF little-endian)"
      )
      #expect(image.bytes == data, "the image keeps its encoded bytes unchanged, so the disk cache can store them")
    }
  }

  @Test("cost is the decoded size, width × height × 4, not the file size")
  func costIsDecodedBytes() throws {
    let image = try decoder.decode(SampleImages.jpeg(width: 3000, height: 2000))
    #expect(
      image.cost == 24_000_000,
      "a 3000 × 2000 image occupies 24,000,000 bytes once decoded (4 bytes per pixel), whatever its file size; got \(image.cost)")
    let huge = DecodedImage(format: .png, width: Int.max / 2, height: 16, bytes: Data())
    #expect(huge.cost == Int.max, "cost must saturate rather than overflow (an overflow traps)")
  }

  @Test("a JPEG frame header after other segments is found by walking the segment lengths")
  func jpegWalksSegments() throws {
    var bytes = [UInt8](SampleImages.jpeg(width: 12, height: 34))
    // Insert a comment segment (COM, 0xFE) and a Huffman table marker (0xC4, not a frame header).
    let comment: [UInt8] = [0xFF, 0xFE, 0x00, 0x06] + Array("hey!".utf8)
    let huffman: [UInt8] = [0xFF, 0xC4, 0x00, 0x04, 0x00, 0x00]
    bytes.insert(contentsOf: comment + huffman, at: 2)
    let image = try decoder.decode(Data(bytes))
    #expect(
      image.width == 12 && image.height == 34,
      "0xC4 is a Huffman table, not a frame: skip every segment by its length until a real SOF marker; got \(image.width) × \(image.height)")
  }

  @Test("every prefix of a valid header is .truncated, never a crash")
  func truncatedData() throws {
    // How many bytes each sample needs before its width and height are complete.
    let samples = [
      (SampleImages.png(width: 5, height: 5), 24), (SampleImages.gif(width: 5, height: 5), 10),
      (SampleImages.jpeg(width: 5, height: 5), 29),
    ]
    for (sample, needed) in samples {
      for length in 1..<needed {
        #expect(
          throws: ImageDecodingError.truncated,
          "the first \(length) of \(needed) header bytes should throw .truncated: check the length before every read"
        ) {
          try decoder.decode(Data(sample.prefix(length)))
        }
      }
      #expect(throws: Never.self, "\(needed) bytes are enough to read the size") { try decoder.decode(Data(sample.prefix(needed))) }
    }
  }

  @Test("data that is not an image is .notAnImage")
  func notAnImage() throws {
    let samples = [
      Data("<html><body>404 Not Found</body></html>".utf8),
      Data("{\"error\": true}".utf8),
      Data([0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B]),
      Data(),
    ]
    for data in samples {
      #expect(throws: ImageDecodingError.notAnImage, "\(data.count) bytes that match no signature should throw .notAnImage") {
        try decoder.decode(data)
      }
    }
    var broken = [UInt8](SampleImages.jpeg(width: 4, height: 4))
    broken.replaceSubrange(2..<(broken.count - 2), with: [])  // FF D8 then straight to end of image
    let noFrame =
      "FF D8 FF D9: a JPEG that reaches its end-of-image marker without a frame header has no size: "
      + ".notAnImage (only bytes that run out early are .truncated)"
    #expect(throws: ImageDecodingError.notAnImage, "\(noFrame)") {
      try decoder.decode(Data(broken))
    }
  }

  @Test("PNG: the first chunk must be IHDR, 13 bytes long")
  func pngNeedsIHDRFirst() throws {
    var wrongName = [UInt8](SampleImages.png(width: 7, height: 9))
    wrongName.replaceSubrange(12..<16, with: Array("IDAT".utf8))
    #expect(throws: ImageDecodingError.notAnImage, "a PNG whose first chunk is not IHDR has no size where the decoder looks: .notAnImage") {
      try decoder.decode(Data(wrongName))
    }
    var wrongLength = [UInt8](SampleImages.png(width: 7, height: 9))
    wrongLength[11] = 12
    #expect(
      throws: ImageDecodingError.notAnImage,
      "IHDR is always 13 bytes long (PNG specification §11.2.2): a length of 12 means the bytes are not a PNG header, so .notAnImage"
    ) {
      try decoder.decode(Data(wrongLength))
    }
  }

  @Test("JPEG: fill bytes before a marker, and markers without a length (RST0–RST7, TEM), are stepped over")
  func jpegFillBytesAndBareMarkers() throws {
    var bytes = [UInt8](SampleImages.jpeg(width: 21, height: 13))
    // Extra 0xFF fill bytes before APP0, then RST0, RST7 and TEM, none of which has a length.
    bytes.insert(contentsOf: [0xFF, 0xFF, 0xFF, 0xD0, 0xFF, 0xD7, 0xFF, 0x01, 0xFF, 0xFF], at: 2)
    let image = try decoder.decode(Data(bytes))
    #expect(
      image.width == 21 && image.height == 13,
      "a marker may follow any number of 0xFF fill bytes, and RST0–RST7 and TEM carry no length field (ITU-T T.81, B.1.1): got \(image.width) × \(image.height)"
    )
  }

  @Test("JPEG: a segment length under 2 is .notAnImage, never an endless walk")
  func jpegShortSegmentLength() throws {
    for length: UInt8 in [0, 1] {
      var bytes = [UInt8](SampleImages.jpeg(width: 4, height: 4))
      bytes.insert(contentsOf: [0xFF, 0xFE, 0x00, length], at: 2)
      #expect(
        throws: ImageDecodingError.notAnImage,
        "a segment length counts its own two bytes, so \(length) is impossible: .notAnImage (skipping by it would stand still or go back)"
      ) {
        try decoder.decode(Data(bytes))
      }
    }
  }

  @Test("zero and absurd dimensions are typed errors")
  func badDimensions() throws {
    #expect(throws: ImageDecodingError.invalidDimensions(width: 0, height: 10), "a 0-pixel-wide image is not usable") {
      try decoder.decode(SampleImages.png(width: 0, height: 10))
    }
    #expect(
      throws: ImageDecodingError.tooLarge(width: 100_000, height: 100_000),
      "10 gigapixels would need 40 GB once decoded: refuse it with .tooLarge instead of trying"
    ) {
      try decoder.decode(SampleImages.png(width: 100_000, height: 100_000))
    }
  }

  @Test("the pixel limit is the largest image accepted: at the limit it decodes, one pixel past it is .tooLarge")
  func pixelLimitAtAndPastTheLimit() throws {
    let small = HeaderImageDecoder(maximumPixelCount: 1_200)
    let atLimit = try small.decode(SampleImages.png(width: 40, height: 30))
    #expect(
      atLimit.width == 40 && atLimit.height == 30,
      "40 × 30 is exactly 1,200 pixels, the limit itself, and must decode; got \(atLimit.width) × \(atLimit.height)")
    #expect(
      throws: ImageDecodingError.tooLarge(width: 1_201, height: 1),
      "1,201 × 1 is one pixel over a limit of 1,200: .tooLarge"
    ) {
      try small.decode(SampleImages.gif(width: 1_201, height: 1))
    }
  }

  @Test("the default pixel limit is 50 megapixels, counted in millions: 10,000 × 5,000 decodes, one row more is .tooLarge")
  func theDefaultPixelLimitIsFiftyMegapixels() throws {
    #expect(decoder.maximumPixelCount == 50_000_000, "the documented default is 50 megapixels, 50,000,000 pixels; got \(decoder.maximumPixelCount)")
    let atLimit = try decoder.decode(SampleImages.png(width: 10_000, height: 5_000))
    #expect(
      atLimit.width == 10_000 && atLimit.height == 5_000,
      "10,000 × 5,000 is exactly 50,000,000 pixels, the default limit, and must decode; got \(atLimit.width) × \(atLimit.height)")
    #expect(
      throws: ImageDecodingError.tooLarge(width: 10_000, height: 5_001),
      "10,000 × 5,001 is 50,010,000 pixels, over the default of 50,000,000 (about 200 MB decoded): .tooLarge"
    ) {
      try decoder.decode(SampleImages.png(width: 10_000, height: 5_001))
    }
  }
}
