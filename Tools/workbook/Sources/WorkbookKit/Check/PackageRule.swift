/// One entry of `Package.swift`'s chapter list.
struct ManifestChapter: Equatable {
  let number: Int
  let module: String
  let composes: [Int]
}

/// Reads the chapter list of the workbook's `Package.swift`: its `Chapter(number: N, module:
/// "Module", composes: [...])` entries. SwiftPM evaluates the manifest (possibly in a sandbox that
/// cannot read the chapters), so the list is written there, and this rule proves it agrees.
func manifestChapters(_ manifest: String) -> [ManifestChapter] {
  let pattern = #"Chapter\(\s*number:\s*(\d+)\s*,\s*module:\s*"([^"]*)"\s*,\s*composes:\s*\[([^\]]*)\]\s*\)"#
  return matches(pattern, in: manifest).compactMap { captures in
    guard let number = Int(captures[1]) else { return nil }
    let composes = captures[3].split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    return ManifestChapter(number: number, module: captures[2], composes: composes)
  }
}

extension Checker {
  func packageProblems(_ catalog: Catalog) -> [Problem] {
    guard let manifest = read("Package.swift") else {
      return [Problem(rule: .package, message: "Package.swift is missing")]
    }
    let listed = manifestChapters(manifest)
    guard !listed.isEmpty else {
      return [
        Problem(
          rule: .package,
          message: "Package.swift: no chapter list found; it declares each chapter as "
            + "`Chapter(number: 1, module: \"DataStore\", composes: [])` in `allChapters`")
      ]
    }
    var found: [Problem] = []
    func problem(_ message: String) { found.append(Problem(rule: .package, message: message)) }
    for chapter in catalog.chapters {
      let entries = listed.filter { $0.number == chapter.number }
      let sample = "Chapter(number: \(chapter.number), module: \"\(chapter.module)\", composes: \(chapter.composes))"
      guard let entry = entries.first else {
        problem("Package.swift does not list chapter \(chapter.number) (\(chapter.exercisesPath)); add `\(sample),` to `allChapters`")
        continue
      }
      if entries.count > 1 { problem("Package.swift lists chapter \(chapter.number) \(entries.count) times; keep one entry") }
      if entry.module != chapter.module {
        problem(
          "Package.swift names chapter \(chapter.number)'s module \"\(entry.module)\", \(chapter.exercisesPath) "
            + "names it \"\(chapter.module)\"; make them agree: `\(sample)`")
      }
      if entry.composes.sorted() != chapter.composes.sorted() {
        problem(
          "Package.swift says chapter \(chapter.number) composes \(entry.composes), \(chapter.exercisesPath) "
            + "says \(chapter.composes); make them agree: `\(sample)`")
      }
    }
    for entry in listed where !catalog.chapters.contains(where: { $0.number == entry.number }) {
      problem(
        "Package.swift lists chapter \(entry.number) (\(entry.module)), which has no Chapters/"
          + "\(String(format: "%02d", entry.number))-<name>/exercises.json; add the chapter or remove the entry")
    }
    return found
  }
}
