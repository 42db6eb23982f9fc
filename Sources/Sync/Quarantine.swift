// Given: where edits the server refused for good are kept for the user. Nothing to write here.
import Foundation
import Workbook

/// An edit the server refused for good (400, 413, 422), with its reason: sending it again would
/// get the same answer, so it leaves the outbox, and dropping it silently would lose what the
/// user typed. The app shows these and lets the user fix or discard them.
public nonisolated struct RefusedEdit: Codable, Equatable, Sendable, Identifiable {
  /// The edit as it was sent.
  public var mutation: Mutation
  /// The status of its result.
  public var status: Int
  /// Why, in the server's words.
  public var reason: String

  public var id: String { mutation.id }

  public init(mutation: Mutation, status: Int, reason: String) {
    self.mutation = mutation
    self.status = status
    self.reason = reason
  }
}

/// The refused edits, oldest first, in one file written whole with `.atomic` like the outbox.
public actor Quarantine {
  private let file: URL
  private let fileSystem: any FileSystem
  private var edits: [RefusedEdit]

  /// Opens the quarantine stored at `file`: an absent file is an empty one, one that cannot be
  /// read is an error (the edits in it are the user's).
  public init(file: URL, fileSystem: any FileSystem = RealFileSystem()) throws(SyncError) {
    self.file = file
    self.fileSystem = fileSystem
    guard fileSystem.itemExists(at: file) else {
      edits = []
      return
    }
    do {
      edits = try SyncJSON.decoder().decode([RefusedEdit].self, from: fileSystem.contents(of: file))
    } catch {
      throw .disk("the refused edits at \(file.path) cannot be read: \(error)")
    }
  }

  /// The refused edits, oldest first.
  public var refused: [RefusedEdit] { edits }

  /// Keeps `edit` and returns once it is on disk. An edit already kept (the same id, refused again
  /// after a crash before it left the outbox) is kept once.
  public func add(_ edit: RefusedEdit) throws(SyncError) {
    guard !edits.contains(where: { $0.id == edit.id }) else { return }
    try save(edits + [edit])
  }

  /// Forgets the refused edits with these ids: the user fixed or discarded them.
  public func remove(ids: Set<String>) throws(SyncError) {
    let next = edits.filter { !ids.contains($0.id) }
    guard next.count != edits.count else { return }
    try save(next)
  }

  private func save(_ next: [RefusedEdit]) throws(SyncError) {
    do {
      try fileSystem.write(SyncJSON.encoder().encode(next), to: file, options: .atomic)
    } catch {
      throw .disk("the refused edits could not be saved: \(error)")
    }
    edits = next
  }
}
