import Foundation
import Synchronization
import Workbook

/// The real disk with faults a test switches on: a disk with only `freeBytes` left, and files
/// whose reads fail with `EIO`.
///
/// A full disk fails as the kernel does: a write in place (and a write through a file handle)
/// puts down the bytes that fit, then throws `POSIXError(.ENOSPC)`; an atomic write fails while
/// it writes its temporary file, so the target keeps its old bytes. Every byte written counts
/// against `freeBytes`.
public final class FaultyDisk: FileSystem, Sendable {
  private struct Faults {
    var freeBytes: Int? = nil
    var unreadable: Set<String> = []
  }
  private let faults = Mutex(Faults())
  private let real = RealFileSystem()

  public init() {}

  /// Bytes left on the disk; nil (the default) for the real disk's room.
  public var freeBytes: Int? {
    get { faults.withLock { $0.freeBytes } }
    set { faults.withLock { $0.freeBytes = newValue } }
  }

  /// Makes every later read of `url` fail with `POSIXError(.EIO)`, the file staying where it is.
  public func makeUnreadable(_ url: URL) {
    faults.withLock { _ = $0.unreadable.insert(url.standardizedFileURL.path) }
  }

  public func contents(of url: URL) throws -> Data {
    if faults.withLock({ $0.unreadable.contains(url.standardizedFileURL.path) }) {
      throw POSIXError(.EIO)
    }
    return try real.contents(of: url)
  }

  public func itemExists(at url: URL) -> Bool {
    real.itemExists(at: url)
  }

  public func write(_ data: Data, to url: URL, options: Data.WritingOptions) throws {
    let room = take(data.count)
    if room < data.count {
      if !options.contains(.atomic) { try real.write(data.prefix(room), to: url, options: options) }
      throw POSIXError(.ENOSPC)
    }
    try real.write(data, to: url, options: options)
  }

  public func write(_ data: Data, to handle: FileHandle) throws {
    let room = take(data.count)
    try real.write(data.prefix(room), to: handle)
    if room < data.count { throw POSIXError(.ENOSPC) }
  }

  /// Takes up to `count` bytes of the free space and returns how many it got.
  private func take(_ count: Int) -> Int {
    faults.withLock { faults in
      guard let free = faults.freeBytes else { return count }
      let room = min(free, count)
      faults.freeBytes = free - room
      return room
    }
  }
}
