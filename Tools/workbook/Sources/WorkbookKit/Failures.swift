import Foundation

/// Where each test function is declared in the chapter's tests, keyed `Suite.function(labels:)`,
/// so the first failure shown is the first failing test in reading order (the simplest one), not
/// the one that finished first. Each suite lives in the file of the same name.
func declarationOrder(_ chapter: Chapter, root: String = ".") -> [String: Int] {
  let folder = path(chapter.testsPath, in: root)
  var order: [String: Int] = [:]
  let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
  for file in files {
    guard let text = TextFile.read("\(folder)/\(file)") else { continue }
    for line in text.components(separatedBy: "\n") {
      guard let range = line.range(of: "func ") else { continue }
      let name = line[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      let signature = line[range.upperBound...].prefix { $0 != ")" }
      let labels = signature.drop { $0 != "(" }.dropFirst().split(separator: ",").map {
        String($0.trimmingCharacters(in: .whitespaces).prefix { $0 != ":" && $0 != " " }) + ":"
      }
      let suite = file.hasSuffix(".swift") ? String(file.dropLast(6)) : file
      let key = "\(suite).\(name)(\(labels.joined()))"
      if order[key] == nil { order[key] = order.count }
    }
  }
  return order
}

/// How a starter says "not written yet": Support/Workbook's `NotImplemented`, whose description
/// is `not implemented yet: Type.member`. A starter declared `throws(SomeError)` cannot throw it,
/// so it throws one of its own cases carrying that description (`.encoding("not implemented yet:
/// NetworkManager.send")`): the marker is then anywhere in the test's message, inside the case the
/// test printed, and is recognized there the same way.
enum NotImplementedMarker {
  /// `NotImplemented.marker` in Support/Workbook: the two must stay the same.
  static let text = "not implemented yet"

  static func isIn(_ failure: String) -> Bool { failure.contains(text) }

  /// Every `Type.member` named after the marker, in order, each once.
  static func members(in failure: String) -> [String] {
    var names: [String] = []
    for match in matches(text + #": ([A-Za-z_][A-Za-z0-9_.:()]*)"#, in: failure) {
      var name = match[1]
      // A member named inside a printed case, `(… not implemented yet: f).`, keeps only its own
      // parentheses, `f(_:for:)`, and no sentence's full stop: the two may follow each other in
      // either order, so both are taken off until neither is left.
      while true {
        if name.hasSuffix(")"), name.filter({ $0 == ")" }).count > name.filter({ $0 == "(" }).count {
          name.removeLast()
        } else if name.hasSuffix(".") || name.hasSuffix(":") {
          name.removeLast()
        } else {
          break
        }
      }
      if !name.isEmpty, !names.contains(name) { names.append(name) }
    }
    return names
  }
}

/// Shows a failure the way a learner reads it: what was expected and why first, then the
/// expression that failed. A line that carries the "not implemented yet" marker reads as that
/// alone, whatever error case a typed-throws starter wrapped it in.
func explain(_ line: String) -> String {
  if let name = NotImplementedMarker.members(in: line).first {
    return "    \(NotImplementedMarker.text): \(name)"
  }
  var text = line
  for prefix in ["Issue recorded (error): ", "Caught error: "] where text.hasPrefix(prefix) {
    text.removeFirst(prefix.count)
  }
  if let range = text.range(of: " (error): ") {
    let expression = text[..<range.lowerBound]
    let comment = text[range.upperBound...]
    return "    " + comment + "\n" + Style.dim("      " + expression)
  }
  return "    " + text.replacingOccurrences(of: " (error)", with: "")
}
