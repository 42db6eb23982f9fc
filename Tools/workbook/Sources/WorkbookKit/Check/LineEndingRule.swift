import Foundation

extension Checker {
  /// File extensions read as binary, never as text: images and archives (`.gitattributes` marks
  /// the images binary too).
  static let binaryExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "ico", "icns", "pdf", "zip", "gz"]

  /// Every text file of the chapter (its folder, starter, answer and tests) whose lines end with
  /// CR: CRLF (a file saved on Windows, or checked out with `core.autocrlf=true`) or a lone CR.
  /// The tool reads such a file as LF (`TextFile`), but a diff, a mutant's exact lines or a
  /// `Checked by:` line copied from it would carry the CR: the file is named, with how to fix it.
  func lineEndingProblems(_ chapter: Chapter) -> [Problem] {
    var found: [Problem] = []
    for folder in [chapter.folder, chapter.starterPath, chapter.answerPath, chapter.testsPath] {
      for file in files(in: folder) {
        let relative = "\(folder)/\(file)"
        let suffix = (file as NSString).pathExtension.lowercased()
        guard !Self.binaryExtensions.contains(suffix),
          let data = FileManager.default.contents(atPath: path(relative, in: root)), !data.contains(0)
        else { continue }
        let count = TextFile.carriageReturns(data)
        guard count > 0 else { continue }
        let crlf = data.count > 1 && zip(data, data.dropFirst()).contains { $0 == 0x0D && $1 == 0x0A }
        let kind = crlf ? "CRLF (Windows)" : "CR"
        found.append(
          Problem(
            rule: .lineEndings,
            message:
              "\(relative) has \(count) line\(count == 1 ? "" : "s") ending in \(kind); the workbook's text files end "
              + "their lines with LF. Convert it with `perl -pi -e 's/\\r\\n?/\\n/g' \(relative)` (or save it with LF "
              + "line endings in your editor) and commit it; .gitattributes then keeps it LF in every checkout"))
      }
    }
    return found
  }
}
