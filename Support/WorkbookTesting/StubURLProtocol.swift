import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Serves canned responses to a real `URLSession`, so networking code is tested through the
/// same API it uses in an app, with no server and no network.
///
/// Each session made by `StubURLProtocol.session(_:)` has its own handler, so tests running in
/// parallel never see each other's responses. The handler also records every request it was sent.
///
/// How a request finds its session's handler: a protocol class is told only the request, and on
/// Linux a session's extra headers are added below the URLProtocol layer, so nothing in the
/// request names the session. Instead each session lists its own subclass of this class, and the
/// handler is found by the class that was instantiated.
public class StubURLProtocol: URLProtocol {
  /// What a handler answers: a response and body, or an error such as `URLError(.notConnectedToInternet)`.
  public typealias Handler = @Sendable (URLRequest) throws -> (HTTPURLResponse, Data)

  private static let handlers = Mutex<[ObjectIdentifier: Handler]>([:])
  private static let sessionsMade = Mutex(0)

  /// A session whose every request is answered by `handler`.
  public static func session(
    configuration: URLSessionConfiguration = .ephemeral, _ handler: @escaping Handler
  ) -> URLSession {
    let number = sessionsMade.withLock { count in
      count += 1
      return count
    }
    let protocolClass = SessionProtocol.make(number)
    handlers.withLock { $0[ObjectIdentifier(protocolClass)] = handler }
    configuration.protocolClasses = [protocolClass]
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

  /// Every request: only stub sessions list a stub class.
  override public class func canInit(with request: URLRequest) -> Bool { true }

  override public class func canonicalRequest(for request: URLRequest) -> URLRequest {
    request
  }

  override public func startLoading() {
    var request = self.request
    request.httpBody = request.bodyAsSent
    let protocolClass = ObjectIdentifier(type(of: self))
    guard let handler = Self.handlers.withLock({ $0[protocolClass] }) else {
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
}

/// One subclass of `StubURLProtocol` per session. Classes cannot be declared at run time, but a
/// generic class is a new class for every type argument, so the argument spells the session's
/// number in binary: session 6 (110) uses `Routed<One<One<Zero<Empty>>>>`.
private enum SessionProtocol {
  protocol Bits {}
  enum Empty: Bits {}
  enum Zero<Rest: Bits>: Bits {}
  enum One<Rest: Bits>: Bits {}
  final class Routed<Number: Bits>: StubURLProtocol {}

  static func make(_ number: Int) -> StubURLProtocol.Type {
    var spelled: any Bits.Type = Empty.self
    var rest = number
    repeat {
      spelled = rest & 1 == 0 ? appendZero(spelled) : appendOne(spelled)
      rest >>= 1
    } while rest > 0
    return routed(spelled)
  }

  private static func appendZero<Rest: Bits>(_: Rest.Type) -> any Bits.Type { Zero<Rest>.self }
  private static func appendOne<Rest: Bits>(_: Rest.Type) -> any Bits.Type { One<Rest>.self }
  private static func routed<Number: Bits>(_: Number.Type) -> StubURLProtocol.Type { Routed<Number>.self }
}
