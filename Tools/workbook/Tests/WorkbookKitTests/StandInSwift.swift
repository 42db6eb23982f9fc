import Foundation

@testable import WorkbookKit

/// A `swift` command for `Grader.grade` that builds and tests nothing: `swift build` prints
/// `build`'s text and exits with its status, `swift test` likewise with `test`'s, and every call's
/// arguments are kept in `stand-in/calls.txt`.
enum StandInSwift {
  /// Writes the stand-in into `workbook` and returns its path.
  static func write(in workbook: ScratchWorkbook, build: (String, Int32), test: (String, Int32)) throws -> String {
    try workbook.write("stand-in/build.txt", build.0)
    try workbook.write("stand-in/test.txt", test.0)
    try workbook.write(
      "stand-in/swift",
      """
      #!/bin/sh
      here="$(dirname "$0")"
      echo "$*" >> "$here/calls.txt"
      case "$1" in
        build) cat "$here/build.txt"; exit \(build.1) ;;
        test) cat "$here/test.txt"; exit \(test.1) ;;
      esac
      exit 2
      """)
    let swift = "\(workbook.root)/stand-in/swift"
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift)
    return swift
  }

  /// The arguments of each call the stand-in in `workbook` got, in order.
  static func calls(in workbook: ScratchWorkbook) throws -> [String] {
    try String(contentsOfFile: "\(workbook.root)/stand-in/calls.txt", encoding: .utf8).split(separator: "\n").map(String.init)
  }
}
