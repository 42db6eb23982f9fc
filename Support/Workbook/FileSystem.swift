import Foundation

/// The few disk calls a store or a downloader makes, behind one protocol so that a test can make
/// the disk fail the way the system does: full (`ENOSPC`), or a file that is there and cannot be
/// read (`EIO`), or a file that data protection keeps encrypted until the user unlocks
/// (`ProtectedDataUnavailable`). Permissions cannot stage those faults: a process running as root
/// ignores them.
///
/// Code under test takes `any FileSystem` and defaults to `RealFileSystem`, which makes the
/// Foundation calls and nothing else.
public protocol FileSystem: Sendable {
  /// The bytes of the file at `url`, as `Data(contentsOf:)` reads them. A read that data protection
  /// refused throws `ProtectedDataUnavailable`, so the caller can tell "not yet" from "not there"
  /// and "damaged".
  func contents(of url: URL) throws -> Data
  /// Whether anything (a file or a directory) is at `url`.
  func itemExists(at url: URL) -> Bool
  /// Writes `data` to `url`, as `Data.write(to:options:)` does: with `.atomic` through a temporary
  /// file renamed over the target, so a failure leaves the old file whole; without it in place.
  func write(_ data: Data, to url: URL, options: Data.WritingOptions) throws
  /// Writes `data` at the handle's position, as `FileHandle.write(contentsOf:)` does.
  func write(_ data: Data, to handle: FileHandle) throws
}

/// The real disk: each call is the Foundation call its requirement names, and on iOS, tvOS,
/// watchOS and visionOS a read refused with `EPERM` is reported as `ProtectedDataUnavailable`.
/// The sandbox refuses with `EPERM` too (Quinn, Apple DTS, "On File System Permissions"), so the
/// app can confirm with `UIApplication.isProtectedDataAvailable`; taking one for the other keeps
/// the session and refuses writes, which is never a sign-out.
public struct RealFileSystem: FileSystem {
  public init() {}

  public func contents(of url: URL) throws -> Data {
    do {
      return try Data(contentsOf: url)
    } catch {
      #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        if ProtectedDataUnavailable.isRefusal(error) { throw ProtectedDataUnavailable(url: url) }
      #endif
      throw error
    }
  }

  public func itemExists(at url: URL) -> Bool {
    FileManager.default.fileExists(atPath: url.path)
  }

  public func write(_ data: Data, to url: URL, options: Data.WritingOptions) throws {
    try data.write(to: url, options: options)
  }

  public func write(_ data: Data, to handle: FileHandle) throws {
    try handle.write(contentsOf: data)
  }
}
