// swift-tools-version: 6.0
// The workbook's command-line tool: grades chapters, shows hints and progress, runs the interview
// walkthroughs and the mutants. It is a package of its own so that it builds once, whatever state
// the learner's chapters are in.
import PackageDescription

let package = Package(
  name: "workbook",
  platforms: [.macOS(.v15)],
  targets: [
    .executableTarget(name: "workbook", path: "Sources/workbook")
  ],
  swiftLanguageModes: [.v6]
)
