import Foundation

/// The one place the tool reads a text file it parses (an interview, hints, `exercises.json`, a
/// mutant or variant, the fingerprints, a drill, a test file): with its line endings made LF.
///
/// A file saved on Windows (or checked out with `core.autocrlf=true`) ends its lines with CRLF, and
/// `components(separatedBy: "\n")` leaves the CR on every line, so a heading reads `## Title\r`
/// and a marker `=======\r`: the file parses as something else, or as nothing. Reading every file
/// through here makes a CRLF file, or one with a lone CR (classic Mac OS), give the same result as
/// its LF copy. `.gitattributes` keeps the files LF in a checkout, and `workbook check` names a file
/// that has CR line endings all the same (`lineEndingProblems`).
enum TextFile {
  /// The text of the file at `path`, its line endings LF; nil when it is missing or not UTF-8.
  static func read(_ path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return String(data: data, encoding: .utf8).map(normalized)
  }

  /// `read`, throwing the learner-facing message when the file is missing or not UTF-8.
  static func contents(_ path: String, shown: String? = nil) throws -> String {
    let name = shown ?? path
    guard let data = FileManager.default.contents(atPath: path) else { throw Failure("\(name) is missing") }
    guard let text = String(data: data, encoding: .utf8) else {
      throw Failure("\(name) cannot be read: it is not UTF-8 text; save it as UTF-8")
    }
    return normalized(text)
  }

  /// `text` with each CRLF and each lone CR replaced by LF.
  ///
  /// - Complexity: O(n) in the length of `text`.
  static func normalized(_ text: String) -> String {
    guard text.utf8.contains(0x0D) else { return text }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var afterCR = false
    for byte in text.utf8 {
      if byte == 0x0D {
        bytes.append(0x0A)
        afterCR = true
        continue
      }
      if byte == 0x0A && afterCR {
        afterCR = false
        continue
      }
      afterCR = false
      bytes.append(byte)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// How many lines of `data` end with CR (CRLF or a lone CR): zero for an LF file.
  static func carriageReturns(_ data: Data) -> Int {
    data.reduce(0) { $0 + ($1 == 0x0D ? 1 : 0) }
  }
}
