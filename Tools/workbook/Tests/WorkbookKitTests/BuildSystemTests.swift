import Foundation
import Testing

@testable import WorkbookKit

/// `make … BUILD_SYSTEM=` reaches every `swift build` and `swift test` the grader runs, and an
/// unset one leaves the toolchain's default engine alone.
@Suite("Build system")
struct BuildSystemTests {
  @Test("BUILD_SYSTEM unset or empty: no flag, the toolchain's default engine")
  func unsetMeansTheDefault() {
    #expect(BuildSystem.arguments(environment: [:]).isEmpty)
    #expect(BuildSystem.arguments(environment: ["WORKBOOK_BUILD_SYSTEM": ""]).isEmpty)
    #expect(BuildSystem.arguments(environment: ["WORKBOOK_BUILD_SYSTEM": " "]).isEmpty)
  }

  @Test("BUILD_SYSTEM=swiftbuild or native: the flag that names it")
  func namedEngine() {
    #expect(BuildSystem.arguments(environment: ["WORKBOOK_BUILD_SYSTEM": "swiftbuild"]) == ["--build-system", "swiftbuild"])
    #expect(BuildSystem.arguments(environment: ["WORKBOOK_BUILD_SYSTEM": "native"]) == ["--build-system", "native"])
  }

  @Test("grading passes the engine to its build and to its test run")
  func gradingPassesTheEngine() throws {
    let workbook = try ScratchWorkbook()
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    try workbook.write(
      "stand-in/swift",
      """
      #!/bin/sh
      echo "$*" >> "$(dirname "$0")/calls.txt"
      [ "$1" = build ] && echo "Build complete!"
      exit 0
      """)
    let swift = "\(workbook.root)/stand-in/swift"
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift)
    // The scratch folder exists, so the grader does not announce a first build.
    try FileManager.default.createDirectory(
      atPath: "\(workbook.root)/\(Grader.scratchPath([chapter], Variant()))", withIntermediateDirectories: true)
    _ = try Grader.grade([chapter], Variant(), root: workbook.root, swift: swift, buildSystem: ["--build-system", "swiftbuild"])
    let calls = try String(contentsOfFile: "\(workbook.root)/stand-in/calls.txt", encoding: .utf8)
      .split(separator: "\n").map(String.init)
    #expect(calls.count >= 2)
    #expect(calls.first?.hasPrefix("build --build-system swiftbuild ") == true)
    #expect(calls.dropFirst().allSatisfy { $0.hasPrefix("test ") && $0.contains("--build-system swiftbuild") })
  }
}
