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

  /// A stand-in `swift` whose first `swift build` prints `first` and fails, and whose later builds
  /// succeed; it logs every call. Returns the calls after one grading run.
  static func grade(firstBuild first: String) throws -> [String] {
    let workbook = try ScratchWorkbook()
    let chapter = try Catalog.load(root: workbook.root).chapter(7)
    try workbook.write("stand-in/first-build.txt", first)
    try workbook.write(
      "stand-in/swift",
      """
      #!/bin/sh
      here="$(dirname "$0")"
      echo "$1" >> "$here/calls.txt"
      if [ "$1" = build ] && [ ! -e "$here/built" ]; then touch "$here/built"; cat "$here/first-build.txt"; exit 1; fi
      exit 0
      """)
    let swift = "\(workbook.root)/stand-in/swift"
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift)
    try FileManager.default.createDirectory(
      atPath: "\(workbook.root)/\(Grader.scratchPath([chapter], Variant()))", withIntermediateDirectories: true)
    _ = try Grader.grade([chapter], Variant(), root: workbook.root, swift: swift, buildSystem: [])
    return try String(contentsOfFile: "\(workbook.root)/stand-in/calls.txt", encoding: .utf8).split(separator: "\n").map(String.init)
  }

  @Test("a crash of the build engine itself is built once more; a compile error is not")
  func engineCrashIsBuiltAgain() throws {
    let crash = """
      *** Program crashed: Bad pointer dereference at 0x0000000000000030 ***
      Thread 0 "swift-build":
       13 [ra] 0x000055ee2f2de2f8 closure #1 in discoveredSwiftCompilerInfo(_:_:at:blocklistsPathOverride:) + 1175 in swift-package at /swift-build/Sources/SWBCore/SwiftCompiler.swift:3726:28
      """
    #expect(Grader.buildEngineCrashed(crash))
    #expect(try Self.grade(firstBuild: crash).filter { $0 == "build" }.count == 2)
    let compileError = "Sources/Counters/Counter.swift:3:1: error: expected declaration"
    #expect(!Grader.buildEngineCrashed(compileError))
    #expect(try Self.grade(firstBuild: compileError).filter { $0 == "build" }.count == 1)
  }
}
