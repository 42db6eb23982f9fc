// Given: the download engine that puts exercises 4–6 together. Nothing to write here.
//
// One download: open a partial file (exercise 5), send the request (a resume request from
// exercise 6), stream the body to disk (exercise 4), then commit the file or, on failure, remove
// it. A pause stops the transfer but keeps the partial file and returns `ResumeData`.
import Foundation
import Synchronization
import Workbook

/// What a download reports: strictly increasing byte counts, then exactly one ending.
public nonisolated enum DownloadEvent: Sendable, Equatable {
  /// Bytes of the file on disk so far, and the file's size when the server said.
  case progress(bytes: Int64, total: Int64?)
  /// The download was paused; resume it with `Downloader.resume(_:)`.
  case paused(ResumeData)
  /// The whole file is at this URL.
  case completed(URL)
}

/// Downloads files through a transport, streaming them to disk.
public nonisolated struct Downloader: Sendable {
  public let transport: any Transport
  /// What happens when the destination already exists.
  public var existingFile: ExistingFilePolicy
  /// The disk the body is written through: the real one unless a test passes one that fails.
  public var files: any FileSystem

  public init(
    transport: any Transport, existingFile: ExistingFilePolicy = .replace, files: any FileSystem = RealFileSystem()
  ) {
    self.transport = transport
    self.existingFile = existingFile
    self.files = files
  }

  /// Starts downloading `url` to `destination`.
  ///
  /// The request sends no `Range`, so the answer must be the whole file: a 200, or a 206 whose
  /// `Content-Range` starts at byte 0 (a server may answer any request that way). A 206 from
  /// another byte, or with no `Content-Range`, is not the file's start and fails the download
  /// with `DownloadError.httpStatus(206)`, as does any other status. A body in a content coding
  /// other than `identity` fails with `DownloadError.contentEncoded` (the transport asked for
  /// identity: a server that codes anyway sends bytes whose counts are not the file's).
  public func start(_ url: URL, to destination: URL) -> DownloadHandle {
    let transport = transport
    let policy = existingFile
    let files = files
    return DownloadHandle { events, pause in
      try await Self.run(
        transport: transport, policy: policy, files: files, url: url, destination: destination, resume: nil,
        events: events, pause: pause)
    }
  }

  /// Continues a paused download, possibly in a later launch of the app.
  ///
  /// A partial file that already holds every byte (a pause after the last chunk) is answered
  /// 416 with `Content-Range: bytes */N` (RFC 9110 §15.5.17); when `ResumeData.offset(for:)`
  /// accepts it, the download completes with the file on disk. A body in a content coding other
  /// than `identity` fails with `DownloadError.contentEncoded`, on a resume as on a start.
  public func resume(_ data: ResumeData) -> DownloadHandle {
    let transport = transport
    let policy = existingFile
    let files = files
    return DownloadHandle { events, pause in
      var data = data
      // After a crash the file may hold less than was recorded: trust only what is there.
      data.bytesOnDisk = min(max(0, data.bytesOnDisk), data.partial.size)
      return try await Self.run(
        transport: transport, policy: policy, files: files, url: data.url, destination: data.partial.destination,
        resume: data, events: events, pause: pause)
    }
  }

  /// Downloads `url` to `destination` and returns the file's URL. Cancelling the calling task
  /// cancels the download and removes its partial file.
  public func download(_ url: URL, to destination: URL) async throws -> URL {
    let handle = start(url, to: destination)
    return try await withTaskCancellationHandler {
      try await handle.result()
    } onCancel: {
      handle.cancel()
    }
  }

  static func run(
    transport: any Transport, policy: ExistingFilePolicy, files: any FileSystem, url: URL, destination: URL,
    resume: ResumeData?,
    events: AsyncThrowingStream<DownloadEvent, any Error>.Continuation, pause: PauseSignal
  ) async throws -> DownloadHandle.Outcome {
    let partial: PartialFile
    do {
      partial = try resume?.partial ?? PartialFile.create(for: destination)
    } catch {
      events.finish(throwing: error)
      throw error
    }
    // Every way out removes the temporary file, except a pause (after a commit it is gone anyway).
    var keepPartial = false
    defer { if !keepPartial { partial.discard() } }
    var onDisk: Int64 = 0
    var validator = resume?.validator
    var responseDate = resume?.responseDate
    var acceptsRanges = resume?.acceptsRanges ?? false
    do {
      try Task.checkCancellation()
      let (response, body) = try await transport.start(resume?.request() ?? TransferRequest(url: url))
      let offset: Int64
      if let resume {
        offset = try resume.offset(for: response)
      } else {
        guard response.statusCode == 200 || (response.statusCode == 206 && response.rangeStart == 0) else {
          throw DownloadError.httpStatus(response.statusCode)
        }
        offset = 0
      }
      // A 416 that `offset(for:)` accepted says the partial file already holds the whole file:
      // nothing is left to fetch, and its body is an error page, not bytes of the file.
      let finished = response.statusCode == 416
      if !finished, let coding = response.contentEncoding, coding.lowercased() != "identity" {
        throw DownloadError.contentEncoded(coding)
      }
      validator = response.validator
      responseDate = response.date
      // A 206 proves ranges work, with or without `Accept-Ranges` (RFC 9110 §14.3).
      acceptsRanges = response.acceptsRanges || response.statusCode == 206
      let handle = try partial.openForWriting(at: offset)
      defer { try? handle.close() }
      onDisk = offset
      let total = response.totalLength
      events.yield(.progress(bytes: offset, total: total))
      let rest = finished ? TransferBody { nil } : body
      onDisk = try await StreamToDisk.write(
        rest, to: handle, startingAt: offset, expectedTotal: total, files: files
      ) { bytes in
        onDisk = bytes
        events.yield(.progress(bytes: bytes, total: total))
      }
      try handle.synchronize()
      let final = try partial.commit(policy: policy)
      events.yield(.completed(final))
      events.finish()
      return .completed(final)
    } catch {
      if pause.isRequested {
        let data = ResumeData(
          url: url, partial: partial, bytesOnDisk: onDisk, validator: validator, acceptsRanges: acceptsRanges,
          responseDate: responseDate)
        keepPartial = true
        events.yield(.paused(data))
        events.finish()
        return .paused(data)
      }
      events.finish(throwing: error)
      throw error
    }
  }
}

/// Set by `DownloadHandle.pause()` before it cancels the transfer, so the engine keeps the file.
nonisolated final class PauseSignal: Sendable {
  private let requested = Atomic<Bool>(false)
  var isRequested: Bool { requested.load(ordering: .acquiring) }
  func request() { requested.store(true, ordering: .releasing) }
}

/// One running download: its events, and the controls to pause or cancel it.
public nonisolated final class DownloadHandle: Sendable {
  enum Outcome: Sendable {
    case completed(URL)
    case paused(ResumeData)
  }

  /// Progress, then `.completed` or `.paused`; throws when the download fails or is cancelled.
  /// Read it from one task. It holds the newest 256 unread events: a reader further behind
  /// loses the oldest of them, never the ending, and nothing is reordered or merged.
  public let events: AsyncThrowingStream<DownloadEvent, any Error>
  private let task: Task<Outcome, any Error>
  private let pauseSignal: PauseSignal

  init(
    _ body:
      @escaping @Sendable (AsyncThrowingStream<DownloadEvent, any Error>.Continuation, PauseSignal) async throws ->
      Outcome
  ) {
    let (events, continuation) = AsyncThrowingStream.makeStream(
      of: DownloadEvent.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(256))
    let signal = PauseSignal()
    let task = Task { try await body(continuation, signal) }
    continuation.onTermination = { reason in
      if case .cancelled = reason { task.cancel() }
    }
    self.events = events
    self.task = task
    self.pauseSignal = signal
  }

  /// Stops the download and removes its partial file.
  public func cancel() {
    task.cancel()
  }

  /// Stops the download, keeps its partial file, and returns what `Downloader.resume` needs.
  /// Throws `DownloadError.notRunning` if it had already completed, or the error it failed with.
  public func pause() async throws -> ResumeData {
    pauseSignal.request()
    task.cancel()
    switch try await task.value {
    case .paused(let data): return data
    case .completed: throw DownloadError.notRunning
    }
  }

  /// Waits for the file. Throws the download's error, or `CancellationError` if it was paused.
  public func result() async throws -> URL {
    switch try await task.value {
    case .completed(let url): return url
    case .paused: throw CancellationError()
    }
  }
}
