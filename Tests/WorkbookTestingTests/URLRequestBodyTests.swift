import Foundation
import Testing
import WorkbookTesting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A protocol that stands in for the network reads the body the app sent, wherever the URL loading
/// system put it.
@Suite("WorkbookTesting — the body a URL protocol was handed", .timeLimit(.minutes(1)))
struct URLRequestBodyTests {
  @Test("a body in httpBody is read as it is")
  func aBodyInPlace() {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:1/push")!)
    request.httpBody = Data("{\"a\":1}".utf8)
    #expect(request.bodyAsSent == Data("{\"a\":1}".utf8))
  }

  @Test("a body in a stream, larger than one read, is read whole")
  func aBodyInAStream() {
    let body = Data((0..<40_000).map { UInt8($0 % 251) })
    var request = URLRequest(url: URL(string: "http://127.0.0.1:1/push")!)
    request.httpBodyStream = InputStream(data: body)
    #expect(request.bodyAsSent == body, "40,000 bytes in a stream, more than one 16 KiB read")
  }

  @Test("a request without a body has none, and an empty one is empty")
  func noBody() {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:1/health")!)
    #expect(request.bodyAsSent == nil)
    request.httpBodyStream = InputStream(data: Data())
    #expect(request.bodyAsSent == Data())
  }
}
