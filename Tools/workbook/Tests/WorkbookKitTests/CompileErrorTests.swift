import Foundation
import Testing

@testable import WorkbookKit

/// The excerpt under a compile error shows the line that is wrong and its caret, whatever the
/// compiler printed before them. Both fixtures are `swift build` output recorded on Linux (Swift
/// 6.3.1) from chapter 4's starter broken on purpose.
@Suite("compile errors")
struct CompileErrorTests {
  @Test("a missing `}`: the error's line and caret first, then the `{` its note points to")
  func missingBrace() throws {
    let output = try MacOSTests.fixture("linux-build-missing-brace.txt")
    let lines = output.components(separatedBy: "\n")
    let index = try #require(lines.firstIndex { $0.hasSuffix("RequestCoalescer.swift:35:1: error: expected '}' in actor") })
    let excerpt = DiagnosticExcerpt.excerpt(lines, after: index)
    #expect(
      excerpt == [
        "34 |   public func waiterCount(for key: Key) -> Int { 0 }",
        "35 | ",
        "   | `- error: expected '}' in actor",
        "   :",
        "15 | public actor RequestCoalescer<Key: Hashable & Sendable, Value: Sendable> {",
        "   |                                                                          `- note: to match this opening '{'",
      ])

    let report = Grader.compileErrors(output).joined(separator: "\n")
    #expect(report.contains("`- error: expected '}' in actor"))
    #expect(!report.contains("13 | /// Joining a flight"), "the doc comment above the `{` says nothing about the error")
    #expect(report.contains("`- error: expected declaration"), "the other job's errors come with their own carets")
  }

  @Test("an undefined name: the line before, the line, and the caret with the message")
  func undefinedName() throws {
    let output = try MacOSTests.fixture("linux-build-undefined-name.txt")
    let lines = output.components(separatedBy: "\n")
    let index = try #require(lines.firstIndex { $0.contains("error: cannot find 'flights' in scope") })
    #expect(
      DiagnosticExcerpt.excerpt(lines, after: index) == [
        "29 |   // TODO: whether a flight exists for `key` (placeholder: false).",
        "30 |   public func isInFlight(_ key: Key) -> Bool { flights[key] != nil }",
        "   |                                                `- error: cannot find 'flights' in scope",
      ])
    let report = Grader.compileErrors(output)
    #expect(report.filter { $0.contains("error: cannot find 'flights' in scope") }.count == 2, "the diagnostic and its caret line")
  }

  /// Recorded from a starter file whose first line imports a module Linux does not have (a
  /// learner copying iOS code): the excerpt starts at line 1, with no line before it to show.
  @Test("an error on the first line: that line and its caret, and nothing read before the excerpt's start")
  func errorOnTheFirstLine() throws {
    let output = try MacOSTests.fixture("linux-build-no-such-module-line-1.txt")
    let lines = output.components(separatedBy: "\n")
    let index = try #require(lines.firstIndex { $0.hasSuffix("ImageDecoder.swift:1:8: error: no such module 'UIKit'") })
    #expect(DiagnosticExcerpt.lineNumber(of: lines[index]) == 1)
    #expect(
      DiagnosticExcerpt.excerpt(lines, after: index) == [
        "1 | import UIKit",
        "  |        `- error: no such module 'UIKit'",
      ])
    let report = Grader.compileErrors(output)
    #expect(
      report.filter { $0.contains("ImageDecoder.swift:1:8: error: no such module 'UIKit'") }.count == 1,
      "the module's two jobs print the error twice; it is shown once")
    #expect(!report.joined().contains("emit-module command failed"), "the driver's own line says nothing the file's error does not")
  }

  @Test("a tight budget keeps the error's line and caret before any note")
  func budget() throws {
    let lines = try MacOSTests.fixture("linux-build-missing-brace.txt").components(separatedBy: "\n")
    let index = try #require(lines.firstIndex { $0.hasSuffix("35:1: error: expected '}' in actor") })
    #expect(DiagnosticExcerpt.excerpt(lines, after: index, budget: 3).last == "   | `- error: expected '}' in actor")
  }

  @Test("excerpt lines are told from diagnostics, even a message with a bar in it")
  func excerptLines() {
    #expect(DiagnosticExcerpt.isExcerptLine("35 | }"))
    #expect(DiagnosticExcerpt.isExcerptLine("   | `- error: expected '}' in actor"))
    #expect(DiagnosticExcerpt.isExcerptLine("   :"))
    #expect(!DiagnosticExcerpt.isExcerptLine("/a/B.swift:3:9: error: binary operator '||' cannot be applied"))
    #expect(DiagnosticExcerpt.lineNumber(of: "/a/B.swift:35:1: error: expected '}' in actor") == 35)
  }
}
