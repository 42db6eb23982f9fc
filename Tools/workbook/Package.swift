// swift-tools-version: 6.0
// The workbook's command-line tool: grades chapters, shows hints and progress, runs the interview
// walkthroughs and the mutants, and checks the workbook's own rules (`workbook check`). It is a
// package of its own so that it builds once, whatever state the learner's chapters are in.
//
// WorkbookKit holds every command; `workbook` is the thin executable around it; WorkbookKitTests
// are the tool's own tests (`make test` runs them).
import PackageDescription

let package = Package(
  name: "workbook",
  platforms: [.macOS(.v15)],
  targets: [
    .target(name: "WorkbookKit", path: "Sources/WorkbookKit"),
    .executableTarget(name: "workbook", dependencies: ["WorkbookKit"], path: "Sources/workbook"),
    .testTarget(
      name: "WorkbookKitTests", dependencies: ["WorkbookKit"], path: "Tests/WorkbookKitTests", exclude: ["Fixtures"]),
  ],
  swiftLanguageModes: [.v6]
)
