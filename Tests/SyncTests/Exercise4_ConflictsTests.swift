import Foundation
import Testing
import WorkbookTesting

@testable import Sync

@Suite("Exercise 4 — Conflicts", .timeLimit(.minutes(1)))
struct Exercise4_ConflictsTests {
  static let editedAt = Date(timeIntervalSince1970: 1_800_000_000)

  static func edit(_ id: String, _ fields: [String: String], note: String = "n1", base: Int = 3) -> Mutation {
    Mutation(id: id, note: note, base: base, set: fields, editedAt: editedAt)
  }

  static func delete(_ id: String, note: String = "n1", base: Int = 3) -> Mutation {
    Mutation(id: id, note: note, base: base, delete: true, editedAt: editedAt)
  }

  /// The server's copy: a title and body this app knows, and a color only a newer app knows.
  static let server = NoteRecord(id: "n1", version: 3, fields: ["title": "Groceries", "body": "milk", "color": "red"])

  @Test func overlayWithNothingPendingIsTheServersCopy() {
    #expect(Merge.overlay(Self.server, []) == Self.server, "with no unsent edit the screen should show the server's copy as it is")
    #expect(Merge.overlay(nil, []) == nil, "no server copy and no edit: there is no note to show")
  }

  @Test func titleAndBodyAreTheirFieldsAndEmptyWhenTheNoteHasNone() {
    #expect(Self.server.title == "Groceries" && Self.server.body == "milk", "title and body read the fields of those names")
    let blank = NoteRecord(id: "n2", version: 1, fields: ["color": "red"])
    #expect(
      blank.title == "" && blank.body == "",
      "a note with no title or body field should read \"\" for both; read title \(String(reflecting: blank.title)), body \(String(reflecting: blank.body))"
    )
  }

  /// One call of `overlay` over `count` unsent edits of one note, each setting a field of its own;
  /// timed per edit, so an O(p) overlay costs the same per edit at every length.
  static func overlayWorkload(edits count: Int) -> GrowthCheck.Workload {
    let pending = (0..<count).map { edit("m\($0)", ["field\($0)": "v\($0)"]) }
    let shown = Merge.overlay(server, pending)
    guard shown?.fields.count == count + 3 else {
      return .broken(
        "an overlay of \(count) edits, each setting a field of its own, should show the server's 3 fields and those \(count); it showed \(String(describing: shown?.fields.count)) fields (the overlay tests say what is missing)"
      )
    }
    return .ready { timer in
      await timer.time("an overlay, per pending edit", calls: 4, units: count) { _ in
        _ = Merge.overlay(server, pending)
      }
    }
  }

  @Test func overlayCostsTheSamePerEditWhateverTheirNumber() async {
    let verdict = await GrowthCheck(baselineSize: 10, sizes: [1_000, 4_000], unit: "pending edits").run { Self.overlayWorkload(edits: $0) }
    if let failure = verdict.message(possibleCauses: [
      "each edit's fields checked against every later edit (a later edit wins anyway when the edits are laid on in order)",
      "the note copied, or the edits searched from the start, once per edit",
    ]) {
      Issue.record("\(failure)")
    }
  }

  @Test func overlayPutsTheUnsentEditsOnTopInOrder() {
    let shown = Merge.overlay(Self.server, [Self.edit("m1", ["title": "Shopping", "body": "eggs"]), Self.edit("m2", ["title": "Weekend shopping"])])
    #expect(
      shown?.fields == ["title": "Weekend shopping", "body": "eggs", "color": "red"],
      "the screen should show the unsent edits over the server's copy, the later edit last (title from m2, body from m1, color from the server); got \(String(describing: shown?.fields))"
    )
    #expect(shown?.id == "n1", "the note shown is still n1")
  }

  @Test func overlayKeepsFieldsThisAppDoesNotKnow() {
    let shown = Merge.overlay(Self.server, [Self.edit("m1", ["title": "Shopping"])])
    #expect(
      shown?.fields["color"] == "red",
      "color came from a newer app: the note shown (and later saved) should keep it untouched, not only title and body; got \(String(describing: shown?.fields))"
    )
    let unknownEdit = Merge.overlay(Self.server, [Self.edit("m1", ["pinned": "yes"])])
    #expect(
      unknownEdit?.fields["pinned"] == "yes",
      "an unsent edit of a field this app does not show (pinned) should still be applied on top; got \(String(describing: unknownEdit?.fields))")
  }

  @Test func overlayShowsANewNoteFromItsFirstEdit() {
    let shown = Merge.overlay(nil, [Self.edit("m1", ["title": "New"], base: 0)])
    #expect(
      shown == NoteRecord(id: "n1", version: 0, fields: ["title": "New"]),
      "a note the server has never had should show from its unsent edit alone, at version 0; got \(String(describing: shown))")
  }

  @Test func overlayHidesANoteDeletedOnTheServer() {
    let tombstone = NoteRecord(id: "n1", version: 4, deleted: true)
    let shown = Merge.overlay(tombstone, [Self.edit("m1", ["title": "edited offline"])])
    #expect(
      shown == nil,
      "the server deleted the note and a delete wins: an unsent edit must not bring it back on screen; got \(String(describing: shown))")
  }

  @Test func overlayHidesANoteWithAnUnsentDelete() {
    #expect(Merge.overlay(Self.server, [Self.delete("m1")]) == nil, "the user deleted the note: it should leave the screen at once, before the server knows")
    #expect(
      Merge.overlay(Self.server, [Self.edit("m1", ["title": "x"]), Self.delete("m2")]) == nil,
      "an edit then a delete: the note should not be shown")
  }

  @Test func rebaseKeepsTheIdAndTheLocalIntentOnTheServersVersion() {
    let mine = Self.edit("m1", ["title": "Mine", "color": "blue"], base: 3)
    // Another device changed the title and the body first: the server is at version 5.
    let current = NoteRecord(id: "n1", version: 5, fields: ["title": "Theirs", "body": "theirs", "color": "red"])
    let rebased = Merge.rebase(mine, on: current)
    #expect(rebased?.id == "m1", "a rebased edit is the same edit: its id (the idempotency key) should stay m1, got \(String(describing: rebased?.id))")
    #expect(
      rebased?.base == 5,
      "the rebased edit should be made on the server's version 5, or the next push gets 412 again; got base \(String(describing: rebased?.base))")
    #expect(
      rebased?.set == ["title": "Mine", "color": "blue"],
      "the rebased edit should still set what this user set (title Mine, color blue, a field this app does not know included), not the server's values or nothing; got \(String(describing: rebased?.set))"
    )
    #expect(rebased?.note == "n1" && rebased?.delete == false && rebased?.editedAt == Self.editedAt, "note, delete and editedAt should stay as they were")
  }

  @Test func rebaseOnATombstoneDropsTheEdit() {
    let tombstone = NoteRecord(id: "n1", version: 6, deleted: true)
    let edit = Merge.rebase(Self.edit("m1", ["title": "Mine"]), on: tombstone)
    #expect(edit == nil, "the server deleted the note and a delete wins: the edit should be dropped (nil), not sent again; got \(String(describing: edit))")
    #expect(Merge.rebase(Self.delete("m2"), on: tombstone) == nil, "a delete of a note already deleted has nothing left to do: nil")
  }

  @Test func aRebasedDeleteStaysADelete() {
    let current = NoteRecord(id: "n1", version: 5, fields: ["title": "Theirs"])
    let rebased = Merge.rebase(Self.delete("m1"), on: current)
    #expect(
      rebased == Mutation(id: "m1", note: "n1", base: 5, delete: true, editedAt: Self.editedAt),
      "a delete rebased on version 5 should be the same delete (id m1, nothing to set) on base 5; got \(String(describing: rebased))")
  }
}
