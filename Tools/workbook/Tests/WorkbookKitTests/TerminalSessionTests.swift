import Foundation
import Testing

@testable import WorkbookKit

/// The interview practice on a real terminal: `Tools/check-review.sh` runs the built tool in a
/// pseudo-terminal, presses its keys as a learner would, and checks the screen and that ratings
/// last from one run to the next. Here so that the tool's own tests (`make test`) run it.
@Suite("Interview practice on a terminal")
struct TerminalSessionTests {
  /// The `workbook` executable SwiftPM built beside this test bundle.
  static func builtTool() -> String? {
    var folders = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
    folders += Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map { $0.bundleURL.deletingLastPathComponent() }
    return folders.map { $0.appendingPathComponent("workbook").path }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  @Test("keys rate the answers, Ctrl-C quits, the next day's review asks the weakest first, a corrupt file is set aside")
  func endToEnd() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../..").standardized.path
    let tool = try #require(Self.builtTool(), "SwiftPM builds the workbook executable beside the tests")
    let result = try runCommand(["bash", "Tools/check-review.sh", tool], timeout: 180, in: root)
    #expect(result.succeeded, "Tools/check-review.sh: \(result.output)")
  }
}
