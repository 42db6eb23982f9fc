// Exercise 4 — Conflicts (advanced)
//
// Two devices edit the same note offline. The server orders their pushes, and that order decides:
// never a device's clock, which can be wrong or set back. The first push applies; the second one's
// base is no longer the note's version, so it gets 412 and the note as it is now. Rebase: the
// local intent (the fields this device set) goes on top of the server's note, which keeps the
// other device's fields, then it is sent again with the new base, under the same id.
// A delete wins: an edit of a note deleted on the server is dropped, and a note deleted here is
// not shown even if the server still has it. Fields this app does not know are kept as they are.
import Foundation

/// The merge rules of the sync engine, as pure functions.
public nonisolated enum Merge {
  /// What the screen shows for one note: the server's copy with the unsent edits on top, in order.
  /// Nil when the note is deleted, on the server or by an unsent edit, and when there is nothing
  /// to show (no server copy and no edit).
  ///
  /// - Complexity: O(p) in the pending edits of this note.
  public static func overlay(_ record: NoteRecord?, _ pending: [Mutation]) -> NoteRecord? {
    // TODO: the server's copy with each pending edit applied in order (placeholder: the copy as is).
    record
  }

  /// `mutation` rebased on the server's copy after a 412: the same id and the same fields to set,
  /// on the server's version. Nil when the server's copy is a tombstone (a delete wins); a delete
  /// rebased stays a delete.
  public static func rebase(_ mutation: Mutation, on server: NoteRecord) -> Mutation? {
    // TODO: keep the id and the intent, move the base; a tombstone wins (placeholder: nil).
    nil
  }
}
