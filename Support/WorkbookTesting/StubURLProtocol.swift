import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Serves canned responses to a real `URLSession`, so networking code is tested through the
/// same API it uses in an app, with no server and no network.
///
/// Each session made by `StubURLProtocol.session(_:)` carries its own handler, found through a
/// header the stub adds to the session's configuration, so tests running in parallel never see
/// each other's responses. The handler also records every request it was sent.
public final class StubURLProtocol: URLProtocol {
  /// What a handler answers: a response and body, or an error such as `URLError(.notConnectedToInternet)`.
  public typealias Handler = @Sendable (URLRequest) throws -> (HTTPURLResponse, Data)

  /// The header that names a session's handler. It never reaches the handler's requests.
  public static let sessionHeader = "X-Workbook-Stub-Session"

  private static let handlers = Mutex<[String: Handler]>([:])

  /// A session whose every request is answered by `handler`.
  public static func session(
    configuration: URLSessionConfiguration = .ephemeral, _ handler: @escaping Handler
  ) -> URLSession {
    let id = UUID().uuidString
    handlers.withLock { $0[id] = handler }
    configuration.protocolClasses = [StubURLProtocol.self]
    var headers = configuration.httpAdditionalHeaders ?? [:]
    headers[sessionHeader] = id
    configuration.httpAdditionalHeaders = headers
    return URLSession(configuration: configuration)
  }

  /// A `200 OK` (or `status`) response for `request` with the given headers.
  public static func response(
    for request: URLRequest, status: Int = 200, headers: [String: String] = [:]
  ) -> HTTPURLResponse {
    HTTPURLResponse(
      url: request.url ?? URL(string: "http://stub.invalid")!, statusCode: status,
      httpVersion: "HTTP/1.1", headerFields: headers)!
  }

  override public class func canInit(with request: URLRequest) -> Bool {
    request.value(forHTTPHeaderField: sessionHeader) != nil
  }

  override public class func canonicalRequest(for request: URLRequest) -> URLRequest {
    request
  }

  override public func startLoading() {
    var request = self.request
    let id = request.value(forHTTPHeaderField: Self.sessionHeader) ?? ""
    request.setValue(nil, forHTTPHeaderField: Self.sessionHeader)
    if request.httpBody == nil, let stream = request.httpBodyStream {
      request.httpBody = Self.read(stream)
    }
    guard let handler = Self.handlers.withLock({ $0[id] }) else {
      client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
      return
    }
    do {
      let (response, body) = try handler(request)
      client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
      client?.urlProtocol(self, didLoad: body)
      client?.urlProtocolDidFinishLoading(self)
    } catch {
      client?.urlProtocol(self, didFailWithError: error)
    }
  }

  override public func stopLoading() {}

  private static func read(_ stream: InputStream) -> Data {
    var data = Data()
    stream.open()
    defer { stream.close() }
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while stream.hasBytesAvailable {
      let count = stream.read(&buffer, maxLength: buffer.count)
      if count <= 0 { break }
      data.append(buffer, count: count)
    }
    return data
  }
}
