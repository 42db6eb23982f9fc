import Foundation

/// One `## ` section of a Markdown file: its heading, its body and the line the heading is on.
struct MarkdownSection {
  let heading: String
  let body: String
  let line: Int
}

/// Reads the `## ` sections of a Markdown file. Headings inside code fences do not count.
func markdownSections(_ path: String) throws -> [MarkdownSection] {
  markdownSections(text: try TextFile.contents(path))
}

func markdownSections(text: String) -> [MarkdownSection] {
  var sections: [(heading: String, body: String, line: Int)] = []
  var inFence = false
  for (index, line) in text.components(separatedBy: "\n").enumerated() {
    if line.hasPrefix("```") { inFence.toggle() }
    if !inFence, line.hasPrefix("## ") {
      sections.append((String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), "", index + 1))
    } else if !sections.isEmpty {
      sections[sections.count - 1].body += line + "\n"
    }
  }
  return sections.map {
    MarkdownSection(heading: $0.heading, body: $0.body.trimmingCharacters(in: .whitespacesAndNewlines), line: $0.line)
  }
}
