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

  /// A header by name, in any letter case.
  public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
