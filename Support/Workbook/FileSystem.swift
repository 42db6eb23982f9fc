import Foundation

/// The few disk calls a store or a downloader makes, behind one protocol so that a test can make
/// the disk fail the way the system does: full (`ENOSPC`), or a file that is there and cannot be
/// read (`EIO`). Permissions cannot stage those faults: a process running as root ignores them.
///
/// Code under test takes `any FileSystem` and defaults to `RealFileSystem`, which makes the
/// Foundation calls and nothing else.
public protocol FileSystem: Sendable {
  /// The bytes of the file at `url`, as `Data(contentsOf:)` reads them.
  func contents(of url: URL) throws -> Data
  /// Whether anything (a file or a directory) is at `url`.
  func itemExists(at url: URL) -> Bool
  /// Writes `data` to `url`, as `Data.write(to:options:)` does: with `.atomic` through a temporary
  /// file renamed over the target, so a failure leaves the old file whole; without it in place.
  func write(_ data: Data, to url: URL, options: Data.WritingOptions) throws
  /// Writes `data` at the handle's position, as `FileHandle.write(contentsOf:)` does.
  func write(_ data: Data, to handle: FileHandle) throws
}

/// The real disk: each call is the Foundation call its requirement names.
public struct RealFileSystem: FileSystem {
  public init() {}

  public func contents(of url: URL) throws -> Data {
    try Data(contentsOf: url)
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
