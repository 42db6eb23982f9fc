import Foundation

/// A fresh directory under the system's temporary directory, removed by `remove()`.
///
/// Tests that touch the file system use real files in a directory of their own, so they can
/// run in parallel and leave nothing behind.
public struct TemporaryDirectory: Sendable {
  public let url: URL

  /// Creates the directory. `label` shows up in its name, to find leftovers of a crashed run.
  ///
  /// `inMemory` puts it in a file system held in memory where the system has one (Linux's
  /// `/dev/shm`), for a test that writes thousands of files: on a loaded Linux disk an atomic
  /// write costs milliseconds (a model-based test of chapter 1 took 3.3 s there and 0.3 s in
  /// memory), and a file system's speed is not what such a test grades. Elsewhere it is the usual
  /// temporary directory.
  public init(_ label: String = "workbook", inMemory: Bool = false) throws {
    let name = "\(label)-\(UUID().uuidString)"
    let memory = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
    let parent = inMemory && FileManager.default.isWritableFile(atPath: memory.path) ? memory : FileManager.default.temporaryDirectory
    url = parent.appendingPathComponent(name, isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// A path inside the directory.
  public func file(_ name: String) -> URL {
    url.appendingPathComponent(name)
  }

  /// The names of the files in the directory, sorted.
  public func contents() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
  }

  public func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}

/// Runs `body` with a fresh temporary directory and removes it afterwards, even on a throw.
public func withTemporaryDirectory<T>(
  _ label: String = "workbook", _ body: (TemporaryDirectory) async throws -> T
) async throws -> T {
  let directory = try TemporaryDirectory(label)
  defer { directory.remove() }
  return try await body(directory)
}
