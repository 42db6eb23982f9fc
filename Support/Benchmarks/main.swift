// `make bench`: measures the reference answers in a release build and prints, for each chapter,
// tables of cost per operation with ratios against a baseline measured in the same run.
//
// Usage: workbook-bench [--quick] [section…]   (sections: datastore, imagecache, downloads)
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let quick = arguments.contains("--quick")
let wanted = Set(arguments.filter { !$0.hasPrefix("--") }.map { $0.lowercased() })
let sections: Set = ["datastore", "imagecache", "downloads"]
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
