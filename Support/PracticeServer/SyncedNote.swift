/// One note as the sync routes hold it and send it: the `NoteRecord` of chapter 7.
///
/// `version` is the server's count of applied changes (1 on create); a tombstone (`deleted`) has
/// no fields and is kept for good, so a device that was offline during the delete still learns
/// of it. `fields` is an open map: the server stores every key a client sends, known or not.
public struct SyncedNote: Codable, Equatable, Sendable {
  public var id: String
  public var version: Int
  public var deleted: Bool
  public var fields: [String: String]

  public init(id: String, version: Int = 0, deleted: Bool = false, fields: [String: String] = [:]) {
    self.id = id
    self.version = version
    self.deleted = deleted
    self.fields = fields
  }
}
