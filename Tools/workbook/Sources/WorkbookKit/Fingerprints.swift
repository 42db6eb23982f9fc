import Foundation

/// What each exercise file of a chapter's starter looked like when the workbook shipped it: one
/// line per file, `<file> <hash>`, in `Chapters/NN-name/starter.fingerprints`. The grader reads an
/// exercise as not started while its files still hash the same, with no git needed (a ZIP
/// download, a fork's branch, a worktree with no upstream). `workbook check` holds the file to the
/// starters, and `make fingerprints` writes it again after a starter is edited.
///
/// The hash is 64-bit FNV-1a (Fowler, Noll and Vo; the parameters are those of
/// draft-eastlake-fnv), over the file's text with CRLF line ends read as LF, so a checkout that
/// turned line ends into Windows ones is still the starter. It tells an edit from none; it is no
/// defence against someone who wants a collision.
enum StarterFingerprints {
  static let fileName = "starter.fingerprints"
  /// The one command that writes every chapter's manifest again.
  static let refresh = "make fingerprints"

  static func path(_ chapter: Chapter) -> String { "\(chapter.folder)/\(fileName)" }

  /// 64-bit FNV-1a of `bytes`.
  static func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
  }

  /// The hash of a file's text as sixteen hex digits, with CRLF and a lone CR read as LF (as
  /// `TextFile.normalized` reads them).
  static func hash(_ data: Data) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(data.count)
    var afterCR = false
    for byte in data {
      if byte == 0x0A && afterCR {
        afterCR = false
        continue
      }
      afterCR = byte == 0x0D
      bytes.append(afterCR ? 0x0A : byte)
    }
    let value = String(fnv1a64(bytes), radix: 16)
    return String(repeating: "0", count: 16 - value.count) + value
  }

  /// The exercise files of `chapter`, in the order of `exercises.json`, each once.
  static func exerciseFiles(_ chapter: Chapter) -> [String] {
    var files: [String] = []
    for file in chapter.exercises.flatMap(\.files) where !files.contains(file) { files.append(file) }
    return files
  }

  /// The hash of each exercise file of the starter as it is now; a missing file has none.
  static func current(_ chapter: Chapter, root: String = ".") -> [String: String] {
    var hashes: [String: String] = [:]
    for file in exerciseFiles(chapter) {
      if let data = FileManager.default.contents(atPath: WorkbookKit.path("\(chapter.starterPath)/\(file)", in: root)) {
        hashes[file] = hash(data)
      }
    }
    return hashes
  }

  /// The manifest's text for `files`, each a name and its text.
  static func render(module: String, _ files: [(name: String, text: Data)]) -> String {
    var text = """
      # The exercise files of Sources/\(module) as the workbook ships them: 64-bit FNV-1a of each
      # file's text (CRLF read as LF). The grader reads an exercise whose files still match as not
      # started. Written by `\(refresh)`; `workbook check` says when it no longer matches.

      """
    for file in files { text += "\(file.name) \(hash(file.text))\n" }
    return text
  }

  /// The manifest that matches the starter as it is now.
  static func render(_ chapter: Chapter, root: String = ".") -> String {
    let files = exerciseFiles(chapter).compactMap { file -> (name: String, text: Data)? in
      FileManager.default.contents(atPath: WorkbookKit.path("\(chapter.starterPath)/\(file)", in: root)).map { (file, $0) }
    }
    return render(module: chapter.module, files)
  }

  /// The hashes a manifest records, by file; nil when the chapter has none.
  static func recorded(_ chapter: Chapter, root: String = ".") -> [String: String]? {
    guard let text = TextFile.read(WorkbookKit.path(path(chapter), in: root)) else {
      return nil
    }
    return parse(text)
  }

  static func parse(_ text: String) -> [String: String] {
    var hashes: [String: String] = [:]
    for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
      let parts = line.split(separator: " ", omittingEmptySubsequences: true)
      guard parts.count == 2 else { continue }
      hashes[String(parts[0])] = String(parts[1])
    }
    return hashes
  }

  /// Whether each exercise's files are the shipped starter's, by exercise number; nil for an
  /// exercise the manifest does not cover (no manifest, or a file it does not list).
  static func untouched(_ chapter: Chapter, root: String = ".") -> [Int: Bool] {
    guard let recorded = recorded(chapter, root: root) else { return [:] }
    let now = current(chapter, root: root)
    var marks: [Int: Bool] = [:]
    for exercise in chapter.exercises where exercise.files.allSatisfy({ recorded[$0] != nil }) {
      marks[exercise.number] = exercise.files.allSatisfy { now[$0] == recorded[$0] }
    }
    return marks
  }

  /// What `workbook check` says of a chapter whose manifest is missing or does not match its
  /// starter: which files changed, and the command that writes it again.
  static func problems(_ chapter: Chapter, root: String = ".") -> [String] {
    let manifest = path(chapter)
    guard let recorded = recorded(chapter, root: root) else {
      return ["\(manifest) is missing; `\(refresh)` writes it from the starter"]
    }
    let now = current(chapter, root: root)
    let files = exerciseFiles(chapter)
    let changed = files.filter { now[$0] != nil && recorded[$0] != nil && now[$0] != recorded[$0] }
    let unlisted = files.filter { now[$0] != nil && recorded[$0] == nil }
    let stale = recorded.keys.filter { !files.contains($0) }.sorted()
    var parts: [String] = []
    if !changed.isEmpty {
      parts.append("\(chapter.starterPath)/\(changed.joined(separator: ", ")) changed since it was written")
    }
    if !unlisted.isEmpty { parts.append("it does not list \(unlisted.joined(separator: ", "))") }
    if !stale.isEmpty { parts.append("it lists \(stale.joined(separator: ", ")), no exercise file of the chapter") }
    guard !parts.isEmpty else { return [] }
    return [
      "\(manifest) does not match the starter (\(parts.joined(separator: "; "))): the grader would read an "
        + "unstarted exercise as started. Run `\(refresh)` and commit the file with the starter"
    ]
  }
}
