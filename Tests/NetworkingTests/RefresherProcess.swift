import Foundation
import Testing

/// One running `token-refresher` (see `Support/TokenRefresher/main.swift`): its standard output
/// read line by line on a thread of its own, its standard input for the go-ahead. Every wait is
/// for a line or for the end of the output, never for time to pass.
final class RefresherProcess: @unchecked Sendable {
  /// The program, built by SwiftPM into the products folder that holds the test bundle (its path
  /// is read from the running test, never written down: the build engines lay folders out apart).
  /// The bundle's own folder first, then up to three folders above it, for a layout that puts the
  /// test binary deeper than the executables.
  static func program() throws -> URL {
    #if canImport(Darwin)
      // The tests are loaded into a helper tool: the bundle that holds this class is the test bundle.
      let testBinary = Bundle(for: RefresherProcess.self).bundleURL
    #else
      let testBinary = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    #endif
    var folder = testBinary.deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("token-refresher")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    throw RefresherMissing(folder: testBinary.deletingLastPathComponent().path)
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
