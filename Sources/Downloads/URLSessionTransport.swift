// Given: the transport an app uses, on a real URLSession. Nothing to write here.
//
// A data task streams the body: each `didReceive data` becomes a chunk the
// downloader pulls. When the reader falls behind by more than `bufferLimit` bytes, the task is
// suspended until it catches up, so a fast network and a slow disk do not fill memory. Not on
// Linux: swift-corelibs-foundation suspends a task by taking its transfer out of curl's multi
// handle, and `resume()` puts it back, which sends the request again: the body restarts at its
// first byte and the bytes already read arrive twice. There the read-ahead is unbounded.
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Streams HTTP GETs through a `URLSession`, sending `Range` and `If-Range` when resuming.
///
/// The transport owns its session. Pass the configuration to use (a background configuration is
/// not supported: it delivers a finished file, not a stream).
public nonisolated final class URLSessionTransport: Transport {
  public let session: URLSession
  /// Read-ahead, in bytes: the file's opening note says what it bounds.
  public let bufferLimit: Int
  private let router: TaskRouter
  private let seams: Seams

  /// Where a test stops a transfer to force an interleaving. Both do nothing in an app.
  struct Seams: Sendable {
    /// Awaited after the request is made and before its data task exists: a cancellation that
    /// arrives here has no task to cancel yet.
    var beforeTask: @Sendable () async -> Void = {}
    /// Awaited before each pull of the body, like `ScriptedTransport`'s hook: the URL, the offset
    /// in the file of the bytes pulled next, and the pull's index in this transfer. A test holds
    /// a transfer part way here (on a `ManualClock`) to pause it or to let callers join it.
    var beforeChunk: ScriptedTransport.ChunkHook?
    /// Called after a chunk is queued unread, with the bytes that wait unread: a test holds the
    /// reader until the read-ahead has passed `bufferLimit`.
    var unread: (@Sendable (_ bytes: Int) -> Void)?
  }

  /// Whether a suspended data task continues where it stopped when resumed: on Apple's platforms
  /// it does; swift-corelibs-foundation starts the transfer again (see the note at the top).
  #if canImport(FoundationNetworking)
    static let suspendingPauses = false
  #else
    static let suspendingPauses = true
  #endif

  public convenience init(configuration: URLSessionConfiguration = .default, bufferLimit: Int = 1 << 20) {
    self.init(configuration: configuration, bufferLimit: bufferLimit, seams: Seams())
  }

  /// A transport with test seams.
  init(configuration: URLSessionConfiguration, bufferLimit: Int = 1 << 20, seams: Seams) {
    self.bufferLimit = max(1, bufferLimit)
    let router = TaskRouter()
    self.router = router
    self.seams = seams
    self.session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
  }

  deinit {
    session.finishTasksAndInvalidate()
  }

  /// The request sent for `transfer`: a GET, never answered from a cache, asking for the file's
  /// own bytes (`Accept-Encoding: identity`), with `Range: bytes=N-` and `If-Range: <validator>`
  /// when it continues a partial file.
  ///
  /// Identity because any download may be paused and resumed: ranges and `Content-Length` count
  /// a coded body's encoded bytes (RFC 9110 §14.1), while `URLSession` asks for gzip by default
  /// and hands over the decoded bytes, so a count on disk could never be compared with them.
  public static func urlRequest(for transfer: TransferRequest) -> URLRequest {
    var request = URLRequest(url: transfer.url, cachePolicy: .reloadIgnoringLocalCacheData)
    request.httpMethod = "GET"
    request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
    if let start = transfer.rangeStart {
      request.setValue("bytes=\(start)-", forHTTPHeaderField: "Range")
      if let validator = transfer.ifRange {
        request.setValue(validator, forHTTPHeaderField: "If-Range")
      }
    }
    return request
  }

  /// Reads what a download needs from an HTTP response head, as the server sent it: the validator
  /// is the `ETag` with its quotes (else `Last-Modified`), so `If-Range` repeats it byte for byte.
  public static func transferResponse(_ response: HTTPURLResponse) -> TransferResponse {
    func header(_ name: String) -> String? { response.value(forHTTPHeaderField: name) }
    var result = TransferResponse(statusCode: response.statusCode)
    result.acceptsRanges = header("Accept-Ranges")?.lowercased().contains("bytes") ?? false
    result.validator = header("ETag") ?? header("Last-Modified")
    result.date = header("Date")
    result.contentEncoding = header("Content-Encoding")
    if response.statusCode == 206, let range = header("Content-Range").flatMap(parseContentRange) {
      result.rangeStart = range.start
      result.totalLength = range.total
    } else if response.statusCode == 416 {
      result.totalLength = header("Content-Range").flatMap(parseUnsatisfiedRange)
    } else if response.statusCode == 200, response.expectedContentLength >= 0 {
      result.totalLength = response.expectedContentLength
    }
    return result
  }

  /// Parses `bytes */N`, the `Content-Range` of a 416: the file's size (RFC 9110 §14.4).
  static func parseUnsatisfiedRange(_ value: String) -> Int64? {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    guard trimmed.lowercased().hasPrefix("bytes */") else { return nil }
    return Int64(trimmed.dropFirst("bytes */".count)).flatMap { $0 >= 0 ? $0 : nil }
  }

  /// Parses `bytes A-B/N` (N may be `*`).
  static func parseContentRange(_ value: String) -> (start: Int64, total: Int64?)? {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
    let spec = trimmed.dropFirst("bytes ".count)
    let parts = spec.split(separator: "/", maxSplits: 1)
    guard let range = parts.first, let start = range.split(separator: "-").first.flatMap({ Int64($0) }) else {
      return nil
    }
    let total = parts.count == 2 ? Int64(parts[1]) : nil
    return (start, total)
  }

  public func start(_ request: TransferRequest) async throws -> (TransferResponse, TransferBody) {
    let stream = ChunkStream(bufferLimit: Self.suspendingPauses ? bufferLimit : nil, unread: seams.unread)
    var urlRequest = Self.urlRequest(for: request)
    // swift-corelibs-foundation adds the configuration's headers below the URLProtocol layer;
    // set them on the request too, so every protocol sees the request the server will see.
    for (name, value) in session.configuration.httpAdditionalHeaders ?? [:] {
      if let name = name.base as? String, let value = value as? String, urlRequest.value(forHTTPHeaderField: name) == nil {
        urlRequest.setValue(value, forHTTPHeaderField: name)
      }
    }
    await seams.beforeTask()
    // The cancellation handler below can only cancel a task that exists: a cancellation that came
    // before (since the downloader last checked) is seen here, and the request is never sent.
    try Task.checkCancellation()
    let task = session.dataTask(with: urlRequest)
    stream.attach(task)
    router.register(stream, for: task)
    task.resume()
    let response = try await withTaskCancellationHandler {
      try await stream.response()
    } onCancel: {
      stream.cancel()
    }
    let url = request.url
    let beforeChunk = seams.beforeChunk
    let pulled = PullCount(offset: response.rangeStart ?? 0)
    let body = TransferBody {
      if let beforeChunk {
        let (offset, index) = pulled.position
        try await beforeChunk(url, offset, index)
      }
      let chunk = try await withTaskCancellationHandler {
        try await stream.next()
      } onCancel: {
        stream.cancel()
      }
      pulled.add(chunk?.count ?? 0)
      return chunk
    }
    return (response, body)
  }
}

/// Where a body is: the offset in the file of its next bytes and how many pulls it has served.
private nonisolated final class PullCount: Sendable {
  private let state: Mutex<(offset: Int64, index: Int)>

  init(offset: Int64) { state = Mutex((offset, 0)) }

  var position: (offset: Int64, index: Int) { state.withLock { $0 } }

  func add(_ bytes: Int) {
    state.withLock {
      $0.offset += Int64(bytes)
      $0.index += 1
    }
  }
}

/// The session's delegate: passes each task's callbacks to the stream of that task.
nonisolated final class TaskRouter: NSObject, URLSessionDataDelegate, Sendable {
  private let streams = Mutex<[Int: ChunkStream]>([:])

  func register(_ stream: ChunkStream, for task: URLSessionTask) {
    streams.withLock { $0[task.taskIdentifier] = stream }
  }

  private func stream(for task: URLSessionTask) -> ChunkStream? {
    streams.withLock { $0[task.taskIdentifier] }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    guard let stream = stream(for: dataTask) else { return completionHandler(.cancel) }
    stream.received(response)
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    stream(for: dataTask)?.received(data)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let stream = streams.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    stream?.completed(error)
  }
}

/// One data task's callbacks, turned into a response and chunks to pull.
nonisolated final class ChunkStream: Sendable {
  private struct State {
    var task: URLSessionDataTask?
    var response: Result<TransferResponse, any Error>?
    var responseWaiter: CheckedContinuation<TransferResponse, any Error>?
    var chunks: [Data] = []
    var buffered = 0
    var suspended = false
    /// Set when the task completed: nil error means the body is complete.
    var completion: Result<Void, any Error>?
    var chunkWaiter: CheckedContinuation<Data?, any Error>?
  }

  /// Unread bytes past which the task is suspended; nil: never suspended.
  private let bufferLimit: Int?
  private let unread: (@Sendable (Int) -> Void)?
  private let state = Mutex(State())

  init(bufferLimit: Int?, unread: (@Sendable (Int) -> Void)? = nil) {
    self.bufferLimit = bufferLimit
    self.unread = unread
  }

  func attach(_ task: URLSessionDataTask) {
    state.withLock { $0.task = task }
  }

  func cancel() {
    let task = state.withLock { $0.task }
    task?.cancel()
  }

  func response() async throws -> TransferResponse {
    try await withCheckedThrowingContinuation { continuation in
      let ready = state.withLock { state -> Result<TransferResponse, any Error>? in
        if let response = state.response { return response }
        state.responseWaiter = continuation
        return nil
      }
      if let ready { continuation.resume(with: ready) }
    }
  }

  func next() async throws -> Data? {
    try Task.checkCancellation()
    return try await withCheckedThrowingContinuation { continuation in
      let (ready, resumeTask) = state.withLock { state -> (Result<Data?, any Error>?, URLSessionDataTask?) in
        if !state.chunks.isEmpty {
          let chunk = state.chunks.removeFirst()
          state.buffered -= chunk.count
          var resumeTask: URLSessionDataTask?
          if state.suspended, let bufferLimit, state.buffered <= bufferLimit / 2 {
            state.suspended = false
            resumeTask = state.task
          }
          return (.success(chunk), resumeTask)
        }
        switch state.completion {
        case .success?: return (.success(nil), nil)
        case .failure(let error)?: return (.failure(error), nil)
        case nil:
          state.chunkWaiter = continuation
          return (nil, nil)
        }
      }
      resumeTask?.resume()
      if let ready { continuation.resume(with: ready) }
    }
  }

  func received(_ response: URLResponse) {
    let result: Result<TransferResponse, any Error> =
      if let http = response as? HTTPURLResponse {
        .success(URLSessionTransport.transferResponse(http))
      } else {
        .failure(URLError(.badServerResponse))
      }
    let waiter = state.withLock { state in
      state.response = result
      defer { state.responseWaiter = nil }
      return state.responseWaiter
    }
    waiter?.resume(with: result)
  }

  func received(_ data: Data) {
    let (waiter, suspendTask, buffered) = state.withLock {
      state -> (CheckedContinuation<Data?, any Error>?, URLSessionDataTask?, Int) in
      if let waiter = state.chunkWaiter {
        state.chunkWaiter = nil
        return (waiter, nil, 0)
      }
      state.chunks.append(data)
      state.buffered += data.count
      if !state.suspended, let bufferLimit, state.buffered > bufferLimit {
        state.suspended = true
        return (nil, state.task, state.buffered)
      }
      return (nil, nil, state.buffered)
    }
    suspendTask?.suspend()
    if waiter == nil { unread?(buffered) }
    waiter?.resume(returning: data)
  }

  func completed(_ error: (any Error)?) {
    let completion: Result<Void, any Error> = error.map { .failure($0) } ?? .success(())
    let (responseWaiter, chunkWaiter) = state.withLock { state in
      state.completion = completion
      if state.response == nil { state.response = .failure(error ?? URLError(.badServerResponse)) }
      defer {
        state.responseWaiter = nil
        state.chunkWaiter = nil
      }
      return (state.responseWaiter, state.chunkWaiter)
    }
    switch completion {
    case .success:
      responseWaiter?.resume(throwing: URLError(.badServerResponse))
      chunkWaiter?.resume(returning: nil)
    case .failure(let failure):
      responseWaiter?.resume(throwing: failure)
      chunkWaiter?.resume(throwing: failure)
    }
  }
}
