// Exercise 5 — Atomic completion (intermediate)
//
// Anyone looking at the destination (the user, another process, the next launch) must see either
// nothing, the old file, or the whole new file: never half a download. Write the bytes to a
// temporary file beside the destination and rename it into place when it is complete; a rename
// within one directory is atomic. Implement `create`, `commit` and `discard`.
import Foundation
import Workbook

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `commit` does when the destination already exists.
public nonisolated enum ExistingFilePolicy: Sendable, Equatable, Codable {
  /// Atomically replace the old file: readers see the old or the new file, never a mix.
  case replace
  /// Keep the old file and fail with `DownloadError.destinationExists`.
  case fail
}

/// The temporary file a download writes to, and the destination it becomes when complete.
public nonisolated struct PartialFile: Sendable, Hashable, Codable {
  /// Where the bytes are written while the download runs.
  public let url: URL
  /// Where the finished file goes.
  public let destination: URL

  /// Reattaches to a partial file kept by a paused download.
  public init(url: URL, destination: URL) {
    self.url = url
    self.destination = destination
  }

  /// A new, empty temporary file for `destination`.
  ///
  /// It lives in the destination's directory (a rename is atomic only within one file system) under
  /// a hidden, unique name (it starts with `.`, so a listing of the folder does not show it), so
  /// two downloads never share one and the destination is untouched. That directory must exist:
  /// `create` does not make it (where files go is the caller's decision, and a folder that has
  /// gone is an error to report, not to paper over), and throws when the file cannot be created.
  /// Which error it throws is your choice.
  public static func create(for destination: URL) throws -> PartialFile {
    let directory = destination.deletingLastPathComponent()
    let name = ".\(destination.lastPathComponent).\(UUID().uuidString).partial"
    let url = directory.appendingPathComponent(name)
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
    }
    return PartialFile(url: url, destination: destination)
  }

  /// The size of the partial file on disk.
  public var size: Int64 {
    let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
  }

  /// Opens the partial file for writing after its first `offset` bytes: anything beyond them is
  /// cut off (a restart passes 0). Creates the file if it is missing.
  public func openForWriting(at offset: Int64) throws -> FileHandle {
    if !FileManager.default.fileExists(atPath: url.path) {
      guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
      }
    }
    let handle = try FileHandle(forWritingTo: url)
    try handle.truncate(atOffset: UInt64(max(0, offset)))
    try handle.seekToEnd()
    return handle
  }

  /// Moves the complete file to `destination` in one step and returns the destination.
  ///
  /// `.replace` renames over an existing file (atomic); `.fail` throws
  /// `DownloadError.destinationExists(destination)` and leaves both files as they are (removing
  /// the temporary file is `discard`'s job). `FileManager.moveItem` refuses to overwrite, and
  /// removing the old file first leaves a moment with no file at all: POSIX `rename` replaces in
  /// one step. When the temporary file is gone, `commit` throws (which error is your choice) and
  /// the destination stays as it was.
  public func commit(policy: ExistingFilePolicy) throws -> URL {
    switch policy {
    case .fail:
      if FileManager.default.fileExists(atPath: destination.path) {
        throw DownloadError.destinationExists(destination)
      }
      try FileManager.default.moveItem(at: url, to: destination)
      return destination
    case .replace:
      if rename(url.path, destination.path) != 0 {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
      }
      return destination
    }
  }

  /// Removes the temporary file, if it is still there. Never touches the destination, nor a folder
  /// found at the temporary file's path (resume data from an earlier launch may name a path that
  /// is now a folder): a file is all `discard` removes, never the folder and what it holds.
  public func discard() {
    // unlink(2) removes a file and refuses a folder (EISDIR, or EPERM on Darwin), where
    // `FileManager.removeItem` would take the folder and everything in it.
    _ = unlink(url.path)
  }
}
