import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension URLRequest {
  /// The body a `URLProtocol` was handed: `httpBody`, or the bytes of `httpBodyStream`, where
  /// Apple's URL loading system moves a body before a protocol sees the request. Reading the
  /// stream uses it up, so a protocol reads it once.
  public var bodyAsSent: Data? {
    if let httpBody { return httpBody }
    guard let stream = httpBodyStream else { return nil }
    var data = Data()
    stream.open()
    defer { stream.close() }
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = stream.read(&buffer, maxLength: buffer.count)
      guard count > 0 else { return data }
      data.append(buffer, count: count)
    }
  }
}
