import Foundation

/// The system the tool runs on. Code that differs by system asks this, and takes it as a
/// parameter where a test must run the other system's path on Linux.
enum Platform {
  #if os(macOS)
    static let isMac = true
  #else
    static let isMac = false
  #endif
  #if os(Linux)
    static let isLinux = true
  #else
    static let isLinux = false
  #endif
}

/// A machine that cannot build or start the tests, whatever the learner wrote. The grader tells
/// these apart from a compile error or a crash by what the toolchain printed, and shows the fix
/// instead of blaming the learner's code.
enum SetupProblem: Error, Equatable, CustomStringConvertible {
  /// On a Mac, only the Command Line Tools are selected (`xcode-select -p` prints
  /// `/Library/Developer/CommandLineTools`): SwiftPM cannot build Swift Testing's tests with them.
  /// The version 26 tools (and older) fail every test file with `no such module 'Testing'`; the
  /// version 27 tools, whose SwiftPM builds with Swift Build, find the module but not its macros,
  /// and fail every `@Suite` and `@Test` with `plugin for module 'TestingMacros' not found`.
  case commandLineToolsOnly
  /// Elsewhere, a Swift toolchain without Swift Testing (older than 6.0, or a partial install).
  case noSwiftTesting
  /// macOS older than 15: the test bundle links the Synchronization library (`Mutex`), which
  /// macOS 15 was the first to ship, so the loader cannot open it.
  case macOSTooOld
  /// A Swift toolchain older than the manifest's `swift-tools-version`: SwiftPM stops before
  /// building anything. `required` and `installed` are the versions SwiftPM names ("6.2.0").
  case toolchainTooOld(required: String, installed: String)

  /// The command that selects the full Xcode.
  static let selectXcode = "sudo xcode-select -s /Applications/Xcode.app/Contents/Developer"

  /// "6.2.0" as "6.2"; any other version as it is.
  static func shortVersion(_ version: String) -> String {
    version.hasSuffix(".0") && version.filter({ $0 == "." }).count == 2 ? String(version.dropLast(2)) : version
  }

  /// The problem `output` (of `swift build` or `swift test`) shows, if any. `onMac` says which
  /// fix a missing Swift Testing calls for.
  static func diagnose(_ output: String, onMac: Bool = Platform.isMac) -> SetupProblem? {
    let lines = output.components(separatedBy: "\n")
    // SwiftPM: "error: 'ios-systems-workbook': package 'ios-systems-workbook' is using Swift tools
    // version 6.2.0 but the installed version is 6.1.0".
    if let match = matches(#"is using Swift tools version (\S+) but the installed version is ([0-9][0-9.]*[0-9])"#, in: output)
      .first
    {
      return .toolchainTooOld(required: match[1], installed: match[2])
    }
    if output.contains("libswiftSynchronization.dylib")
      && (output.contains("Library not loaded") || output.contains("newer than running OS"))
    {
      return .macOSTooOld
    }
    // A test file, or the shared test support, that cannot import the test framework. The same
    // error in the learner's own file is theirs: a library target cannot import it anywhere.
    let missingFramework = lines.contains { line in
      guard
        line.contains("error: no such module 'Testing'") || line.contains("error: no such module 'XCTest'")
          || line.contains("plugin for module 'TestingMacros' not found")
      else {
        return false
      }
      return !["/Sources/", "/answers/", "/.mutant/"].contains { line.contains($0) }
    }
    if missingFramework || (onMac && output.contains("unable to find utility \"xctest\"")) {
      return onMac ? .commandLineToolsOnly : .noSwiftTesting
    }
    return nil
  }

  var description: String {
    switch self {
    case .commandLineToolsOnly:
      return """
        This Mac builds with the Command Line Tools, not Xcode, and SwiftPM cannot build Swift \
        Testing's tests with them: no test can be built (`no such module 'Testing'`, or with the \
        version 27 tools `plugin for module 'TestingMacros' not found`). Your code is not the problem.
        Install Xcode 26 or later from the App Store (Xcode 27 ships Swift 6.4), open it once, then select it:
            \(Self.selectXcode)
        `xcode-select -p` then prints /Applications/Xcode.app/Contents/Developer. Grade again.
        """
    case .noSwiftTesting:
      return """
        This Swift toolchain has no Swift Testing (`no such module 'Testing'`), so no test can be \
        built. Your code is not the problem. Install Swift 6.2 or later from swift.org (the \
        workbook is tested with 6.3.1), check `swift --version`, and grade again.
        """
    case .toolchainTooOld(let required, let installed):
      return """
        The workbook needs Swift \(Self.shortVersion(required)) or later (Xcode 26 or later; Xcode 27 ships \
        Swift 6.4), and this toolchain is Swift \(Self.shortVersion(installed)): check with `swift --version`, \
        and on a Mac with `xcode-select -p` (it should print the folder of Xcode 26 or later; \
        `\(Self.selectXcode)` selects it). Your code is not the problem.
        """
    case .macOSTooOld:
      return """
        The tests cannot start on this Mac: macOS 15 or later is required. The workbook's locks are \
        `Mutex`, from the Synchronization library, which macOS 15 was the first to ship, so the test \
        bundle could not load libswiftSynchronization.dylib. Your code is not the problem: update \
        macOS (System Settings > General > Software Update), then grade again.
        """
    }
  }
}
