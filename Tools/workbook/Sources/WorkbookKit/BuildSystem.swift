import Foundation

/// The engine SwiftPM builds the chapters with. `make … BUILD_SYSTEM=swiftbuild` (or `native`)
/// picks one and passes it on as `WORKBOOK_BUILD_SYSTEM`; left unset, `swift build` and `swift test`
/// use the toolchain's own default (Swift Build from Swift 6.4, Xcode 27), as the learner's Xcode
/// does. The two engines lay out a scratch folder differently, which the grader never needs to
/// know: it names a scratch folder and lets SwiftPM find its products.
enum BuildSystem {
  /// The arguments that follow `swift build` or `swift test`: none, or `--build-system NAME`.
  static func arguments(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
    guard let name = environment["WORKBOOK_BUILD_SYSTEM"]?.trimmingCharacters(in: .whitespaces), !name.isEmpty
    else { return [] }
    return ["--build-system", name]
  }
}
