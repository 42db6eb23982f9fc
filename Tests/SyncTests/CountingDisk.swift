import Foundation
import Synchronization
import Workbook

/// The real disk, counting the writes made through it: a store's cost per operation is its writes
/// (each one rewrites a file and, on a phone, wears flash), and a count does not depend on the
/// machine's load the way a timing does.
final class CountingDisk: FileSystem, Sendable {
  private let real = RealFileSystem()
  private let count = Mutex(0)

  /// How many writes went through so far.
  var writes: Int { count.withLock { $0 } }

  func contents(of url: URL) throws -> Data { try real.contents(of: url) }
  func itemExists(at url: URL) -> Bool { real.itemExists(at: url) }

  func write(_ data: Data, to url: URL, options: Data.WritingOptions) throws {
    count.withLock { $0 += 1 }
    try real.write(data, to: url, options: options)
  }

  func write(_ data: Data, to handle: FileHandle) throws {
    count.withLock { $0 += 1 }
    try real.write(data, to: handle)
  }
}
