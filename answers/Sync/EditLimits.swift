// Given: the per-edit limits the sync protocol states, checked on the device. Nothing to write here.
import Foundation

/// The limits `POST /v1/sync/push` holds each edit to. The server refuses an edit that breaks one
/// for good (413 or 422, the same every time it is sent), so the device checks them before it
/// queues the edit: the user hears of the limit while still typing, not a sync later.
public nonisolated enum EditLimits {
  /// Note ids: 1 to 64 characters of `A-Z a-z 0-9 -`.
  public static let noteIDLength = 1...64
  /// Fields one edit may set.
  public static let maximumFields = 32
  /// Field names: 1 to 64 characters of `A-Z a-z 0-9 _`.
  public static let fieldNameLength = 1...64
  /// A field's value, in bytes of UTF-8 (not characters: "é" is two).
  public static let maximumValueBytes = 4_096

  /// Throws `.invalidEdit`, naming the limit, unless an edit of note `note` setting `fields`
  /// (none for a delete) keeps every limit; an edit that is not a delete must set a field.
  public static func check(note: String, set fields: [String: String], delete: Bool) throws(SyncError) {
    guard noteIDLength.contains(note.utf8.count), note.utf8.allSatisfy(isNoteIDByte) else {
      throw .invalidEdit("a note id is 1 to 64 characters of A-Z a-z 0-9 -, got \"\(note)\"")
    }
    guard delete || !fields.isEmpty else { throw .invalidEdit("an edit of \(note) sets no field") }
    guard fields.count <= maximumFields else {
      throw .invalidEdit("an edit sets at most \(maximumFields) fields, this one \(fields.count)")
    }
    for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
      guard fieldNameLength.contains(name.utf8.count), name.utf8.allSatisfy(isFieldNameByte) else {
        throw .invalidEdit("a field name is 1 to 64 characters of A-Z a-z 0-9 _, got \"\(name)\"")
      }
      guard value.utf8.count <= maximumValueBytes else {
        throw .invalidEdit("\(name) is \(value.utf8.count) bytes of UTF-8; at most \(maximumValueBytes)")
      }
    }
  }

  private static func isNoteIDByte(_ byte: UInt8) -> Bool {
    isLetterOrDigit(byte) || byte == UInt8(ascii: "-")
  }

  private static func isFieldNameByte(_ byte: UInt8) -> Bool {
    isLetterOrDigit(byte) || byte == UInt8(ascii: "_")
  }

  private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }
}
