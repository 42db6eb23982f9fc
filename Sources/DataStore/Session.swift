// Given: the session model that exercise 6 stores. Nothing to write here.
import Foundation

/// Who is signed in, and the secrets that prove it.
public nonisolated struct Session: Codable, Equatable, Sendable {
  public var userID: String?
  public var accessToken: String?
  public var refreshToken: String?
  /// Non-secret settings that survive a logout, such as a theme.
  public var preferences: [String: String]

  public init(
    userID: String? = nil, accessToken: String? = nil, refreshToken: String? = nil,
    preferences: [String: String] = [:]
  ) {
    self.userID = userID
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.preferences = preferences
  }

  private enum CodingKeys: String, CodingKey {
    case userID, accessToken, refreshToken, preferences
  }

  /// Reads a session that this build or an older one wrote. A field the file lacks takes its
  /// default (nil, or no preferences), so an update that adds a field signs nobody out; a field
  /// that is there with the wrong type still fails, and the store treats the file as corrupt.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    userID = try container.decodeIfPresent(String.self, forKey: .userID)
    accessToken = try container.decodeIfPresent(String.self, forKey: .accessToken)
    refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
    preferences = try container.decodeIfPresent([String: String].self, forKey: .preferences) ?? [:]
  }

  /// Nobody is signed in and nothing is remembered.
  public static let empty = Session()

  public var isLoggedIn: Bool { userID != nil && accessToken != nil }
}

/// What can go wrong in a `SessionStore`; each case says what happened to the user's data.
public nonisolated enum SessionStoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file could not be decoded. It was moved to `keptAt`, and the store starts empty.
  case corruptFile(keptAt: URL)
  /// The session could not be written; what was stored before is still on disk.
  case writeFailed(reason: String)
  /// The file is there but could not be read (an I/O error, a folder in its place). It was left
  /// where it is, and the store starts empty.
  case unreadableFile(reason: String)
  /// Data protection keeps the file encrypted until the user unlocks the device. Nobody was signed
  /// out: the session in memory is as it was, the file is untouched, and every write is refused
  /// until a later `load()` reads the file.
  case protectedDataUnavailable
  /// The operation needs a signed-in user.
  case notLoggedIn

  public var description: String {
    switch self {
    case .corruptFile(let url):
      "the session file was unreadable; it was kept at \(url.lastPathComponent) and you are signed out"
    case .writeFailed(let reason): "the session could not be saved: \(reason)"
    case .unreadableFile(let reason): "the session file could not be read: \(reason); you are signed out"
    case .protectedDataUnavailable: "the session file stays encrypted until the device is unlocked; nothing was changed"
    case .notLoggedIn: "nobody is signed in"
    }
  }
}
