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
public actor SessionStore {
  public let fileURL: URL
  private var session = Session.empty

  public init(fileURL: URL) {
    self.fileURL = fileURL
  }

  /// Reads the session from disk: call it once at launch.
  ///
  /// A missing file means nobody has signed in: the session is empty and no error is thrown.
  /// A file that does not decode (truncated, corrupt, from an incompatible version) is moved
  /// next to itself with a `.corrupt` suffix (`session.json` → `session.json.corrupt`, replacing
  /// an older copy there), the session becomes empty, and `SessionStoreError.corruptFile` tells
  /// the caller where the old bytes are. If the move itself fails, `.writeFailed` says so.
  public func load() throws(SessionStoreError) {
    // TODO: decode the file; a missing file is empty, a corrupt one moves aside to `.corrupt`.
    throw .writeFailed(reason: NotImplemented("SessionStore.load").description)
  }

  /// The current session, as one consistent value.
  public func snapshot() -> Session {
    // TODO: return the session in memory (placeholder: always empty).
    .empty
  }

  /// Signs a user in and saves the session. Preferences are kept.
  public func login(userID: String, accessToken: String, refreshToken: String) throws(SessionStoreError) {
    // TODO: set the user and tokens, keep the preferences, then save atomically.
    throw .writeFailed(reason: NotImplemented("SessionStore.login").description)
  }

  /// Replaces the tokens after a refresh and saves them. Throws `.notLoggedIn` when nobody is
  /// signed in (`isLoggedIn` is false): a refresh that lands after a logout must not sign back in.
  public func updateTokens(accessToken: String, refreshToken: String) throws(SessionStoreError) {
    // TODO: refuse with `.notLoggedIn` when signed out, else replace both tokens and save.
    throw .writeFailed(reason: NotImplemented("SessionStore.updateTokens").description)
  }

  /// Sets a non-secret preference and saves it.
  public func setPreference(_ value: String?, for key: String) throws(SessionStoreError) {
    // TODO: set or remove the preference, then save.
    throw .writeFailed(reason: NotImplemented("SessionStore.setPreference").description)
  }

  /// Signs out: the user ID and both tokens are erased in memory and on disk; preferences stay.
  public func logout() throws(SessionStoreError) {
    // TODO: erase the user ID and both tokens, keep the preferences, then save.
    throw .writeFailed(reason: NotImplemented("SessionStore.logout").description)
  }
}
