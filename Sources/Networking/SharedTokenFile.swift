// Exercise 4, part 2 — One refresh across processes (advanced)
//
// An app and its extensions (a widget, a notification service extension) are separate processes,
// each with its own `TokenStore`: the actor makes one refresh per process, not one per device.
// With rotating refresh tokens, two processes that refresh at once present the same refresh token
// twice, and the server takes the second for a stolen token and revokes the session (RFC 9700
// §4.14.2). The processes keep the token in one file in the folder they share, and a refresh takes
// the file lock, reads the file again, and goes to the server only if the file still holds the
// refresh token it was about to send.
import Foundation
import Workbook

// Given — where the shared token lives, and how it is read and written. `refreshing` is yours.
/// The session's token in a folder an app and its extensions share (on iOS, the App Group
/// container, `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`), and the lock
/// file beside it that lets one process at a time rotate it.
///
/// Each process gives its `TokenStore` the token `read()` returns, `refreshing(_:)` as its refresh,
/// and a `persist` that writes nothing: the shared file is written only under the lock, by
/// `refreshing` and by `write(_:)` (sign-in, sign-out), so a process never puts back a token that
/// another process has rotated since.
public nonisolated struct SharedTokenFile: Sendable {
  /// The token, as JSON, replaced whole (`.atomic`) on every write.
  public let tokenURL: URL
  /// The file the processes lock; it holds nothing.
  public let lockURL: URL

  public init(directory: URL) {
    tokenURL = directory.appendingPathComponent("token.json")
    lockURL = directory.appendingPathComponent("token.lock")
  }

  /// The token the processes share now, or nil when signed out. Every write replaces the file
  /// whole, so a read without the lock sees one token or the next, never a mix.
  public func read() throws -> AuthToken? {
    guard FileManager.default.fileExists(atPath: tokenURL.path) else { return nil }
    return try JSONDecoder().decode(AuthToken.self, from: Data(contentsOf: tokenURL))
  }

  /// Replaces the shared token after a sign-in (a token) or a sign-out (nil), under the lock, so
  /// it never lands in the middle of another process's refresh.
  public func write(_ token: AuthToken?) async throws {
    try await FileLock.withExclusiveLock(on: lockURL) { try store(token) }
  }

  /// Writes the file; the caller holds the lock.
  func store(_ token: AuthToken?) throws {
    if let token {
      try JSONEncoder().encode(token).write(to: tokenURL, options: .atomic)
    } else if FileManager.default.fileExists(atPath: tokenURL.path) {
      try FileManager.default.removeItem(at: tokenURL)
    }
  }

  /// The refresh to give each process's `TokenStore`: however many processes ask at once, one
  /// refresh of the shared refresh token reaches the server.
  ///
  /// Under the lock, from reading the file to writing it: the file is read again, since another
  /// process may have rotated the token while this one waited. If it no longer holds
  /// `refreshToken`, that process's token is the answer and nothing is sent (a retired refresh
  /// token is never presented); signed out meanwhile, `.unauthorized`. Otherwise `refresh` runs
  /// and its new pair is written, stamped on `now`, before the lock is released. A dead refresh
  /// token (a 401, or 400 `invalid_grant`) is dead for every process: the file is cleared.
  public func refreshing(
    now: @escaping @Sendable () -> Date = Date.init, _ refresh: @escaping TokenStore.Refresh
  ) -> TokenStore.Refresh {
    // TODO: under the lock, read the file again; send `refreshToken` only if the file still holds
    // it, and write the new pair before the lock is released.
    { _ in throw NetworkError.encoding(NotImplemented("SharedTokenFile.refreshing").description) }
  }
}
