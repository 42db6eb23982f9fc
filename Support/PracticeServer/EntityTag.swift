import Foundation

/// Entity tags as conditional requests compare them (RFC 9110 §8.8.3, §13.1.2).
enum EntityTag {
  /// One tag of a list: `W/"x"` is weak, `"x"` strong; `opaque` is what is between the quotes.
  struct Tag: Equatable {
    var weak: Bool
    var opaque: String
  }

  /// Whether `If-None-Match: value` matches a representation whose tag is `etag`, so that a GET
  /// or HEAD is answered `304 Not Modified` (RFC 9110 §13.1.2).
  ///
  /// The field is `*` (any current representation) or a comma-separated list of tags, and it uses
  /// the weak comparison: `W/"x"` and `"x"` match, because a client that cached either copy may
  /// keep using it. A malformed field matches nothing, so the client gets the full answer.
  static func matches(ifNoneMatch value: String, etag: String) -> Bool {
    if value.trimmingCharacters(in: .whitespaces) == "*" { return true }
    guard let current = parse(etag), let listed = list(value) else { return false }
    return listed.contains { $0.opaque == current.opaque }
  }

  /// One tag, or nil when `text` is not one.
  static func parse(_ text: String) -> Tag? {
    guard let tags = list(text), tags.count == 1 else { return nil }
    return tags[0]
  }

  /// The tags of a comma-separated list, or nil when any element is not a tag. An opaque tag may
  /// hold commas, so the list is read tag by tag rather than split on commas.
  static func list(_ text: String) -> [Tag]? {
    let bytes = Array(text.utf8)
    var index = 0
    var tags: [Tag] = []
    func skip(_ allowed: Set<UInt8>) {
      while index < bytes.count && allowed.contains(bytes[index]) { index += 1 }
    }
    skip([ASCII.space, ASCII.tab, ASCII.comma])
    while index < bytes.count {
      var weak = false
      if bytes.count - index >= 2 && bytes[index] == 0x57 && bytes[index + 1] == 0x2F {  // W/
        weak = true
        index += 2
      }
      guard index < bytes.count, bytes[index] == ASCII.quote else { return nil }
      index += 1
      let start = index
      while index < bytes.count && bytes[index] != ASCII.quote {
        // etagc: visible characters but the quote, and obs-text.
        guard bytes[index] == 0x21 || bytes[index] >= 0x23 && bytes[index] != 0x7F else { return nil }
        index += 1
      }
      guard index < bytes.count else { return nil }
      tags.append(Tag(weak: weak, opaque: String(decoding: bytes[start..<index], as: UTF8.self)))
      index += 1
      skip([ASCII.space, ASCII.tab])
      guard index == bytes.count || bytes[index] == ASCII.comma else { return nil }
      skip([ASCII.space, ASCII.tab, ASCII.comma])
    }
    return tags.isEmpty ? nil : tags
  }
}
