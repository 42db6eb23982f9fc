// `make bench`: measures the reference answers in a release build and prints, for each chapter,
// tables of cost per operation with ratios against a baseline measured in the same run.
//
// Usage: workbook-bench [--quick] [section…]   (sections: datastore, imagecache, downloads, sync)
//        workbook-bench --compare N --yours PATH [--quick]   `make bench-N`: your chapter N next to
//                       the answer (this program, built from answers/) and the platform
//        workbook-bench --emit N [--quick] [--platform]   one round of chapter N's measurements, for
//                       --compare (--platform: the platform's rows too)
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let quick = arguments.contains("--quick")

/// The value after `flag`, as in `--emit 4`.
func option(_ flag: String) -> String? {
  guard let index = arguments.firstIndex(of: flag), arguments.index(after: index) < arguments.endIndex else { return nil }
  return arguments[arguments.index(after: index)]
}
if let chapter = option("--emit").flatMap(Int.init) {
  await YourCode.emitRound(chapter: chapter, quick: quick, platform: arguments.contains("--platform"))
  exit(0)
}
if let chapter = option("--compare").flatMap(Int.init) {
  guard let yours = option("--yours") else {
    print("--compare \(chapter) needs --yours PATH: the same program built from your Sources/")
    exit(2)
  }
  YourCode.compare(chapter: chapter, yours: yours, quick: quick)
  exit(0)
}
let wanted = Set(arguments.filter { !$0.hasPrefix("--") }.map { $0.lowercased() })
let sections: Set = ["datastore", "imagecache", "downloads", "sync"]
for section in wanted.subtracting(sections).sorted() {
  print("unknown section \(section); the sections are \(sections.sorted().joined(separator: ", "))")
  exit(2)
}
func enabled(_ section: String) -> Bool { wanted.isEmpty || wanted.contains(section) }

let bench = Bench(repetitions: quick ? 1 : 5)
print("iOS Systems Workbook benchmarks (release build, median of \(bench.repetitions) runs)")
print("Ratios compare cases measured in this same run; absolute times vary by machine.")

#if canImport(DataStore)
  if enabled("datastore") { await DataStoreBench.run(bench) }
#endif
#if canImport(ImageCache)
  if enabled("imagecache") {
    ImageCacheBench.run(bench, quick: quick)
    await ImagePipelineBench.run(bench, quick: quick)
  }
#endif
#if canImport(Downloads)
  if enabled("downloads") { await DownloadsBench.run(bench, quick: quick) }
#endif
#if canImport(Sync)
  if enabled("sync") { await SyncBench.run(bench, quick: quick) }
#endif
