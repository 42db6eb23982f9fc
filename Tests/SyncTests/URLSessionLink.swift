import Foundation
import Sync
import Synchronization
import WorkbookTesting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One device's way onto the chaotic network through the app's own `URLSessionSyncTransport`: a
/// session whose only protocol (`LinkProtocol`) hands each request to the device's `DeviceLink`.
/// The histories then run the URL loading system's path too, where a reply of any status comes
/// back as a reply and a request that got none fails with the `URLError` the network chose.
///
/// Cancelling the caller's task cancels the session's task, as in the app; the request, carried
/// on by another task, then reaches the server only if the cancel came after it left, as for the
/// devices whose link is called directly, so a seed still makes one history.
struct URLSessionLink: SyncTransport {
  let link: DeviceLink

  init(_ link: DeviceLink) { self.link = link }

  /// A session of its own for each request. In the open-source Foundation (Linux), the protocol
  /// client looks the task up in its session's table on the thread that reports to it (here, the
  /// task carrying the request) while the session's queue adds and removes other tasks, without a
  /// lock: one session shared by the parallel histories crashed there.
  /// - Complexity: about 0.3 ms per request to make and let go of the session, measured on Linux.
  private static func session() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [LinkProtocol.self]
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    return URLSession(configuration: configuration)
  }

  func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    // Already cancelled: the direct link says so, after the same seams, as for the other devices.
    if Task.isCancelled { return try await link.send(request) }
    let call = LinkProtocol.Call(link: link)
    var tagged = request
    tagged.setValue(LinkProtocol.register(call), forHTTPHeaderField: LinkProtocol.header)
    defer { LinkProtocol.unregister(tagged) }
    let session = Self.session()
    defer { session.finishTasksAndInvalidate() }
    return try await withTaskCancellationHandler {
      try await URLSessionSyncTransport(session: session).send(tagged)
    } onCancel: {
      call.cancel()
    }
  }
}

/// The protocol of `URLSessionLink`'s sessions: it takes the request `URLSession` hands it, passes
/// it to the calling device's link and reports what came back to the session.
final class LinkProtocol: URLProtocol {
  /// Names the call a request belongs to; taken off before the request reaches the network.
  static let header = "X-Simulated-Call"

  /// One request on its way: the link it goes through and whether its caller was cancelled.
  final class Call: Sendable {
    let link: DeviceLink
    private let cancelled = Mutex(false)

    init(link: DeviceLink) { self.link = link }

    /// Runs inside `Task.cancel()` on the caller's task, before that call returns.
    func cancel() { cancelled.withLock { $0 = true } }
    var isCancelled: Bool { cancelled.withLock { $0 } }
  }

  private static let calls = Mutex<[String: Call]>([:])

  static func register(_ call: Call) -> String {
    let key = UUID().uuidString
    calls.withLock { $0[key] = call }
    return key
  }

  static func unregister(_ request: URLRequest) {
    guard let key = request.value(forHTTPHeaderField: header) else { return }
    _ = calls.withLock { $0.removeValue(forKey: key) }
  }

  override class func canInit(with request: URLRequest) -> Bool { request.value(forHTTPHeaderField: header) != nil }
  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    var request = self.request
    guard let key = request.value(forHTTPHeaderField: Self.header), let call = Self.calls.withLock({ $0[key] }) else {
      client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
      return
    }
    request.setValue(nil, forHTTPHeaderField: Self.header)
    request.httpBody = request.bodyAsSent
    let report = Report(loader: self)
    Task { [request] in
      // Once its caller is cancelled, the session ends the task itself (`URLError.cancelled`) and
      // lets it go; a word from here after that would reach a task the session no longer knows.
      // The histories cancel only from the seam before the network is reached, so no cancel
      // comes between this check and the reply.
      do {
        let (data, response) = try await call.link.send(request, cancelled: { call.isCancelled })
        guard !call.isCancelled else { return }
        report.reply(response, data)
      } catch {
        guard !call.isCancelled else { return }
        report.fail(error)
      }
    }
  }

  override func stopLoading() {}

  /// Reports to the session from the task that carries the request: a protocol client may be
  /// called from any thread (Apple's `URLProtocolClient` is `Sendable`); a loader is not `Sendable`
  /// only because it holds mutable state, which this never touches.
  private struct Report: @unchecked Sendable {
    let loader: LinkProtocol

    func reply(_ response: HTTPURLResponse, _ data: Data) {
      loader.client?.urlProtocol(loader, didReceive: response, cacheStoragePolicy: .notAllowed)
      loader.client?.urlProtocol(loader, didLoad: data)
      loader.client?.urlProtocolDidFinishLoading(loader)
    }

    func fail(_ error: any Error) { loader.client?.urlProtocol(loader, didFailWithError: error) }
  }
}
