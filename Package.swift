// swift-tools-version: 6.2
//
// iOS Systems Workbook — one library target per chapter, graded by one test target per chapter.
//
// The manifest reads a few environment variables that `make` sets, so that a learner's compile
// error in one chapter never blocks another chapter, and one test suite grades both the learner's
// code and the reference answers:
//
//   WORKBOOK_CHAPTERS  which chapters to declare: "1", "1,6", or "all" (the default, for an IDE)
//   WORKBOOK_ANSWERS   chapters built from answers/<Module> instead of Sources/<Module>:
//                      "all", or a list such as "3,4" (the capstone's REFERENCE switch)
//   WORKBOOK_MUTANT    a chapter number: that chapter is read from .mutant/<Module>, a patched
//                      copy of its answer that `make mutants` writes, graded by the same tests
//   WORKBOOK_WERROR    "1": warnings are errors in the chapters and support code (the
//                      maintainer gate; not in tests, where test macros expand with warnings)
//   WORKBOOK_TOOLS     "1": also declare the bench and figure programs, which drive the
//                      reference answers (`make bench`, `make figures`, `make test`); grading a
//                      chapter never builds them
//   WORKBOOK_NONSENDING "1": the chapters, the answers, the support code and the tests are compiled
//                      with the upcoming feature NonisolatedNonsendingByDefault (SE-0461), under
//                      which a `nonisolated async` function runs on its caller's actor unless it is
//                      marked `@concurrent` (`make test-nonsending`)
//   WORKBOOK_APP_TARGET "1": the chapter modules are compiled the way a new app target of Xcode 26
//                      or 27 compiles its code: default isolation `MainActor` (SE-0466) and
//                      Approachable Concurrency (the upcoming feature ApproachableConcurrency from
//                      Swift 6.3; beyond Swift 6 mode it is NonisolatedNonsendingByDefault, SE-0461,
//                      and InferIsolatedConformances, SE-0470, which Swift 6.2 is given one by one);
//                      the support code and the tests get NonisolatedNonsendingByDefault only, as
//                      under WORKBOOK_NONSENDING (`make test-app-target`)
import Foundation
import PackageDescription

struct Chapter {
  let number: Int
  let module: String
  /// Chapters this one composes: their modules are its dependencies.
  let composes: [Int]
}

/// Every chapter. Each chapter's `Chapters/NN-name/exercises.json` says the same (number, module,
/// composes): SwiftPM may evaluate this manifest in a sandbox that cannot read it, so the list is
/// written here, and `workbook check` (run by `make test`) proves the two agree. A new chapter
/// is one entry here; everything else it needs is files of its own (see CONTRIBUTING.md).
let allChapters = [
  Chapter(number: 1, module: "DataStore", composes: []),
  Chapter(number: 2, module: "Observers", composes: []),
  Chapter(number: 3, module: "Networking", composes: []),
  Chapter(number: 4, module: "ImageCache", composes: []),
  Chapter(number: 5, module: "Downloads", composes: []),
  Chapter(number: 6, module: "Feed", composes: [1, 3, 4]),
  Chapter(number: 7, module: "Sync", composes: [3]),
]

let environment = ProcessInfo.processInfo.environment
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path

func numbers(_ variable: String, default fallback: String) -> Set<Int> {
  let text = environment[variable].flatMap { $0.isEmpty ? nil : $0 } ?? fallback
  if text == "all" { return Set(allChapters.map(\.number)) }
  return Set(text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) })
}

/// Whether a folder is in this copy of the workbook: the reference answers and the mutant copy
/// may not be, nor a test target that is still to come.
func exists(_ relativePath: String) -> Bool {
  FileManager.default.fileExists(atPath: packageRoot + "/" + relativePath)
}

let fromAnswers = numbers("WORKBOOK_ANSWERS", default: "")
let mutantChapter = Int(environment["WORKBOOK_MUTANT"] ?? "")
let werror = environment["WORKBOOK_WERROR"] == "1"
let tools = environment["WORKBOOK_TOOLS"] == "1"
let appTarget = environment["WORKBOOK_APP_TARGET"] == "1"
/// The app-target lane includes NonisolatedNonsendingByDefault everywhere: a function type in a
/// chapter's API means `nonisolated(nonsending)` there, and a test that conforms to a chapter's
/// protocol has to be compiled with the same meaning to match it.
let nonsending = environment["WORKBOOK_NONSENDING"] == "1" || appTarget

/// The requested chapters plus the ones they compose, keeping only chapters that exist yet.
var selected = numbers("WORKBOOK_CHAPTERS", default: "all")
for chapter in allChapters where selected.contains(chapter.number) {
  selected.formUnion(chapter.composes)
}

func sourcePath(_ chapter: Chapter) -> String {
  if chapter.number == mutantChapter { return ".mutant/\(chapter.module)" }
  return fromAnswers.contains(chapter.number) ? "answers/\(chapter.module)" : "Sources/\(chapter.module)"
}

let chapters = allChapters.filter { selected.contains($0.number) && exists(sourcePath($0)) }

/// SE-0461: with the feature on, a `nonisolated async` function inherits its caller's isolation,
/// so code that means to leave the caller's actor has to say `@concurrent`. The answers are right
/// under both settings, and `make test-nonsending` proves it.
let nonsendingSettings: [SwiftSetting] = nonsending ? [.enableUpcomingFeature("NonisolatedNonsendingByDefault")] : []

let swiftSettings: [SwiftSetting] = (werror ? [.unsafeFlags(["-warnings-as-errors"])] : []) + nonsendingSettings

/// A new app target of Xcode 26 or 27: every declaration without isolation of its own is
/// `@MainActor` (SE-0466), and Approachable Concurrency is on. Swift 6.3 and later name that one
/// upcoming feature, as Xcode 27's build setting passes it; Swift 6.2 takes the two it adds to Swift 6
/// mode (NonisolatedNonsendingByDefault comes with `nonsendingSettings`). The chapters only: a
/// learner pastes a chapter's files into an app target, while the support code and the tests stay
/// modules of their own. `make test-app-target` proves that the annotations chapter 1 asks for are
/// the ones such a target needs.
#if compiler(>=6.3)
  let approachableConcurrency: [SwiftSetting] = [.enableUpcomingFeature("ApproachableConcurrency")]
#else
  let approachableConcurrency: [SwiftSetting] = [.enableUpcomingFeature("InferIsolatedConformances")]
#endif
let appTargetSettings: [SwiftSetting] = appTarget ? [.defaultIsolation(MainActor.self)] + approachableConcurrency : []

/// In release builds (`make bench`) the chapters' function bodies are visible to the modules that
/// call them, so a generic type such as `MemoryCache<Key, Value>` is specialized for its caller's
/// types, as it is when the code sits in an app's own module. Without this, every dictionary
/// access inside the cache would go through witness tables. Debug builds (grading) are unchanged.
let chapterSettings =
  swiftSettings + appTargetSettings + [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

var targets: [Target] = [
  .target(name: "Workbook", path: "Support/Workbook", swiftSettings: swiftSettings),
  .target(name: "WorkbookTesting", dependencies: ["Workbook"], path: "Support/WorkbookTesting", swiftSettings: swiftSettings),
]
var testSupport: [Target.Dependency] = ["WorkbookTesting"]
// The test vocabulary has tests of its own, run by `make test` (never while grading a chapter).
if tools {
  targets.append(
    .testTarget(
      name: "WorkbookTestingTests", dependencies: ["Workbook", "WorkbookTesting"], path: "Tests/WorkbookTestingTests",
      swiftSettings: nonsendingSettings))
}

// The local practice API server (chapter 3 on): a library the tests start in-process on
// 127.0.0.1 and a free port, and the `practice-server` executable behind `make server`.
targets.append(
  .target(name: "PracticeServer", dependencies: ["Workbook"], path: "Support/PracticeServer", swiftSettings: swiftSettings))
testSupport.append("PracticeServer")
// The server's own suite (hostile input, bounded resources), run by `make test` only.
if tools && exists("Tests/PracticeServerTests") {
  targets.append(
    .testTarget(
      name: "PracticeServerTests", dependencies: ["PracticeServer", "WorkbookTesting"], path: "Tests/PracticeServerTests",
      swiftSettings: nonsendingSettings))
}
targets.append(
  .executableTarget(
    name: "practice-server", dependencies: ["PracticeServer"], path: "Support/PracticeServerMain",
    swiftSettings: swiftSettings))

for chapter in chapters {
  let composed = chapters.filter { chapter.composes.contains($0.number) }.map(\.module)
  targets.append(
    .target(
      name: chapter.module,
      dependencies: ["Workbook"] + composed.map { Target.Dependency(stringLiteral: $0) },
      path: sourcePath(chapter),
      swiftSettings: chapterSettings))
  targets.append(
    .testTarget(
      name: "\(chapter.module)Tests",
      dependencies: [Target.Dependency(stringLiteral: chapter.module)] + testSupport,
      path: "Tests/\(chapter.module)Tests",
      swiftSettings: nonsendingSettings))
}

// Chapter 3's second process: a small program that shares a token with another copy of itself
// through a folder, as an app and its extension share an App Group container. The chapter's tests
// start it twice and ask both to refresh at once; it is built from the same Networking module as
// the tests (the learner's, the answer or a mutant).
if chapters.contains(where: { $0.module == "Networking" }) {
  targets.append(
    .executableTarget(
      name: "token-refresher", dependencies: ["Networking"], path: "Support/TokenRefresher", swiftSettings: swiftSettings))
}

// `make bench`: one release executable that measures the reference answers of every chapter in
// the package graph (each section is compiled only when its chapter's module is present).
if tools {
  targets.append(
    .executableTarget(
      name: "workbook-bench",
      dependencies: chapters.map { Target.Dependency(stringLiteral: $0.module) },
      path: "Support/Benchmarks",
      swiftSettings: swiftSettings))
}

// `make figures`: deterministic, seeded simulations through the reference answers, drawn as SVG.
if tools {
  targets.append(
    .executableTarget(
      name: "workbook-figures",
      dependencies: chapters.map { Target.Dependency(stringLiteral: $0.module) } + ["WorkbookTesting"],
      path: "Support/Figures",
      swiftSettings: swiftSettings))
}

// `make demo`: the capstone's feed against the practice server, with a live terminal dashboard.
// `DEMO_REFERENCE_<N>` tells the demo which chapters this build took from answers/, so what it
// says it ran is what was compiled.
if tools && chapters.contains(where: { $0.module == "Feed" }) {
  let referenceDefines = chapters.filter { fromAnswers.contains($0.number) }.map { SwiftSetting.define("DEMO_REFERENCE_\($0.number)") }
  targets.append(
    .executableTarget(
      name: "feed-demo", dependencies: ["Feed", "PracticeServer"], path: "Support/FeedDemo",
      swiftSettings: swiftSettings + referenceDefines))
}

// `make demo-sync`: two devices syncing notes through the practice server, on one fixed script.
if tools && chapters.contains(where: { $0.module == "Sync" }) {
  targets.append(
    .executableTarget(
      name: "sync-demo", dependencies: ["Sync", "PracticeServer"], path: "Support/SyncDemo", swiftSettings: swiftSettings))
}

let package = Package(
  name: "iOSSystemsWorkbook",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: chapters.map { .library(name: $0.module, targets: [$0.module]) },
  targets: targets,
  swiftLanguageModes: [.v6]
)
