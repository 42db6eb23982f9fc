import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// One test as the xUnit report of `swift test` lists it.
struct TestCase: Codable, Equatable {
  /// The name of the one failure that stands for an exercise whose tests crashed or never finished.
  static let wholeExercise = "(whole exercise)"

  /// `<Module>Tests.<SuiteType>`, for example `DataStoreTests.Exercise2_AtomicUpdateTests`.
  let suite: String
  let name: String
  let failure: String?

  var module: String {
    guard let range = suite.range(of: "Tests.") else { return "" }
    return String(suite[..<range.lowerBound])
  }

  /// The exercise a test grades: suites are named `Exercise<N>_…`.
  var exercise: Int? {
    guard let type = suite.split(separator: ".").last, type.hasPrefix("Exercise") else { return nil }
    return Int(type.dropFirst("Exercise".count).prefix { $0.isNumber })
  }
}

/// Reads the `<testcase>` elements of an xUnit file.
func readXUnit(_ path: String) -> [TestCase]? {
  guard let parser = XMLParser(contentsOf: URL(fileURLWithPath: path)) else { return nil }
  let reader = XUnitReader()
  parser.delegate = reader
  guard parser.parse() else { return nil }
  return reader.cases
}

private final class XUnitReader: NSObject, XMLParserDelegate {
  var cases: [TestCase] = []
  private var current: (suite: String, name: String, failures: [String])?

  func parser(
    _ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    switch element {
    case "testcase":
      current = (attributes["classname"] ?? "", attributes["name"] ?? "", [])
    case "failure", "error":
      current?.failures.append(attributes["message"] ?? "failed")
    default:
      break
    }
  }

  func parser(
    _ parser: XMLParser, didEndElement element: String, namespaceURI: String?,
    qualifiedName: String?
  ) {
    guard element == "testcase", let current else { return }
    let failure = current.failures.isEmpty ? nil : current.failures.joined(separator: "\n")
    cases.append(TestCase(suite: current.suite, name: current.name, failure: failure))
    self.current = nil
  }
}
