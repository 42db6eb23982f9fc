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
  /// Whether this is the test whose code crashed the test process (nil: no crash known).
  var crashed: Bool? = nil
  /// Whether the report says the test was skipped (nil: it ran, or nobody asked).
  var skipped: Bool? = nil

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
  guard let data = FileManager.default.contents(atPath: path) else { return nil }
  let parser = XMLParser(data: xmlSafe(data))
  let reader = XUnitReader()
  parser.delegate = reader
  guard parser.parse() else { return nil }
  return reader.cases
}

/// The report with every character XML 1.0 forbids (the C0 controls but tab, LF and CR) turned
/// into `?`, raw or written as a character reference. A failure message quoting binary data (a
/// body with a 0x01 byte, say) is written into the report as it is, and one such byte would
/// otherwise make the whole report unreadable and the run look like a crash.
func xmlSafe(_ data: Data) -> Data {
  var bytes = [UInt8](data)
  for index in bytes.indices where bytes[index] < 0x20 && ![0x09, 0x0A, 0x0D].contains(bytes[index]) {
    bytes[index] = UInt8(ascii: "?")
  }
  var text = String(decoding: bytes, as: UTF8.self)
  for code in 0..<0x20 where ![0x09, 0x0A, 0x0D].contains(code) {
    for reference in ["&#\(code);", "&#x\(String(code, radix: 16));", "&#x\(String(code, radix: 16, uppercase: true));"] {
      text = text.replacingOccurrences(of: reference, with: "?")
    }
  }
  return Data(text.utf8)
}

private final class XUnitReader: NSObject, XMLParserDelegate {
  var cases: [TestCase] = []
  private var current: (suite: String, name: String, failures: [String], skipped: Bool)?

  func parser(
    _ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    switch element {
    case "testcase":
      current = (attributes["classname"] ?? "", attributes["name"] ?? "", [], false)
    case "failure", "error":
      current?.failures.append(attributes["message"] ?? "failed")
    case "skipped":
      current?.skipped = true
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
    cases.append(
      TestCase(suite: current.suite, name: current.name, failure: failure, skipped: current.skipped ? true : nil))
    self.current = nil
  }
}
