import Foundation
import Synchronization
import Workbook
import WorkbookTesting

/// A disk held in memory for the convergence simulation, which writes thousands of small files a
/// run: the same promises as `FaultyDisk`, at memory speed. A crash refuses every write from the
/// chosen one on and puts down nothing; a full disk fails a write as the kernel does, an atomic one
/// leaving the old file and one in place leaving the bytes that fit (half, here). The chapter's
/// other tests use real files.
final class MemoryDisk: FileSystem, Sendable {
  private struct State {
    var files: [String: Data] = [:]
    var writesBeforeCrash: Int?
    var fullForWrites = 0
    var refusedWrites = 0
    var attempts: [String: Int] = [:]
    var unchanged: [String: Int] = [:]
  }
  private let state = Mutex(State())

  /// How many more writes succeed before every write throws `FaultyDisk.Crashed`; nil: no crash.
  var writesBeforeCrash: Int? {
    get { state.withLock { $0.writesBeforeCrash } }
    set { state.withLock { $0.writesBeforeCrash = newValue } }
  }

  /// How many of the next writes find the disk full (0: none).
  var fullForWrites: Int {
    get { state.withLock { $0.fullForWrites } }
    set { state.withLock { $0.fullForWrites = newValue } }
  }

  /// How many writes this disk has refused so far, for a crash or for want of room.
  var refusedWrites: Int { state.withLock { $0.refusedWrites } }

  /// How many writes were tried on files named `name` (in any folder), refused ones included: a
  /// count does not depend on the machine's load the way a timing does.
  func writes(to name: String) -> Int {
    state.withLock { $0.attempts[name, default: 0] }
  }

  /// How many writes to files named `name` put down the bytes the file already held: each one
  /// wore the flash and spent the battery to change nothing.
  func unchangedWrites(to name: String) -> Int {
    state.withLock { $0.unchanged[name, default: 0] }
  }

  /// Replaces the file at `url`, if there is one, with bytes that decode as nothing, as a failing
  /// flash block or a restore from a bad backup would, and returns what it held.
  func garble(_ url: URL) -> Data? {
    state.withLock { state in
      guard let old = state.files[url.path] else { return nil }
      state.files[url.path] = Data("\u{1}garbled".utf8)
      return old
    }
  }

  /// Puts `data` back at `url` (the repair after `garble`), not counted as a write.
  func restore(_ data: Data, at url: URL) {
    state.withLock { $0.files[url.path] = data }
  }

  /// The same files, with no crash pending: what a relaunched process finds.
  func relaunched() -> MemoryDisk {
    let copy = MemoryDisk()
    let files = state.withLock { $0.files }
    copy.state.withLock { $0.files = files }
    return copy
  }

  func contents(of url: URL) throws -> Data {
    guard let data = state.withLock({ $0.files[url.path] }) else { throw CocoaError(.fileReadNoSuchFile) }
    return data
  }

  func itemExists(at url: URL) -> Bool {
    state.withLock { $0.files[url.path] != nil }
  }

  func write(_ data: Data, to url: URL, options: Data.WritingOptions) throws {
    try state.withLock { state in
      state.attempts[url.lastPathComponent, default: 0] += 1
      if let left = state.writesBeforeCrash {
        if left <= 0 {
          state.refusedWrites += 1
          throw FaultyDisk.Crashed()
        }
        state.writesBeforeCrash = left - 1
      }
      if state.fullForWrites > 0 {
        state.fullForWrites -= 1
        state.refusedWrites += 1
        if !options.contains(.atomic) { state.files[url.path] = data.prefix(data.count / 2) }
        throw POSIXError(.ENOSPC)
      }
      if state.files[url.path] == data { state.unchanged[url.lastPathComponent, default: 0] += 1 }
      state.files[url.path] = data
    }
  }

  func write(_ data: Data, to handle: FileHandle) throws {
    throw CocoaError(.featureUnsupported)
  }
}
