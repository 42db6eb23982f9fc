import Foundation

/// A request as the practice server received it. Header names are lowercased.
public struct HTTPRequest: Sendable {
  public var method: String
  /// The path without the query, such as `/v1/posts/p1`.
  public var path: String
  /// The query items, percent-decoded; the last one wins for a repeated name.
  public var query: [String: String]
  /// Every header field by lowercased name; a repeated field's values are joined with ", "
  /// (RFC 9110 §5.3).
  public var headers: [String: String]
  /// The body, exactly `Content-Length` bytes or the decoded chunks (never the next request).
  public var body: Data

  /// A request as if it had arrived, for calling a route in-process (`SyncService.handle`).
  /// Header names are lowercased here, as the server does when it reads them.
  public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: Data = Data()) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { first, second in "\(first), \(second)" }
    self.body = body
  }

  /// A header by name, in any letter case.
  public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
