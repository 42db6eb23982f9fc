import Foundation
import Synchronization
import Workbook
import WorkbookTesting

/// A disk held in memory for the convergence simulation, which writes thousands of small files a
/// run: the same promises as `FaultyDisk` (a write is whole or absent, a crash refuses every write
/// from the chosen one on), at memory speed. The chapter's other tests use real files.
final class MemoryDisk: FileSystem, Sendable {
  private struct State {
    var files: [String: Data] = [:]
    var writesBeforeCrash: Int?
  }
  private let state = Mutex(State())

  /// How many more writes succeed before every write throws `FaultyDisk.Crashed`; nil: no crash.
  var writesBeforeCrash: Int? {
    get { state.withLock { $0.writesBeforeCrash } }
    set { state.withLock { $0.writesBeforeCrash = newValue } }
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
      if let left = state.writesBeforeCrash {
        if left <= 0 { throw FaultyDisk.Crashed() }
        state.writesBeforeCrash = left - 1
      }
      state.files[url.path] = data
    }
  }

  func write(_ data: Data, to handle: FileHandle) throws {
    throw CocoaError(.featureUnsupported)
  }
}
