import Foundation
import Synchronization
import Testing
import WorkbookTesting

@testable import Downloads

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Exercise 4 — Stream to disk, chunk by chunk", .timeLimit(.minutes(1)))
struct Exercise4_StreamToDiskTests {
  @Test("a download streams the whole file to disk, byte for byte")
  func downloadsTheWholeFile() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let size: Int64 = 1_000_003
      let url = fileURL("big.bin", size: size)
      let transport = ScriptedTransport(chunkSize: 64 * 1024)
      transport.serve(url, .init(size: size, etag: "\"big\""))
      let destination = directory.file("big.bin")
      let result = try await Downloader(transport: transport).download(url, to: destination)
      #expect(result == destination, "the download should end at its destination")
      let data = try Data(contentsOf: destination)
      #expect(data.count == Int(size), "the file should have all \(size) bytes, it has \(data.count)")
      #expect(data == ScriptedTransport.content(size: size), "every byte should be the server's byte, in order")
    }
  }

  @Test("memory stays at one chunk: everything before a chunk is on disk when that chunk is requested")
  func eachChunkIsOnDiskBeforeTheNext() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let size: Int64 = 2 * 1024 * 1024
      let url = fileURL("stream.bin", size: size)
      let shortfalls = Mutex<[String]>([])
      let transport = ScriptedTransport(chunkSize: 16 * 1024) { _, offset, index in
        let onDisk = sizes(in: directory).values.reduce(0, +)
        if onDisk < offset {
          shortfalls.withLock { $0.append("chunk \(index): \(offset) bytes were handed out, \(onDisk) on disk") }
        }
      }
      transport.serve(url, .init(size: size))
      _ = try await Downloader(transport: transport).download(url, to: directory.file("stream.bin"))
      let found = shortfalls.withLock { $0 }
      #expect(
        found.isEmpty,
        "write each chunk before pulling the next one, or memory grows with the file size: \(found.prefix(3))")
      #expect(transport.bytesServed == size, "the file should be pulled exactly once")
    }
  }

  @Test("progress is strictly increasing, reaches the size, and ends with completion")
  func progressIsMonotonicAndEndsWithCompletion() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let size: Int64 = 10 * 4096 + 100
      let url = fileURL("progress.bin", size: size)
      let transport = ScriptedTransport(chunkSize: 4096)
      transport.serve(url, .init(size: size))
      let destination = directory.file("progress.bin")
      let (events, error) = await collect(Downloader(transport: transport).start(url, to: destination))
      if let error { throw error }
      let counts = progressCounts(events)
      #expect(counts.count >= 11, "expected a progress event per chunk (11 chunks), got \(counts.count)")
      #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 < $1 }, "byte counts must only grow: \(counts)")
      #expect(counts.last == size, "the last progress should be the whole size \(size), got \(String(describing: counts.last))")
      #expect(events.last == .completed(destination), "the sequence ends with completion, got \(String(describing: events.last))")
      let totals = events.compactMap { event -> Int64?? in
        if case .progress(_, let total) = event { return total }
        return nil
      }
      #expect(totals.allSatisfy { $0 == size }, "every progress event should carry the size the server announced")
    }
  }

  @Test("cancelling stops pulling chunks, even from a transport that keeps delivering")
  func cancellationStopsTheTransfer() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let chunk = 8 * 1024
      let size = Int64(chunk * 40)
      let url = fileURL("cancel.bin", size: size)
      let clock = ManualClock()
      // The transport ignores cancellation: only the reader can stop the transfer.
      let transport = ScriptedTransport(chunkSize: chunk) { _, _, index in
        if index == 3 { try? await clock.sleep(for: .seconds(1)) }
      }
      transport.serve(url, .init(size: size))
      let handle = Downloader(transport: transport).start(url, to: directory.file("cancel.bin"))
      let reached = await eventually { clock.sleepers == 1 }
      if !reached { _ = try await handle.result() }
      try #require(reached, "the transfer should reach its fourth chunk")
      handle.cancel()
      await clock.advance(by: .seconds(1))
      await #expect(throws: CancellationError.self, "a cancelled download ends with CancellationError") {
        try await handle.result()
      }
      #expect(
        transport.bytesServed <= Int64(chunk * 4),
        "after the cancel no further chunk should be pulled; \(transport.bytesServed / Int64(chunk)) chunks of 40 were")
    }
  }

  @Test("cancelling the task that reads the progress stops the download")
  func cancellingTheReaderStopsTheDownload() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let chunk = 8 * 1024
      let url = fileURL("reader.bin", size: Int64(chunk * 40))
      let clock = ManualClock()
      let transport = ScriptedTransport(chunkSize: chunk) { _, _, index in
        if index == 3 { try? await clock.sleep(for: .seconds(1)) }
      }
      transport.serve(url, .init(size: Int64(chunk * 40)))
      let handle = Downloader(transport: transport).start(url, to: directory.file("reader.bin"))
      let reader = Task { await collect(handle) }
      try #require(await eventually { clock.sleepers == 1 }, "the transfer should reach its fourth chunk")
      reader.cancel()
      _ = await reader.value
      await clock.advance(by: .seconds(1))
      await #expect(throws: (any Error).self, "the download should stop when its reader goes away") {
        try await handle.result()
      }
      #expect(transport.bytesServed <= Int64(chunk * 4), "no chunk should be pulled after the reader was cancelled")
    }
  }

  @Test("a body that ends early is an error, not a short file")
  func truncatedBodyFails() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let url = fileURL("short.bin", size: 100_000)
      let transport = ScriptedTransport(chunkSize: 4096)
      transport.serve(url, .init(size: 100_000, endsEarlyAt: 50_000))
      await #expect(
        throws: DownloadError.truncated(received: 50_000, expected: 100_000),
        "the server announced 100,000 bytes and sent 50,000: the download must fail"
      ) {
        try await Downloader(transport: transport).download(url, to: directory.file("short.bin"))
      }
    }
  }

  /// A body that hands out `chunks` in order, then ends.
  static func body(_ chunks: [Data]) -> TransferBody {
    let queue = Chunks(chunks)
    return TransferBody { queue.next() }
  }

  /// A file in `directory` holding `count` bytes, and a handle positioned at its end.
  static func file(_ name: String, in directory: TemporaryDirectory, holding count: Int) throws -> (URL, FileHandle) {
    let url = directory.file(name)
    try Data(repeating: 0xAB, count: count).write(to: url)
    let handle = try FileHandle(forWritingTo: url)
    try handle.seekToEnd()
    return (url, handle)
  }

  @Test("an empty chunk is not the end of the body: it writes nothing and reports nothing")
  func anEmptyChunkReportsNothing() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let (url, handle) = try Self.file("gaps.bin", in: directory, holding: 0)
      defer { try? handle.close() }
      let chunks = [Data(repeating: 1, count: 100), Data(), Data(repeating: 2, count: 50), Data()]
      var reported: [Int64] = []
      let total = try await StreamToDisk.write(Self.body(chunks), to: handle, startingAt: 0, expectedTotal: 150) {
        reported.append($0)
      }
      #expect(total == 150, "100 + 0 + 50 + 0 bytes: the total is 150, got \(total)")
      #expect(
        reported == [100, 150],
        "progress is strictly increasing: an empty chunk adds no byte, so it reports nothing (and nothing is reported before the first chunk); got \(reported)"
      )
      try handle.synchronize()
      #expect(try Data(contentsOf: url) == chunks.reduce(Data(), +), "the file holds the two non-empty chunks, in order")
    }
  }

  @Test("a short body after a resume is reported with the total from the file's start")
  func truncatedCountsFromTheStartOfTheFile() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let (_, handle) = try Self.file("resumed.bin", in: directory, holding: 1_000)
      defer { try? handle.close() }
      var reported: [Int64] = []
      await #expect(
        throws: DownloadError.truncated(received: 3_000, expected: 5_000),
        "1,000 bytes were on disk and the body brought 2,000 of the 4,000 missing: received counts from the file's start, as expected does (3,000 of 5,000)"
      ) {
        try await StreamToDisk.write(
          Self.body([Data(count: 1_500), Data(count: 500)]), to: handle, startingAt: 1_000, expectedTotal: 5_000
        ) { reported.append($0) }
      }
      #expect(reported == [2_500, 3_000], "progress counts from the 1,000 bytes already on disk; got \(reported)")
    }
  }

  @Test("a body longer than the server announced is an error too")
  func aBodyLongerThanAnnouncedFails() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let (_, handle) = try Self.file("long.bin", in: directory, holding: 0)
      defer { try? handle.close() }
      await #expect(
        throws: DownloadError.truncated(received: 120, expected: 100),
        "the server announced 100 bytes and sent 120: whichever bytes are wrong, this is not the file, and saving it as complete is as bad as saving a short one"
      ) {
        try await StreamToDisk.write(
          Self.body([Data(count: 50), Data(count: 50), Data(count: 20)]), to: handle, startingAt: 0, expectedTotal: 100
        ) { _ in }
      }
    }
  }

  @Test("a full disk ends the write with the disk's own error, not as a short body")
  func aFullDiskEndsTheWriteWithItsOwnError() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let (_, handle) = try Self.file("full.bin", in: directory, holding: 0)
      defer { try? handle.close() }
      let disk = FaultyDisk()
      disk.freeBytes = 1_500  // the first chunk fits, the second only in part
      let pulls = Counter()
      let chunks = Chunks([1, 2, 3].map { Data(repeating: $0, count: 1_000) })
      let body = TransferBody {
        pulls.increment()
        return chunks.next()
      }
      var reported: [Int64] = []
      do {
        let total = try await StreamToDisk.write(body, to: handle, startingAt: 0, expectedTotal: 3_000, files: disk) {
          reported.append($0)
        }
        Issue.record("the disk took 1,500 of 3,000 bytes, yet the write returned \(total): a failed write must throw")
      } catch let error as POSIXError where error.code == .ENOSPC {
        // Expected: the disk's own error, so the app can ask the user to free space.
      } catch {
        Issue.record(
          "a full disk should end the write with the disk's error (ENOSPC), unchanged; got \(error). The server sent every byte: this is not a short body, and retrying will not help"
        )
      }
      #expect(reported == [1_000], "only the first chunk was written whole: progress counts no byte of the failed one; got \(reported)")
      #expect(pulls.value == 2, "the write failed on the second chunk: no further chunk is pulled; pulled \(pulls.value)")
    }
  }

  @Test func anEmptyFileDownloads() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let url = fileURL("empty.bin", size: 0)
      let transport = ScriptedTransport()
      transport.serve(url, .init(size: 0))
      let result = try await Downloader(transport: transport).download(url, to: directory.file("empty.bin"))
      #expect(try Data(contentsOf: result).isEmpty, "a 0-byte file is a valid download")
    }
  }

  @Test func anErrorStatusFails() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let transport = ScriptedTransport()
      await #expect(throws: DownloadError.httpStatus(404), "a 404 must fail the download, not save an empty file") {
        try await Downloader(transport: transport).download(fileURL("missing", size: 1), to: directory.file("missing"))
      }
    }
  }

  @Test("a download cancelled before its request is sent never sends it (the given URLSessionTransport)")
  func cancelledBeforeTheRequestIsSent() async throws {
    // The downloader checks for cancellation just before it asks the transport, and the
    // transport's cancellation handler can only cancel a data task that exists: a cancel in
    // between must be seen when the task is about to be made. The transport is given; this
    // checks the promise your cancellation relies on.
    let requests = Recorder<URLRequest>()
    let configuration = URLSessionConfiguration.ephemeral
    _ = StubURLProtocol.session(configuration: configuration) { request in
      requests.append(request)
      return (StubURLProtocol.response(for: request), Data(count: 10))
    }
    let making = Gate()
    let transport = URLSessionTransport(configuration: configuration, seams: .init(beforeTask: { await making.pass() }))
    let ended = Counter()
    let start = Task {
      defer { ended.increment() }
      return try await transport.start(TransferRequest(url: fileURL("never.bin", size: 10)))
    }
    try #require(
      await making.arrivals(1, giveUp: { ended.value > 0 }), "the transport should stop where it is about to make its task")
    start.cancel()
    making.open()
    let result = await start.result
    guard case .failure(let error) = result else {
      Issue.record("the caller was cancelled before the request existed: start must throw CancellationError, not return a response")
      return
    }
    #expect(
      error is CancellationError,
      "a cancellation that came before the data task existed must stop start with CancellationError before the request is sent, got \(error)"
    )
    #expect(requests.count == 0, "the request of a cancelled download must never be sent; the server saw \(requests.count)")
  }

  @Test("a reader that falls behind finds the newest 256 events, the ending last")
  func aLateReaderKeepsTheNewestEvents() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      // 300 chunks of 100 bytes: a first count at 0, one per chunk, then the ending, 302 events.
      let url = fileURL("late.bin", size: 30_000)
      let transport = ScriptedTransport(chunkSize: 100)
      transport.serve(url, .init(size: 30_000))
      let destination = directory.file("late.bin")
      let handle = Downloader(transport: transport).start(url, to: destination)
      _ = try await handle.result()
      let (events, error) = await collect(handle)
      if let error { throw error }
      #expect(events.count == 256, "the stream holds 256 unread events; the reader found \(events.count)")
      #expect(
        events.last == .completed(destination),
        "the ending is never dropped, got \(String(describing: events.last)) last")
      let counts = progressCounts(events)
      #expect(
        counts == (46...300).map { Int64($0 * 100) },
        "the 255 newest counts, in order: 4,600 to 30,000 bytes; got \(counts.first ?? -1) to \(counts.last ?? -1) (\(counts.count))"
      )
    }
  }
}

/// Chunks handed out one at a time, for a body the test writes by hand.
private final class Chunks: Sendable {
  private let remaining: Mutex<[Data]>

  init(_ chunks: [Data]) { remaining = Mutex(chunks) }

  func next() -> Data? {
    remaining.withLock { $0.isEmpty ? nil : $0.removeFirst() }
  }
}
