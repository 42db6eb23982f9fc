// Exercise 3 — Pull (intermediate)
//
// The device keeps the notes as the server last confirmed them, and the change token that says
// how far it has read. The two are one fact: a page of changes and the token after it are saved
// in one atomic write, so a crash between them cannot leave a token that claims changes the disk
// never got (they would be skipped forever). A tombstone is kept like any note; a change older
// than the copy held (a lower version) is ignored.
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

  /// Forgets every note and the token, for a pull from the beginning.
  public func reset() throws(SyncError) {
    // TODO: save an empty snapshot, then keep it.
    throw .disk(NotImplemented("NoteStore.reset").description)
  }
}
