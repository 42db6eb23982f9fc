import Foundation

/// Where each test function is declared in the chapter's tests, keyed `Suite.function(labels:)`,
/// so the first failure shown is the first failing test in reading order (the simplest one), not
/// the one that finished first. Each suite lives in the file of the same name.
func declarationOrder(_ chapter: Chapter, root: String = ".") -> [String: Int] {
  let folder = path(chapter.testsPath, in: root)
  var order: [String: Int] = [:]
  let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
  for file in files {
    guard let text = try? String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8) else { continue }
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

/// Shows a failure the way a learner reads it: what was expected and why first, then the
/// expression that failed.
func explain(_ line: String) -> String {
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
