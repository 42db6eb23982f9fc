import Foundation

/// `GET /files/{name}?size=N`: deterministic bytes (byte i is `i * 31 + 7`, truncated), with
/// byte ranges, `If-Range`, and knobs to turn ranges off, change the ETag and throttle.
enum Files {
  static let defaultSize = 1 << 20
  static let maximumSize = 256 << 20

  /// Byte `index` of every file.
  static func byte(at index: Int) -> UInt8 { UInt8(truncatingIfNeeded: index &* 31 &+ 7) }

  /// A block's worth of the bytes, plus one period: byte i depends only on i mod 256, so the
  /// bytes at any offset are a slice of this, copied rather than computed one at a time (which
  /// in a debug build took most of a minute for 64 MB).
  private static let pattern = Data((0..<(blockSize + 256)).map { byte(at: $0) })
  private static let blockSize = 65_536

  /// The bytes at offsets `range` of every file.
  static func bytes(_ range: Range<Int>) -> Data {
    var data = Data(capacity: range.count)
    var offset = range.lowerBound
    while offset < range.upperBound {
      let count = min(blockSize, range.upperBound - offset)
      let start = offset & 255
      data.append(pattern[start..<(start + count)])
      offset += count
    }
    return data
  }

  /// The bytes `range` of a file as a body made while it is written, one block at a time.
  static func body(_ range: ClosedRange<Int>) -> GeneratedBody {
    let first = range.lowerBound
    return GeneratedBody(length: range.count) { part in bytes((first + part.lowerBound)..<(first + part.upperBound)) }
  }

  static func reply(_ request: HTTPRequest) -> HTTPReply {
    guard request.method == "GET" || request.method == "HEAD" else { return .error(405, "files are read-only", headers: [("Allow", "GET, HEAD")]) }
    let name = String(request.path.dropFirst("/files/".count))
    guard !name.isEmpty, !name.contains("/") else { return .error(404, "no such file") }
    let size = min(maximumSize, max(0, Int(request.query["size"] ?? "") ?? defaultSize))
    let rangesOn = request.query["ranges"] != "0"
    if let tag = request.query["etag"], !tag.utf8.allSatisfy({ $0 == 0x21 || (0x23...0x7E).contains($0) }) {
      return .error(400, "etag may hold only visible ASCII characters other than a quote (RFC 9110 §8.8.3)")
    }
    let etag = "\"\(request.query["etag"] ?? "\(name)-\(size)")\""
    var headers: [(String, String)] = [("Content-Type", "application/octet-stream"), ("ETag", etag)]
    if rangesOn { headers.append(("Accept-Ranges", "bytes")) }
    var reply: HTTPReply
    var range: ClosedRange<Int>? = size > 0 ? 0...(size - 1) : nil
    if rangesOn, let header = request.header("Range"), ifRangeMatches(request.header("If-Range"), etag: etag) {
      switch parse(header, size: size) {
      case .satisfiable(let satisfiable):
        headers.append(("Content-Range", "bytes \(satisfiable.lowerBound)-\(satisfiable.upperBound)/\(size)"))
        range = satisfiable
        reply = HTTPReply(status: 206, headers: headers)
      case .unsatisfiable:
        // The file's size and nothing else of it (RFC 9110 §15.5.17): no ETag, as nginx sends none.
        headers.removeAll { $0.0 == "ETag" }
        headers.append(("Content-Range", "bytes */\(size)"))
        range = nil
        reply = HTTPReply(status: 416, headers: headers)
      case .ignored:
        reply = HTTPReply(status: 200, headers: headers)
      }
    } else {
      reply = HTTPReply(status: 200, headers: headers)
    }
    if let range { reply.generated = body(range) }
    if let rate = Int(request.query["rate"] ?? ""), rate > 0 {
      reply.throttle = (rate, max(0, Int(request.query["delay_ms"] ?? "") ?? 10))
    }
    return reply
  }

  /// No `If-Range`, or one equal to the current ETag (quotes optional): the range applies.
  static func ifRangeMatches(_ value: String?, etag: String) -> Bool {
    guard let value else { return true }
    let strip = { (text: String) in text.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
    return strip(value) == strip(etag)
  }

  enum RangeRequest: Equatable {
    case satisfiable(ClosedRange<Int>)
    case unsatisfiable
    case ignored
  }

  /// `bytes=A-B`, `bytes=A-` or `bytes=-S` (the last S bytes) (RFC 9110 §14.1.2). Several ranges
  /// or a malformed one: ignored, which RFC 9110 §14.2 allows. Positions are digits only, and a
  /// position too large for an `Int` is past any end rather than an error: `bytes=0-` followed by
  /// twenty nines asks for the whole file. A suffix of length 0 asks for no bytes at all, so it
  /// is unsatisfiable (416).
  static func parse(_ header: String, size: Int) -> RangeRequest {
    let text = header.trimmingCharacters(in: .whitespaces)
    guard text.lowercased().hasPrefix("bytes="), !text.contains(",") else { return .ignored }
    let spec = text.dropFirst(6)
    guard let dash = spec.firstIndex(of: "-") else { return .ignored }
    let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
    let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
    if first.isEmpty {
      switch DecimalDigits.parse(last) {
      case .invalid: return .ignored
      case .value(0): return .unsatisfiable
      case .value(let suffix): return size > 0 ? .satisfiable(max(0, size - suffix)...(size - 1)) : .unsatisfiable
      case .tooLarge: return size > 0 ? .satisfiable(0...(size - 1)) : .unsatisfiable
      }
    }
    let start: Int
    switch DecimalDigits.parse(first) {
    case .invalid: return .ignored
    case .tooLarge: return .unsatisfiable
    case .value(let value): start = value
    }
    guard start < size else { return .unsatisfiable }
    if last.isEmpty { return .satisfiable(start...(size - 1)) }
    switch DecimalDigits.parse(last) {
    case .invalid: return .ignored
    case .tooLarge: return .satisfiable(start...(size - 1))
    case .value(let end): return end >= start ? .satisfiable(start...min(end, size - 1)) : .ignored
    }
  }
}

/// `GET /images/{name}.png?w=&h=`: a small valid PNG whose colours depend on the name, with an
/// ETag, `Cache-Control: max-age=3600` and `If-None-Match` → 304 (weak comparison, lists, `*`).
enum Images {
  static func reply(_ request: HTTPRequest) -> HTTPReply {
    guard request.method == "GET" || request.method == "HEAD" else { return .error(405, "images are read-only", headers: [("Allow", "GET, HEAD")]) }
    let file = String(request.path.dropFirst("/images/".count))
    guard file.hasSuffix(".png"), case let name = String(file.dropLast(4)), !name.isEmpty, !name.contains("/"), name != "missing"
    else { return .error(404, "no such image") }
    let width = min(1_024, max(1, Int(request.query["w"] ?? "") ?? 64))
    let height = min(1_024, max(1, Int(request.query["h"] ?? "") ?? 64))
    let etag = "\"\(name)-\(width)x\(height)\""
    let headers = [("ETag", etag), ("Cache-Control", "max-age=3600")]
    if let match = request.header("If-None-Match"), EntityTag.matches(ifNoneMatch: match, etag: etag) {
      return HTTPReply(status: 304, headers: headers)
    }
    return HTTPReply(status: 200, headers: [("Content-Type", "image/png")] + headers, body: PNG.image(name: name, width: width, height: height))
  }
}

/// A minimal PNG encoder: 8-bit RGB, zlib with stored (uncompressed) blocks.
enum PNG {
  /// A deterministic picture: a diagonal gradient in a colour taken from `name`.
  static func image(name: String, width: Int, height: Int) -> Data {
    var hash: UInt32 = 2_166_136_261
    for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    let red = UInt8(truncatingIfNeeded: hash)
    let green = UInt8(truncatingIfNeeded: hash >> 8)
    let blue = UInt8(truncatingIfNeeded: hash >> 16)
    var raw = Data(capacity: (width * 3 + 1) * height)
    for y in 0..<height {
      raw.append(0)  // filter: none
      for x in 0..<width {
        let shade = UInt8(truncatingIfNeeded: (x + y) * 255 / max(1, width + height - 2))
        raw.append(red ^ shade)
        raw.append(green)
        raw.append(blue ^ (255 - shade))
      }
    }
    var ihdr = Data()
    ihdr.append(bigEndian: UInt32(width))
    ihdr.append(bigEndian: UInt32(height))
    ihdr.append(contentsOf: [8, 2, 0, 0, 0])
    var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    png.append(chunk("IHDR", ihdr))
    png.append(chunk("IDAT", zlibStored(raw)))
    png.append(chunk("IEND", Data()))
    return png
  }

  static func chunk(_ type: String, _ data: Data) -> Data {
    var chunk = Data()
    chunk.append(bigEndian: UInt32(data.count))
    let typed = Data(type.utf8) + data
    chunk.append(typed)
    chunk.append(bigEndian: crc32(typed))
    return chunk
  }

  static func zlibStored(_ data: Data) -> Data {
    var out = Data([0x78, 0x01])
    var offset = 0
    let bytes = [UInt8](data)
    repeat {
      let count = min(65_535, bytes.count - offset)
      let final: UInt8 = offset + count >= bytes.count ? 1 : 0
      out.append(final)
      out.append(UInt8(count & 0xFF))
      out.append(UInt8(count >> 8))
      out.append(UInt8(~count & 0xFF))
      out.append(UInt8((~count >> 8) & 0xFF))
      out.append(contentsOf: bytes[offset..<(offset + count)])
      offset += count
    } while offset < bytes.count
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in bytes {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    out.append(bigEndian: (b << 16) | a)
    return out
  }

  static let crcTable: [UInt32] = (0..<256).map { index -> UInt32 in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    return value
  }

  static func crc32(_ data: Data) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in data { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    return crc ^ 0xFFFF_FFFF
  }
}

extension Data {
  mutating func append(bigEndian value: UInt32) {
    append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
  }
}
