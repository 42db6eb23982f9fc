// Exercise 1 — The outbox (beginner)
//
// Every edit the user makes becomes a `Mutation` in the outbox, and the outbox reaches the disk
// before the edit reaches the screen: an edit the app showed is an edit it will send, whatever
// happens next (a crash, a full disk, a relaunch a week later). Keep it in one file written whole
// with `.atomic` through the `FileSystem` seam, so a crash leaves the old list or the new one,
// never half of each. Keep the user's order (the order of `append`), never a clock's.
// Before an edit is added, drop what it makes pointless: the same field set again, or a note
// deleted after it was edited.
import Foundation
import Workbook

/// The edits not yet applied by the server, in the order the user made them, on disk.
///
/// - Complexity: every change rewrites the file: O(n) in the pending edits, which compaction
///   keeps to about one per note and field.
public actor Outbox {
  private let file: URL
  private let fileSystem: any FileSystem
  private var mutations: [Mutation]

  /// Opens the outbox stored at `file`: an absent file is an empty outbox, one that cannot be
  /// read or decoded is an error (the edits in it must not be silently dropped).
  public init(file: URL, fileSystem: any FileSystem = RealFileSystem()) throws(SyncError) {
    self.file = file
    self.fileSystem = fileSystem
    // TODO: read the edits saved at `file`; a missing file is none, an unreadable one an error.
    mutations = []
  }

  /// The edits waiting to be sent, oldest first.
  public var pending: [Mutation] { mutations }

  /// Adds an edit after dropping what it supersedes, and returns once it is on disk; when the
  /// write fails the outbox is unchanged, in memory and on disk.
  ///
  /// A set of a field drops that field from earlier edits of the note (an edit left with nothing
  /// to set goes); a delete drops every earlier edit of the note; an edit of a note already
  /// deleted here is dropped itself (a delete wins).
  public func append(_ mutation: Mutation) throws(SyncError) {
    // TODO: compact, then save the whole list atomically through `fileSystem`, then keep it.
    throw .disk(NotImplemented("Outbox.append").description)
  }

  /// Removes the edits the server has answered for (applied, or refused for good).
  public func remove(ids: Set<String>) throws(SyncError) {
    // TODO: save the list without those edits, then keep it.
    throw .disk(NotImplemented("Outbox.remove").description)
  }

  /// Changes the edits in one step: `transform` gets them as they are now and returns the new
  /// list, which is saved whole; when the write fails the outbox is unchanged. Nothing else runs
  /// on the outbox between the read and the write, so an edit the user made while the caller
  /// waited is seen, never overwritten: an answer to a push is settled here rather than by
  /// reading `pending` and writing back what was read. A list equal to the old one is not saved.
  public func update(_ transform: @Sendable ([Mutation]) -> [Mutation]) throws(SyncError) {
    // TODO: save what `transform` makes of the list when it differs, then keep it.
    throw .disk(NotImplemented("Outbox.update").description)
  }
}
