// Exercise 3 — Pull (intermediate)
//
// The device keeps the notes as the server last confirmed them, and the change token that says
// how far it has read. The two are one fact: a page of changes and the token after it are saved
// in one atomic write, so a crash between them cannot leave a token that claims changes the disk
// never got (they would be skipped forever). A tombstone is kept like any note; a change older
// than the copy held (a lower version) is ignored. A resync after a 410 builds its new copy beside
// the one held, in the same file, and swaps it in with its last page in one write: until then the
// screen keeps every confirmed note, and a resync cut short leaves the old copy and carries on.
import Foundation
import Workbook

/// What the device holds of the server: notes by id and the change token, in one file.
public actor NoteStore {
  nonisolated struct Snapshot: Codable {
    var token: String?
    var records: [String: NoteRecord]
  }

  private let file: URL
  private let fileSystem: any FileSystem
  private var snapshot: Snapshot

  /// Opens the copy stored at `file`: an absent file is an empty copy with no token.
  public init(file: URL, fileSystem: any FileSystem = RealFileSystem()) throws(SyncError) {
    self.file = file
    self.fileSystem = fileSystem
    // TODO: read the snapshot saved at `file`; a missing file is an empty one, an unreadable one an error.
    snapshot = Snapshot(token: nil, records: [:])
  }

  /// The token to send with the next pull; nil before the first page.
  public var token: String? { snapshot.token }

  /// Every note, tombstones included, by id.
  public var records: [String: NoteRecord] { snapshot.records }

  /// Applies `changes` and, when given, the token that follows them, in one write. A change
  /// whose version is not above the held copy's is ignored. When the write fails nothing changes.
  ///
  /// - Complexity: O(n + c) for n notes held and c changes: the file is written whole.
  public func apply(_ changes: [NoteRecord], token: String? = nil) throws(SyncError) {
    // TODO: merge the changes and the token into a copy of the snapshot, write it atomically, keep it.
    throw .disk(NotImplemented("NoteStore.apply").description)
  }

  /// Whether a resync is under way: its pages go to a new copy beside `records`.
  public var isResyncing: Bool {
    // TODO: say whether a new copy is being built (placeholder: false).
    false
  }

  /// The token to send with the resync's next page: nil before its first page, and when no
  /// resync is under way.
  public var resyncToken: String? {
    // TODO: the token after the resync's last page applied (placeholder: nil).
    nil
  }

  /// Starts building a new copy from the beginning of the server's history, beside the one held:
  /// `records` and `token` stay as they are until the new copy is whole. A resync already under
  /// way starts over.
  public func beginResync() throws(SyncError) {
    // TODO: save an empty new copy beside the one held, which stays as it is.
    throw .disk(NotImplemented("NoteStore.beginResync").description)
  }

  /// Adds a page of the resync to the new copy, with the token after it, in one write. The last
  /// page (`last`) swaps the new copy in, in that same write: `records` and `token` become the
  /// server's and the resync ends. Without a resync under way nothing changes.
  ///
  /// - Complexity: O(n + c) for n notes held (both copies) and c changes: the file is written whole.
  public func applyResyncPage(_ changes: [NoteRecord], token: String, last: Bool) throws(SyncError) {
    // TODO: add the page to the new copy; on the last page make it the copy held, all in one write.
    throw .disk(NotImplemented("NoteStore.applyResyncPage").description)
  }
}
