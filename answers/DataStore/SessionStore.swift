// Exercise 6 — A typed, persistent session store (advanced)
//
// Most apps keep "who is signed in" in a store like this one. Persist it as JSON, and make every
// failure safe: a write replaces the file in one step (never a half-written file), a corrupt
// file is moved aside rather than crashing or being silently overwritten, and logout leaves no
// secret behind, in memory or on disk.
//
// (A real app keeps tokens in the Keychain; the file here stands in for any persisted state.)
import Foundation
import Workbook

/// A session that survives relaunches, stored as JSON at `fileURL`.
///
/// Every method that changes the session writes the file first and changes memory only once the
/// write succeeded: when one throws `.writeFailed`, memory and disk both still hold the session
/// from before the call.
///
/// The layout of the JSON is your choice (the `Codable` conformance `Session` already has is
/// enough): the tests only read back what your store wrote, and write broken files of their own.
public actor SessionStore {
  public let fileURL: URL
  private var session = Session.empty

  public init(fileURL: URL) {
    self.fileURL = fileURL
  }

  /// Reads the session from disk: call it once at launch.
  ///
  /// A missing file means nobody has signed in: the session is empty (even if memory held one)
  /// and no error is thrown. A file that does not decode (truncated, corrupt, from an
  /// incompatible version, or empty: zero bytes are no session, so an empty file is corrupt too)
  /// is moved next to itself with a `.corrupt` suffix (`session.json` → `session.json.corrupt`,
  /// replacing an older copy there, so a second corrupt file is kept aside too), the session
  /// becomes empty, and `SessionStoreError.corruptFile` tells the caller where the old bytes are.
  /// If the move itself fails, `.writeFailed` says so.
  ///
  /// A file that is there but cannot be read at all (a folder in its place, no permission to
  /// read it) is yours to handle as you see fit: no test depends on it.
  public func load() throws(SessionStoreError) {
    let data: Data
    do {
      data = try Data(contentsOf: fileURL)
    } catch {
      session = .empty
      return
    }
    do {
      session = try JSONDecoder().decode(Session.self, from: data)
    } catch {
      session = .empty
      let kept = fileURL.appendingPathExtension("corrupt")
      try? FileManager.default.removeItem(at: kept)
      do {
        try FileManager.default.moveItem(at: fileURL, to: kept)
      } catch {
        throw .writeFailed(reason: "could not move the unreadable file aside: \(error)")
      }
      throw .corruptFile(keptAt: kept)
    }
  }

  /// The current session, as one consistent value.
  public func snapshot() -> Session {
    session
  }

  /// Signs a user in and saves the session, replacing whoever was signed in (no error: the
  /// previous user's ID and tokens are simply gone). Preferences are kept.
  public func login(userID: String, accessToken: String, refreshToken: String) throws(SessionStoreError) {
    var next = session
    next.userID = userID
    next.accessToken = accessToken
    next.refreshToken = refreshToken
    try save(next)
  }

  /// Replaces the tokens after a refresh and saves them. Throws `.notLoggedIn` when nobody is
  /// signed in (`isLoggedIn` is false): a refresh that lands after a logout must not sign back in.
  public func updateTokens(accessToken: String, refreshToken: String) throws(SessionStoreError) {
    guard session.isLoggedIn else { throw .notLoggedIn }
    var next = session
    next.accessToken = accessToken
    next.refreshToken = refreshToken
    try save(next)
  }

  /// Sets a non-secret preference and saves it; a nil `value` removes the preference. Signed in or
  /// not: preferences belong to the app, not to a user, so this never throws `.notLoggedIn`.
  public func setPreference(_ value: String?, for key: String) throws(SessionStoreError) {
    var next = session
    next.preferences[key] = value
    try save(next)
  }

  /// Signs out: the user ID and both tokens are erased in memory and on disk; preferences stay.
  /// Logging out while signed out is no error (a second tap on "Sign out", a logout after an
  /// expired session): whatever user ID and tokens there are get erased, and nothing is thrown
  /// unless the write fails. A logout whose write fails changes nothing, in memory either: the
  /// user is still signed in on disk, `.writeFailed` says so, and the app can try again.
  public func logout() throws(SessionStoreError) {
    try save(Session(preferences: session.preferences))
  }

  /// Writes `next` to disk in one step and only then makes it the current session, so memory
  /// and disk never disagree after a failed write.
  private func save(_ next: Session) throws(SessionStoreError) {
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      let data = try encoder.encode(next)
      // `.atomic` writes a temporary file on the target's volume (in a sandboxed app, in an item
      // replacement directory; elsewhere beside the target) and renames it over the target: a
      // crash leaves either the old file or the new one, never a mix.
      try data.write(to: fileURL, options: .atomic)
    } catch {
      throw .writeFailed(reason: "\(error)")
    }
    session = next
  }
}
