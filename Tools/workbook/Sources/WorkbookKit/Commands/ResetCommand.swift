import Foundation

/// `make reset-N`: puts a chapter's starter code back as the workbook shipped it, even after the
/// learner has committed their own work. Their files are copied to `.workbook/backup/` first.
///
/// The pristine starter comes from the workbook's upstream branch (the one the learner cloned or
/// pulled from), else from HEAD. Nothing is removed until that source is known to hold the
/// starter: in a copy without git history (a downloaded ZIP) the command refuses and changes
/// nothing.
struct ResetCommand: Command {
  static let name = "reset"
  static let arguments = "N"
  static let summary = "put chapter N's starter back (your files are saved to .workbook/backup first)"

  let chapter: Int

  init(_ arguments: [String]) throws {
    chapter = try Arguments(arguments, positionals: 1...1).chapter()
  }

  func run() throws -> Bool {
    let chapter = try Catalog.load().chapter(self.chapter)
    guard try Self.reset(chapter.module) else { return false }
    // The last grading was of the code that is now in the backup.
    Summary.markReset(chapter)
    return true
  }

  /// Where the pristine starter of `folder` comes from, in order of preference.
  static let sources = ["@{upstream}", "origin/HEAD", "origin/main", "HEAD"]

  /// Restores `Sources/<module>` in the workbook at `root`; false (with a message) when it cannot.
  /// Every message goes to `say`.
  static func reset(
    _ module: String, root: String = ".", now: Date = Date(), say: (String) -> Void = { print($0) }
  ) throws -> Bool {
    let folder = "Sources/\(module)"
    func git(_ arguments: [String]) -> CommandResult? {
      try? runCommand(["git"] + arguments, timeout: 60, in: root)
    }
    guard git(["rev-parse", "--is-inside-work-tree"])?.succeeded == true else {
      say(
        """
        Cannot reset \(folder): this copy of the workbook has no git history (a downloaded ZIP?), so \
        there is no pristine starter to restore it from. Nothing was changed.
        To start over, copy \(folder) from a fresh download of the workbook, or clone the workbook \
        with git, where `make reset-N` works.
        """)
      return false
    }
    // `ref:./path` is read relative to the current folder, wherever the repository's root is.
    let source = sources.first { candidate in
      git(["rev-parse", "--verify", "-q", "\(candidate)^{commit}"])?.succeeded == true
        && git(["cat-file", "-e", "\(candidate):./\(folder)"])?.succeeded == true
    }
    guard let source else {
      say(
        """
        Cannot reset \(folder): no commit of this repository holds it (looked in \
        \(sources.joined(separator: ", "))). Nothing was changed.
        """)
      return false
    }
    if source == "HEAD" {
      say("note: no upstream branch found; restoring \(folder) as it is in HEAD (your last commit).")
    }
    if unchanged(folder, from: source, git: git) {
      say("\(folder) is the starter as \(source) holds it: nothing of yours to save, and nothing was changed.")
      return true
    }

    let manager = FileManager.default
    let here = path(folder, in: root)
    var backup: String?
    if manager.fileExists(atPath: here) {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.dateFormat = "yyyyMMdd-HHmmss"
      var name = ".workbook/backup/\(module)-\(formatter.string(from: now))"
      var suffix = 2
      while manager.fileExists(atPath: path(name, in: root)) {
        name = ".workbook/backup/\(module)-\(formatter.string(from: now))-\(suffix)"
        suffix += 1
      }
      try manager.createDirectory(atPath: path(".workbook/backup", in: root), withIntermediateDirectories: true)
      try manager.copyItem(atPath: here, toPath: path(name, in: root))
      say("Your \(folder) was saved to \(name)")
      backup = name
      try manager.removeItem(atPath: here)
    }
    let restore = git(["restore", "--source=\(source)", "--worktree", "--", folder])
    guard restore?.succeeded == true else {
      // Put the learner's files back rather than leave the folder missing.
      if let backup {
        try? manager.removeItem(atPath: here)
        try? manager.copyItem(atPath: path(backup, in: root), toPath: here)
      }
      say("Could not restore \(folder) from \(source); your files are as they were.\n\(restore?.output ?? "")")
      return false
    }
    say("Restored \(folder) from \(source). Run the chapter again to see the exercises fail.")
    return true
  }

  /// Whether `folder` holds nothing of the learner's that `source` does not: no file differs from
  /// it or is missing, and every file it lacks is clutter (a `.DS_Store`, `xcuserdata`). Then
  /// there is nothing to save and nothing to restore. Any doubt (a git error) answers no.
  static func unchanged(_ folder: String, from source: String, git: ([String]) -> CommandResult?) -> Bool {
    guard git(["diff", "--quiet", source, "--", folder])?.status == 0 else { return false }
    // Every file git does not track, ignored ones too, so that only clutter is passed over.
    guard let others = git(["ls-files", "--others", "-z", "--", folder]), others.succeeded else { return false }
    return others.output.split(separator: "\0").allSatisfy { Clutter.contains(String($0)) }
  }
}
