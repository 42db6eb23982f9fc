import Foundation

/// What macOS and Xcode leave in a folder on their own: Finder's `.DS_Store`, Xcode's `xcuserdata`
/// and the `.swiftpm` folder it writes when it opens the package, and any other hidden file. None
/// of it is the learner's code, so none of it counts as an edit: not for `make progress` or
/// `make watch-N`, not in `make compare-N`'s diff, not in `workbook check`, and not as something
/// `make reset-N` must save.
enum Clutter {
  /// Names that are clutter wherever they appear, besides every name that starts with a dot.
  static let names: Set<String> = ["xcuserdata"]

  /// Whether a path relative to a code folder is clutter, or inside clutter.
  static func contains(_ relativePath: String) -> Bool {
    relativePath.split(separator: "/").contains { $0.hasPrefix(".") || names.contains(String($0)) }
  }

  /// The patterns that leave clutter out of `diff -r` (`-x` takes a file name pattern).
  static let diffExclusions = ["-x", ".*", "-x", "xcuserdata"]
}
