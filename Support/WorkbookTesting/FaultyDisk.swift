import Foundation
import Synchronization
import Workbook

/// The real disk with faults a test switches on: a disk with only `freeBytes` left, files whose
/// reads fail with `EIO`, files that data protection keeps encrypted until the first unlock, and a
/// process that dies after its next `writesBeforeCrash` writes.
///
/// A full disk fails as the kernel does: a write in place (and a write through a file handle)
/// puts down the bytes that fit, then throws `POSIXError(.ENOSPC)`; an atomic write fails while
/// it writes its temporary file, so the target keeps its old bytes. Every byte written counts
/// against `freeBytes`.
public final class FaultyDisk: FileSystem, Sendable {
  private struct Faults {
    var freeBytes: Int? = nil
    var unreadable: Set<String> = []
    var protectedUntilUnlock: Set<String> = []
    var writesBeforeCrash: Int? = nil
  }

  /// What a write throws once the process has "crashed": the test then drops everything that
  /// process held in memory and opens the same files again, as a relaunch would.
  public struct Crashed: Error, Equatable {
    public init() {}
  }
  private let faults = Mutex(Faults())
  private let real = RealFileSystem()

  public init() {}

  /// Bytes left on the disk; nil (the default) for the real disk's room.
  public var freeBytes: Int? {
    get { faults.withLock { $0.freeBytes } }
    set { faults.withLock { $0.freeBytes = newValue } }
  }

  /// How many more writes succeed; the one after them, and every write after that, throws
  /// `Crashed` and puts down nothing (an atomic write is all or nothing, so a crash during it leaves
  /// the old file). Nil (the default): no crash.
  public var writesBeforeCrash: Int? {
    get { faults.withLock { $0.writesBeforeCrash } }
    set { faults.withLock { $0.writesBeforeCrash = newValue } }
  }

  /// Makes every later read of `url` fail with `POSIXError(.EIO)`, the file staying where it is.
  public func makeUnreadable(_ url: URL) {
    faults.withLock { _ = $0.unreadable.insert(url.standardizedFileURL.path) }
  }

  /// Makes every later read of `url` fail with `ProtectedDataUnavailable` until `firstUnlock()`,
  /// as a launch before the first unlock since boot reads a file of the default protection class.
  /// Writes are let through, so a test sees whether the code under test would write over a file it
  /// has not read.
  public func protectUntilFirstUnlock(_ url: URL) {
    faults.withLock { _ = $0.protectedUntilUnlock.insert(url.standardizedFileURL.path) }
  }

  /// The user unlocks the device: every protected file reads again.
  public func firstUnlock() {
    faults.withLock { $0.protectedUntilUnlock.removeAll() }
  }

  public func contents(of url: URL) throws -> Data {
    let path = url.standardizedFileURL.path
    let (unreadable, locked) = faults.withLock { ($0.unreadable.contains(path), $0.protectedUntilUnlock.contains(path)) }
    if unreadable { throw POSIXError(.EIO) }
    if locked { throw ProtectedDataUnavailable(url: url) }
    return try real.contents(of: url)
  }

  public func itemExists(at url: URL) -> Bool {
    real.itemExists(at: url)
  }

  public func write(_ data: Data, to url: URL, options: Data.WritingOptions) throws {
    try survive()
    let room = take(data.count)
    if room < data.count {
      if !options.contains(.atomic) { try real.write(data.prefix(room), to: url, options: options) }
      throw POSIXError(.ENOSPC)
    }
    try real.write(data, to: url, options: options)
  }

  public func write(_ data: Data, to handle: FileHandle) throws {
    try survive()
    let room = take(data.count)
    try real.write(data.prefix(room), to: handle)
    if room < data.count { throw POSIXError(.ENOSPC) }
  }

  /// Counts one write against `writesBeforeCrash`, or throws when none is left.
  private func survive() throws {
    let crashed = faults.withLock { faults -> Bool in
      guard let left = faults.writesBeforeCrash else { return false }
      if left <= 0 { return true }
      faults.writesBeforeCrash = left - 1
      return false
    }
    if crashed { throw Crashed() }
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
