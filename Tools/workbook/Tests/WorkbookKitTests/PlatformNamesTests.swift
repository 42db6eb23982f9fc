import Foundation
import Testing

@testable import WorkbookKit

/// The `platform-names` rule: a platform API a text names is compiled as a call, so a member or a
/// label that did not ship fails `workbook check`, while a default argument left out does not.
@Suite("Platform names")
struct PlatformNamesTests {
  static func problems(_ readme: String) throws -> [Problem] {
    let workbook = try ScratchWorkbook()
    try workbook.write("Chapters/07-counters/README.md", readme)
    return workbook.problems().filter { $0.rule == .platformNames }
  }

  @Test("SE-0462's static escalatePriority(of:to:), from the proposal's text, is refused; the instance method that shipped passes")
  func escalationAsItShipped() throws {
    let refused = try Self.problems("Raise it with `Task.escalatePriority(of:to:)`.\n")
    #expect(refused.count == 1)
    #expect(refused.first?.message.contains("Chapters/07-counters/README.md:1: `Task.escalatePriority(of:to:)`") == true)
    #expect(try Self.problems("Raise it with `Task.escalatePriority(to:)`.\n").isEmpty)
  }

  @Test("members and labels that exist pass, with defaulted parameters left out as a caller leaves them")
  func shippedNamesPass() throws {
    let text = """
      `Task.sleep(for:)`, `Task.isCancelled`, `Dictionary.removeValue(forKey:)`, `Mutex.withLock`,
      `AsyncStream.makeStream(of:)`, `DispatchQueue.concurrentPerform(iterations:execute:)`, `Mutex(_:)`.
      """
    #expect(try Self.problems(text + "\n").isEmpty)
  }

  @Test("a mistyped label or member is refused")
  func mistakesAreRefused() throws {
    let problems = try Self.problems("`Dictionary.removeValue(for:)` and `Task.sleeping(for:)`.\n")
    #expect(problems.count == 2)
  }

  @Test("not checked: types the toolchain lacks, the workbook's own types, and a paragraph about Swift 6.4 or iOS 27")
  func outOfReach() throws {
    let text = """
      `URLSessionTask.priority`, `BGTaskScheduler.submitTaskRequest(_:)`, `Counter.incremented(by:)`.

      Swift 6.4 adds `Task.cancellationShield(of:)`, new in iOS 27.
      """
    #expect(try Self.problems(text + "\n").isEmpty)
  }

  @Test("Foundation is checked: a wrong label is refused; a member only Apple's Foundation has passes where taught with its availability")
  func foundation() throws {
    #expect(try Self.problems("`URLSession.data(for:delegate:)` and `FileManager.fileExists(atPath:)`.\n").isEmpty)
    let wrongLabel = try Self.problems("`FileManager.fileExists(at:)`.\n")
    #expect(wrongLabel.count == 1)
    let untaught = try Self.problems("Ask `URLResourceKey.volumeAvailableCapacityForImportantUsageKey` first.\n")
    #expect(untaught.count == 1)
    #expect(untaught.first?.message.contains("is not in this toolchain's Foundation") == true)
    #expect(
      try Self.problems("Ask `URLResourceKey.volumeAvailableCapacityForImportantUsageKey` (iOS 11.0+) first.\n").isEmpty)
    #expect(
      try Self.problems("`FileManager.fileExists(at:)` (iOS 2.0+).\n").isEmpty == false,
      "availability excuses a member swift-corelibs-foundation lacks, not a label it refuses on a member it has")
  }
}
