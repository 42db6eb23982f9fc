import Foundation
import Testing

/// One running `token-refresher` (see `Support/TokenRefresher/main.swift`): its standard output
/// read line by line on a thread of its own, its standard input for the go-ahead. Every wait is
/// for a line or for the end of the output, never for time to pass.
final class RefresherProcess: @unchecked Sendable {
  /// The program, built by SwiftPM beside the test bundle in the same products folder (its path
  /// is asked of the running test, never written down: the build engines lay folders out apart).
  static func program() throws -> URL {
    let folder: URL?
    #if os(macOS)
      // The test bundle is loaded by a helper tool; the bundle itself sits in the products folder.
      folder = Bundle.allBundles.first { $0.bundleURL.pathExtension == "xctest" }?.bundleURL.deletingLastPathComponent()
    #else
      folder = Bundle.main.executableURL?.deletingLastPathComponent()
    #endif
    guard let folder, FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("token-refresher").path) else {
      throw RefresherMissing(folder: folder?.path ?? "(no test bundle found)")
    }
    return folder.appendingPathComponent("token-refresher")
  }

  struct RefresherMissing: Error, CustomStringConvertible {
    var folder: String
    var description: String {
      "token-refresher is not beside the test bundle in \(folder): build the package's products first (`swift build --build-tests`; make does)"
    }
  }

  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  /// What the process prints, a line at a time; the stream ends when the process closes its
  /// output (it ended). One reader.
  let lines: AsyncStream<String>

  /// Starts `program` on the shared `folder`, refreshing against `api`.
  init(_ program: URL, folder: URL, api: URL) throws {
    process.executableURL = program
    process.arguments = [folder.path, api.absoluteString]
    process.standardInput = input
    process.standardOutput = output
    let (stream, continuation) = AsyncStream.makeStream(of: String.self)
    lines = stream
    let reading = output.fileHandleForReading
    try process.run()
    let reader = Thread {
      var pending = Data()
      while case let chunk = reading.availableData, !chunk.isEmpty {
        pending.append(chunk)
        while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
          continuation.yield(String(decoding: pending[pending.startIndex..<end], as: UTF8.self))
          pending.removeSubrange(pending.startIndex...end)
        }
      }
      continuation.finish()
    }
    reader.name = "token-refresher output"
    reader.start()
  }

  /// The go-ahead the process waits for after `ready`.
  func go() throws {
    try input.fileHandleForWriting.write(contentsOf: Data("go\n".utf8))
  }

  /// Ends the process if it still runs: a failed test never leaves one behind.
  func stop() {
    if process.isRunning { process.terminate() }
    try? input.fileHandleForWriting.close()
  }
}
