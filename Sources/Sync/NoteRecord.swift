// Given: the notes and the edits that sync moves between the device and the server. Nothing to write here.
import Foundation

/// A note as the server keeps it: what the change feed sends, what a push answers with, and what
/// the device stores as its confirmed copy.
///
/// `fields` is open: this app knows `title` and `body`, and a newer app may add keys (`color`)
/// that this one must keep and send back untouched. A deleted note is a tombstone, never a missing
/// record, so that a device that was offline when it was deleted still learns of it.
public nonisolated struct NoteRecord: Codable, Equatable, Sendable {
  public var id: String
  /// The server's version: 1 when the note is created, one more for every change it applies.
  /// 0 means the server has never had the note.
  public var version: Int
  public var deleted: Bool
  public var fields: [String: String]

  public init(id: String, version: Int = 0, deleted: Bool = false, fields: [String: String] = [:]) {
    self.id = id
    self.version = version
    self.deleted = deleted
    self.fields = fields
  }

  /// The field this app shows as the note's title ("" when the note has none).
  public var title: String { fields["title"] ?? "" }
  /// The field this app shows as the note's text ("" when the note has none).
  public var body: String { fields["body"] ?? "" }
}

/// One edit the user made, waiting in the outbox until the server has applied it.
///
/// `id` is the operation id the server deduplicates on: made once, when the user edits, and sent
/// with every attempt, after every relaunch and after every rebase, so the server can tell a retry
/// from a new edit. Unlike an `Idempotency-Key` header, it stays the same when a rebase or a
/// compaction changes the payload.
public nonisolated struct Mutation: Codable, Equatable, Sendable, Identifiable {
  public var id: String
  /// The note it changes.
  public var note: String
  /// The server version the edit was made on: the batch form of `If-Match`. 0 for a new note.
  public var base: Int
  /// Fields to set; the note's other fields stay as they are.
  public var set: [String: String]
  /// True for a delete (then `set` is empty).
  public var delete: Bool
  /// When the user made the edit, by the device's clock, to the millisecond: shown to the user,
  /// never used to order edits (a device clock can be wrong or set back).
  public var editedAt: Date

  public init(id: String = UUID().uuidString, note: String, base: Int, set: [String: String] = [:], delete: Bool = false, editedAt: Date = Date()) {
    self.id = id
    self.note = note
    self.base = base
    self.set = set
    self.delete = delete
    self.editedAt = SyncJSON.date(milliseconds: SyncJSON.milliseconds(editedAt))
  }
}
