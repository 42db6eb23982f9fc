import Foundation
import PracticeServer
import Sync

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The practice server's sync endpoints called in-process: the same `SyncService` that answers
/// over HTTP, without a socket, so a test can run thousands of requests a second and decide, for
/// each, whether it arrives, is answered, or is lost on the way back.
/// `InProcessServerTests` holds its answers to the server's own over HTTP.
struct InProcessServer: SyncTransport {
  let service: SyncService
  static let baseURL = URL(string: "http://127.0.0.1:1")!

  func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    let reply = service.handle(Self.serverRequest(request))
    return Self.clientReply(reply, for: request)
  }

  /// A `URLRequest` as the server's parser would hand it on: path, decoded query, lowercased
  /// header names, the body.
  static func serverRequest(_ request: URLRequest) -> HTTPRequest {
    let components = request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
    var query: [String: String] = [:]
    for item in components?.queryItems ?? [] { query[item.name] = item.value ?? "" }
    var headers: [String: String] = [:]
    for (name, value) in request.allHTTPHeaderFields ?? [:] { headers[name.lowercased()] = value }
    return HTTPRequest(
      method: request.httpMethod ?? "GET", path: components?.path ?? "/", query: query, headers: headers,
      body: request.httpBody ?? Data())
  }

  static func clientReply(_ reply: HTTPReply, for request: URLRequest) -> (Data, HTTPURLResponse) {
    var fields: [String: String] = [:]
    for (name, value) in reply.headers { fields[name] = value }
    let response = HTTPURLResponse(url: request.url ?? baseURL, statusCode: reply.status, httpVersion: "HTTP/1.1", headerFields: fields)!
    return (reply.body, response)
  }
}
