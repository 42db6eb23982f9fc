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
/// from before the call. A write that stops part-way, as on a full disk (`ENOSPC`), leaves the
/// previous file whole and readable.
///
/// A launch before the first unlock since boot cannot read the file (data protection), and must
/// not sign anyone out: `load()` then throws `.protectedDataUnavailable`, keeps memory and disk as
/// they were, and every method that writes throws `.protectedDataUnavailable` too, without
/// writing, until a later `load()` reads the file. Call `load()` again once protected data is
/// available (`UIApplication.protectedDataDidBecomeAvailableNotification`).
///
/// The layout of the JSON is your choice (the `Codable` conformance `Session` already has is
/// enough): the tests only read back what your store wrote, and write broken files of their own.
public actor SessionStore {
  public let fileURL: URL
  /// Every read and write of the file goes through `files`.
  private let files: any FileSystem
  private var session = Session.empty
  /// True after a `load()` that data protection refused, until a `load()` reads the file: the
  /// session on disk is unknown, so no write may replace it.
  private var fileUnread = false

  /// A store for the session at `fileURL`. `files` is the disk it reads and writes through: the
  /// real one unless a test passes one that fails (full, or a file that cannot be read).
  public init(fileURL: URL, files: any FileSystem = RealFileSystem()) {
    self.fileURL = fileURL
    self.files = files
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
  /// Nothing at `fileURL` is a missing file too: its folder removed, or a file standing where its
  /// folder should be (nothing can have been saved there). Something that is there but cannot be
  /// read at all (an I/O error such as `EIO`, a folder in the file's place) throws
  /// `.unreadableFile` with the session empty, and stays where it is, neither moved nor removed:
  /// its bytes may read fine at the next launch.
  ///
  /// A read that `files` refuses with `ProtectedDataUnavailable` (the device has not been unlocked
  /// since boot) is none of these: it throws `.protectedDataUnavailable`, leaves the session in
  /// memory as it was and the file untouched, and makes every write throw the same until a later
  /// `load()` reads the file, whatever it then finds.
  public func load() throws(SessionStoreError) {
    let data: Data
    do {
      data = try files.contents(of: fileURL)
    } catch is ProtectedDataUnavailable {
      // Not yet, rather than not there: keep the session, and refuse writes until a load reads it.
      fileUnread = true
      throw .protectedDataUnavailable
    } catch {
      fileUnread = false
      session = .empty
      // Only something that is there and fails to read is an error; keep it for a later launch.
      guard files.itemExists(at: fileURL) else { return }
      throw .unreadableFile(reason: "\(error)")
    }
    fileUnread = false
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

  /// The current session.
  public func snapshot() -> Session {
    session
  }

  /// Signs a user in and saves the session, replacing whoever was signed in (no error: the
  /// previous user's ID and tokens are simply gone). Preferences are kept. Like every write, it
  /// throws `.protectedDataUnavailable` while the file is unread after a refused `load()`.
  public func login(userID: String, accessToken: String, refreshToken: String) throws(SessionStoreError) {
    var next = session
    next.userID = userID
    next.accessToken = accessToken
    next.refreshToken = refreshToken
    try save(next)
  }

  /// Replaces the tokens after a refresh and saves them. Throws `.notLoggedIn` when nobody is
  /// signed in (`isLoggedIn` is false): a refresh that lands after a logout must not sign back in.
  /// While the file is unread after a refused `load()` it throws `.protectedDataUnavailable`
  /// instead: nobody knows yet whether someone is signed in.
  public func updateTokens(accessToken: String, refreshToken: String) throws(SessionStoreError) {
    guard !fileUnread else { throw .protectedDataUnavailable }
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
  /// and disk never disagree after a failed write. Refuses while the file is unread: `next` was
  /// built from a session that may not be the one on disk.
  private func save(_ next: Session) throws(SessionStoreError) {
    guard !fileUnread else { throw .protectedDataUnavailable }
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      let data = try encoder.encode(next)
      // `.atomic` writes a temporary file on the target's volume (in a sandboxed app, in an item
      // replacement directory; elsewhere beside the target) and renames it over the target: a
      // crash leaves either the old file or the new one, never a mix.
      try files.write(data, to: fileURL, options: .atomic)
    } catch {
      throw .writeFailed(reason: "\(error)")
    }
    session = next
  }
}
