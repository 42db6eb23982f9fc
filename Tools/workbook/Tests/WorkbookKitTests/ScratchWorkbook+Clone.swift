import Foundation
import Testing

@testable import WorkbookKit

/// Runs git in `root` with a throwaway identity, and fails the test when git does.
func git(_ arguments: [String], in root: String) throws {
  let result = try runCommand(
    ["git", "-c", "user.name=w", "-c", "user.email=w@example.invalid"] + arguments, timeout: 60, in: root)
  try #require(result.succeeded, "git \(arguments.joined(separator: " ")): \(result.output)")
}

extension ScratchWorkbook {
  /// A learner's clone of a scratch workbook. Both folders are removed when the value goes: keep
  /// it for the length of the test.
  static func learnerClone() throws -> (upstream: ScratchWorkbook, learner: ScratchWorkbook, root: String) {
    let upstream = try ScratchWorkbook()
    try git(["init", "-q"], in: upstream.root)
    try git(["add", "-A"], in: upstream.root)
    try git(["commit", "-qm", "upstream"], in: upstream.root)
    let learner = try ScratchWorkbook(chapter7: false)
    try git(["clone", "-q", upstream.root, learner.root + "/clone"], in: upstream.root)
    return (upstream, learner, learner.root + "/clone")
  }
}
