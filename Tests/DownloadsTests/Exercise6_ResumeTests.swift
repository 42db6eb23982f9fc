import Foundation
import Testing
import WorkbookTesting

@testable import Downloads

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Exercise 6 — Pause and resume", .timeLimit(.minutes(1)))
struct Exercise6_ResumeTests {
  static let chunk = 16 * 1024
  static let size = Int64(chunk * 20 + 123)
  /// Where the first transfer is held, so the test can pause it: after 6 chunks.
  static let pausePoint = Int64(chunk * 6)

  /// Holds the first transfer at `pausePoint` (a resume runs through), for the test to pause it.
  static func hold() -> Hold { Hold(at: .offset(pausePoint), once: true) }

  /// A download of `name` (`size` bytes, served as `file`) started and paused at `pausePoint`:
  /// where most resume tests begin.
  struct Paused {
    let url: URL
    let destination: URL
    let transport: ScriptedTransport
    let downloader: Downloader
    let data: ResumeData
  }

  static func paused(_ name: String, serving file: ScriptedTransport.File, in directory: TemporaryDirectory)
    async throws -> Paused
  {
    let hold = hold()
    let url = fileURL(name, size: size)
    let transport = hold.transport(chunkSize: chunk)
    transport.serve(url, file)
    let downloader = Downloader(transport: transport)
    let destination = directory.file(name)
    let data = try await hold.pausedDownload(downloader, url, to: destination)
    return Paused(url: url, destination: destination, transport: transport, downloader: downloader, data: data)
  }

  /// Answers every request, whatever it asks, with one scripted status and `Content-Range` start.
  struct FixedAnswer: Transport {
    let status: Int
    let rangeStart: Int64?
    let size: Int64

    func start(_ request: TransferRequest) async throws -> (TransferResponse, TransferBody) {
      let response = TransferResponse(statusCode: status, rangeStart: rangeStart, totalLength: size)
      let pulls = Counter()
      let bytes = Data(repeating: 1, count: Int(size - (rangeStart ?? 0)))
      return (response, TransferBody { pulls.increment() == 1 ? bytes : nil })
    }
  }

  @Test("a 206 to a request that sent no Range: from byte 0 it is the whole file, from anywhere else (or unplaced) it fails")
  func a206WithoutARangeRequest() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let url = fileURL("plain.bin", size: 1_000)
      let whole = try await Downloader(transport: FixedAnswer(status: 206, rangeStart: 0, size: 1_000))
        .download(url, to: directory.file("whole.bin"))
      #expect(
        try Data(contentsOf: whole).count == 1_000,
        "a 206 whose Content-Range starts at byte 0 carries the whole file: a fresh download accepts it")
      for (start, what) in [(Int64(500), "from byte 500"), (nil, "with no Content-Range")] {
        await #expect(
          throws: DownloadError.httpStatus(206),
          "no Range was sent, so a 206 \(what) is not the start of the file: the fresh download fails with its status"
        ) {
          _ = try await Downloader(transport: FixedAnswer(status: 206, rangeStart: start, size: 1_000))
            .download(url, to: directory.file("part.bin"))
        }
      }
      #expect(
        !FileManager.default.fileExists(atPath: directory.file("part.bin").path),
        "a refused answer leaves nothing at the destination")
    }
  }

  @Test("resume asks for the rest with Range and If-Range, and no byte is lost or duplicated")
  func resumeContinuesWhereItStopped() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let paused = try await Self.paused("album.zip", serving: .init(size: Self.size, etag: "\"album-1\""), in: directory)
      let destination = paused.destination
      let transport = paused.transport
      let downloader = paused.downloader
      let data = paused.data
      #expect(data.bytesOnDisk == Self.pausePoint, "6 chunks were written before the pause")
      #expect(data.partial.size == Self.pausePoint, "the paused download keeps its partial file")
      #expect(data.validator == "\"album-1\"" && data.acceptsRanges, "the pause remembers what the server offered")
      #expect(!FileManager.default.fileExists(atPath: destination.path), "a paused download is not at its destination")

      let result = try await downloader.resume(data).result()
      let request = transport.requests.last
      #expect(request?.rangeStart == Self.pausePoint, "the resume must ask for the bytes from \(Self.pausePoint) on (Range)")
      #expect(request?.ifRange == "\"album-1\"", "the resume must send the validator as If-Range")
      #expect(
        transport.bytesServed == Self.size,
        "the whole file should cross the network once: \(transport.bytesServed) bytes for a \(Self.size)-byte file")
      #expect(try Data(contentsOf: result) == ScriptedTransport.content(size: Self.size), "resumed file, byte for byte")
      #expect(directory.contents() == ["album.zip"], "no temporary file is left: \(directory.contents())")
    }
  }

  @Test("progress after a resume starts at the bytes already on disk")
  func progressContinues() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let paused = try await Self.paused("progress.zip", serving: .init(size: Self.size, etag: "\"p\""), in: directory)
      let downloader = paused.downloader
      let data = paused.data
      let (events, error) = await collect(downloader.resume(data))
      if let error { throw error }
      let counts = progressCounts(events)
      #expect(counts.first == Self.pausePoint, "a resumed download reports the bytes it already has first; got \(counts.prefix(2))")
      #expect(counts.last == Self.size, "and ends at the whole size")
    }
  }

  @Test("a changed file comes back whole (200): the download restarts from zero")
  func changedFileRestarts() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let paused = try await Self.paused("changing.bin", serving: .init(size: Self.size, etag: "\"v1\""), in: directory)
      let url = paused.url
      let transport = paused.transport
      let downloader = paused.downloader
      let data = paused.data
      transport.changeETag(of: url, to: "\"v2\"")
      let result = try await downloader.resume(data).result()
      #expect(transport.requests.last?.ifRange == "\"v1\"", "the resume must send the old validator as If-Range")
      let content = try Data(contentsOf: result)
      #expect(content.count == Int(Self.size), "a 200 is the whole file: write it from 0, not after the old bytes (\(content.count) bytes)")
      #expect(content == ScriptedTransport.content(size: Self.size), "the restarted file, byte for byte")
    }
  }

  @Test("without Accept-Ranges, or without a validator, the resume asks for the whole file")
  func noRangesNoValidatorRestarts() async throws {
    for (name, file) in [
      ("noranges", ScriptedTransport.File(size: Self.size, etag: "\"x\"", acceptsRanges: false)),
      ("noetag", ScriptedTransport.File(size: Self.size, etag: nil, acceptsRanges: true)),
    ] {
      try await withTemporaryDirectory("downloads") { directory in
        let paused = try await Self.paused(name, serving: file, in: directory)
        let transport = paused.transport
        let downloader = paused.downloader
        let data = paused.data
        let result = try await downloader.resume(data).result()
        #expect(
          transport.requests.last?.rangeStart == nil,
          "\(name): without Accept-Ranges and a validator a range request is unsafe; ask for the whole file")
        #expect(try Data(contentsOf: result) == ScriptedTransport.content(size: Self.size), "\(name): content is exact")
      }
    }
  }

  @Test("If-Range carries only a strong validator: never a weak ETag, a Last-Modified date only a second before Date")
  func ifRangeNeedsAStrongValidator() {
    let partial = PartialFile(url: URL(fileURLWithPath: "/tmp/p"), destination: URL(fileURLWithPath: "/tmp/d"))
    func resume(_ validator: String?, date: String? = nil) -> ResumeData {
      ResumeData(
        url: fileURL("f", size: 1000), partial: partial, bytesOnDisk: 400, validator: validator, acceptsRanges: true,
        responseDate: date)
    }
    let modified = "Sun, 06 Nov 1994 08:49:37 GMT"
    let continuing: [(ResumeData, String)] = [
      (resume("\"v7\""), "a strong ETag"),
      (resume(modified, date: "Sun, 06 Nov 1994 08:49:38 GMT"), "a Last-Modified date one second before the response's Date"),
      (resume(modified, date: "Sunday, 06-Nov-94 09:00:00 GMT"), "a Last-Modified date before a Date in the RFC 850 form"),
      (resume("Sun Nov  6 08:49:37 1994", date: "Mon, 07 Nov 1994 00:00:00 GMT"), "an asctime Last-Modified a day before Date"),
    ]
    for (data, what) in continuing {
      let request = data.request()
      #expect(
        data.canContinue && request.rangeStart == 400 && request.ifRange == data.validator,
        "\(what) is a strong validator: continue from byte 400 with If-Range: \(data.validator ?? "nil"); got \(request)")
    }
    let restarting: [(ResumeData, String)] = [
      (resume("W/\"v7\""), "a weak ETag promises an equivalent file, not the same bytes (RFC 9110 §13.1.5 forbids it in If-Range)"),
      (resume(modified, date: modified), "a Last-Modified date equal to Date could hide a second change within that second (§8.8.2.2)"),
      (resume(modified, date: "Sun, 06 Nov 1994 08:49:37 GMT "), "a Date less than a second after Last-Modified proves nothing"),
      (resume(modified), "a Last-Modified date with no Date to compare with is weak"),
      (
        resume(modified, date: "Sun, 06 Nov 1994 07:49:37 GMT"),
        "a Date an hour before Last-Modified proves nothing (the server's clocks disagree): §8.8.2.2 needs Date at least one second after it, not one second apart"
      ),
      (resume(modified, date: "yesterday"), "a Date that is not an HTTP-date proves nothing"),
      (resume("last tuesday", date: "Mon, 07 Nov 1994 00:00:00 GMT"), "a validator that is neither an entity tag nor a date"),
    ]
    for (data, what) in restarting {
      let request = data.request()
      #expect(
        !data.canContinue && request.rangeStart == nil && request.ifRange == nil,
        "\(what): ask for the whole file, with no Range and no If-Range; got \(request)")
    }
  }

  @Test("a download paused behind a weak ETag resumes by asking for the whole file")
  func weakETagRestarts() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let paused = try await Self.paused("weak.zip", serving: .init(size: Self.size, etag: "W/\"gzip-1\""), in: directory)
      let transport = paused.transport
      let downloader = paused.downloader
      let data = paused.data
      #expect(data.validator == "W/\"gzip-1\"", "the pause keeps what the server sent, weak or not")
      let result = try await downloader.resume(data).result()
      let request = transport.requests.last
      #expect(
        request?.rangeStart == nil && request?.ifRange == nil,
        "a weak ETag must not be sent as If-Range (RFC 9110 §13.1.5): the resume asks for the whole file; sent \(String(describing: request))")
      #expect(try Data(contentsOf: result) == ScriptedTransport.content(size: Self.size), "the whole file, byte for byte")
    }
  }

  @Test("a download paused with a strong Last-Modified resumes with it as If-Range")
  func strongLastModifiedContinues() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let modified = "Wed, 21 Oct 2015 07:28:00 GMT"
      let paused = try await Self.paused(
        "dated.zip", serving: .init(size: Self.size, lastModified: modified, date: "Wed, 21 Oct 2015 09:00:00 GMT"), in: directory)
      let transport = paused.transport
      let downloader = paused.downloader
      let data = paused.data
      #expect(data.responseDate == "Wed, 21 Oct 2015 09:00:00 GMT", "the pause keeps the response's Date beside the validator")
      let result = try await downloader.resume(data).result()
      let request = transport.requests.last
      #expect(
        request?.rangeStart == Self.pausePoint && request?.ifRange == modified,
        "Last-Modified is 92 minutes before Date, a strong validator: continue with If-Range: \(modified); sent \(String(describing: request))")
      #expect(transport.bytesServed == Self.size, "the file crosses the network once")
      #expect(try Data(contentsOf: result) == ScriptedTransport.content(size: Self.size), "resumed file, byte for byte")
    }
  }

  @Test("resume data survives an app kill: encoded, decoded, and resumed by a new downloader")
  func resumeAfterRelaunch() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let hold = Self.hold()
      let url = fileURL("podcast.mp3", size: Self.size)
      let first = hold.transport(chunkSize: Self.chunk)
      first.serve(url, .init(size: Self.size, etag: "\"ep1\""))
      let data = try await hold.pausedDownload(Downloader(transport: first), url, to: directory.file("podcast.mp3"))
      let saved = try JSONEncoder().encode(data)

      let relaunched = ScriptedTransport(chunkSize: Self.chunk)
      relaunched.serve(url, .init(size: Self.size, etag: "\"ep1\""))
      let restored = try JSONDecoder().decode(ResumeData.self, from: saved)
      #expect(restored == data, "resume data should round-trip through JSON")
      let result = try await Downloader(transport: relaunched).resume(restored).result()
      #expect(relaunched.requests.last?.rangeStart == Self.pausePoint, "after a relaunch the resume still asks only for the rest")
      #expect(relaunched.bytesServed == Self.size - Self.pausePoint, "only the missing bytes should be fetched")
      #expect(try Data(contentsOf: result) == ScriptedTransport.content(size: Self.size), "the file is exact")
    }
  }

  @Test("a partial file shorter than recorded (lost in a crash) resumes from what is really on disk")
  func shorterPartialFile() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let paused = try await Self.paused("crash.bin", serving: .init(size: Self.size, etag: "\"c\""), in: directory)
      let transport = paused.transport
      let downloader = paused.downloader
      let data = paused.data
      let handle = try FileHandle(forWritingTo: data.partial.url)
      try handle.truncate(atOffset: UInt64(Self.chunk * 2))
      try handle.close()
      let result = try await downloader.resume(data).result()
      #expect(transport.requests.last?.rangeStart == Int64(Self.chunk * 2), "only the bytes really on disk count")
      #expect(try Data(contentsOf: result) == ScriptedTransport.content(size: Self.size), "the file is exact")
    }
  }

  @Test("a resume whose partial file has gone downloads the whole file again")
  func aVanishedPartialFileRestarts() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let paused = try await Self.paused("gone.bin", serving: .init(size: Self.size, etag: "\"g\""), in: directory)
      let data = paused.data
      try FileManager.default.removeItem(at: data.partial.url)
      let result = try await paused.downloader.resume(data).result()
      let range = paused.transport.requests.last?.rangeStart
      #expect(range == nil, "no byte is on disk: the resume asks for the whole file, it asked from \(range ?? -1)")
      #expect(try Data(contentsOf: result) == ScriptedTransport.content(size: Self.size), "the file is exact")
    }
  }

  /// A partial file for `destination` holding the first `count` bytes of the scripted content
  /// (more than the file's size repeats the pattern), as a paused download leaves it.
  static func partialFile(holding count: Int64, for destination: URL) throws -> PartialFile {
    let partial = PartialFile(
      url: destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).partial"),
      destination: destination)
    try ScriptedTransport.content(size: count).write(to: partial.url)
    return partial
  }

  @Test("a partial file that already holds every byte: the 416 to its range completes the download, error page unwritten")
  func finishedPartialFileCompletes() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let url = fileURL("whole.bin", size: Self.size)
      let transport = ScriptedTransport(chunkSize: Self.chunk)
      transport.serve(url, .init(size: Self.size, etag: "\"w\""))
      let destination = directory.file("whole.bin")
      let partial = try Self.partialFile(holding: Self.size, for: destination)
      let data = ResumeData(url: url, partial: partial, bytesOnDisk: Self.size, validator: "\"w\"", acceptsRanges: true)
      let (events, error) = await collect(Downloader(transport: transport).resume(data))
      #expect(
        transport.requests.last?.rangeStart == Self.size,
        "the resume asks for the bytes after the \(Self.size) on disk, which the server answers 416 Range Not Satisfiable")
      #expect(
        error == nil,
        "the 416 says Content-Range: bytes */\(Self.size), exactly what is on disk: the file is whole, the download completes; got \(String(describing: error))"
      )
      #expect(events.last == .completed(destination), "the download ends completed at its destination; events \(events.suffix(2))")
      #expect(
        (try? Data(contentsOf: destination)) == ScriptedTransport.content(size: Self.size),
        "the destination holds the file byte for byte, and not the 416's error page after it")
      #expect(directory.contents() == ["whole.bin"], "the partial file became the destination: \(directory.contents())")
    }
  }

  @Test("a 416 whose size is not what is on disk fails with its status and leaves an existing destination as it was")
  func mismatched416Fails() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let url = fileURL("shrunk.bin", size: Self.size)
      let transport = ScriptedTransport(chunkSize: Self.chunk)
      transport.serve(url, .init(size: Self.size, etag: "\"s\""))
      let destination = directory.file("shrunk.bin")
      let old = Data("the previous version".utf8)
      try old.write(to: destination)
      let onDisk = Self.size + 100
      let partial = try Self.partialFile(holding: onDisk, for: destination)
      let data = ResumeData(url: url, partial: partial, bytesOnDisk: onDisk, validator: "\"s\"", acceptsRanges: true)
      await #expect(
        throws: DownloadError.httpStatus(416),
        "\(onDisk) bytes on disk and a 416 saying the file has \(Self.size): the partial file is not the file, the download fails"
      ) {
        _ = try await Downloader(transport: transport).resume(data).result()
      }
      #expect((try? Data(contentsOf: destination)) == old, "a failed resume never touches the file already at the destination")
    }
  }

  @Test("a resumed 206 without Accept-Ranges still proves ranges: paused again, it resumes with Range")
  func a206ProvesRanges() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      // Every transfer stops at the pause point, the resume too: its first chunk starts there.
      let hold = Hold(at: .offset(Self.pausePoint))
      let url = fileURL("twice.bin", size: Self.size)
      let transport = hold.transport(chunkSize: Self.chunk)
      transport.serve(url, .init(size: Self.size, etag: "\"t\""))
      let downloader = Downloader(transport: transport)
      let first = try await hold.pausedDownload(downloader, url, to: directory.file("twice.bin"))
      let handle = downloader.resume(first)
      try await hold.waitUntilHeld(handle)
      let second = try await handle.pause()
      #expect(
        second.acceptsRanges,
        "the resume was answered 206 without Accept-Ranges (as nginx answers): the 206 itself proves ranges work (RFC 9110 §14.3)")
      #expect(
        second.request().rangeStart == Self.pausePoint,
        "paused again, the download continues from byte \(Self.pausePoint) instead of starting over from zero")
    }
  }

  @Test("a body coded though the download asked for identity (gzip_static always) is refused before a byte is written")
  func codedBodyIsRefused() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let url = fileURL("coded.bin", size: Self.size)
      let transport = ScriptedTransport(chunkSize: Self.chunk)
      transport.serve(url, .init(size: Self.size, etag: "\"g\"", contentEncoding: "gzip"))
      let destination = directory.file("coded.bin")
      await #expect(
        throws: DownloadError.contentEncoded("gzip"),
        "Content-Length and ranges count gzip's bytes, the transport hands over decoded ones: refuse, never compare the two"
      ) {
        _ = try await Downloader(transport: transport).download(url, to: destination)
      }
      #expect(directory.contents().isEmpty, "a refused body leaves nothing behind: \(directory.contents())")
      transport.serve(url, .init(size: Self.size, etag: "\"g\"", contentEncoding: "identity"))
      let result = try await Downloader(transport: transport).download(url, to: destination)
      #expect(
        try Data(contentsOf: result) == ScriptedTransport.content(size: Self.size),
        "Content-Encoding: identity is the file's own bytes: accepted")
    }
  }

  @Test("only a 206 that starts where the partial file ends continues it")
  func offsetForResponses() throws {
    let partial = PartialFile(url: URL(fileURLWithPath: "/tmp/p"), destination: URL(fileURLWithPath: "/tmp/d"))
    let data = ResumeData(
      url: fileURL("f", size: 1000), partial: partial, bytesOnDisk: 400, validator: "\"e\"", acceptsRanges: true)
    let request = data.request()
    #expect(request.rangeStart == 400 && request.ifRange == "\"e\"", "continue from byte 400 if the file is still \"e\"")
    #expect(
      try data.offset(for: TransferResponse(statusCode: 206, rangeStart: 400, totalLength: 1000)) == 400,
      "a 206 from byte 400 continues at 400")
    #expect(try data.offset(for: TransferResponse(statusCode: 200, totalLength: 1000)) == 0, "a 200 restarts from 0")
    #expect(
      throws: DownloadError.unexpectedRange(expected: 400, got: 0),
      "a 206 from another offset would corrupt the file and must be refused"
    ) {
      try data.offset(for: TransferResponse(statusCode: 206, rangeStart: 0, totalLength: 1000))
    }
    #expect(
      throws: DownloadError.unexpectedRange(expected: 400, got: nil),
      "a 206 without Content-Range does not say where its bytes start: it must be refused, not taken to start at 400"
    ) {
      try data.offset(for: TransferResponse(statusCode: 206, totalLength: 1000))
    }
    #expect(throws: DownloadError.httpStatus(416), "a 416 that does not say the file's size (no Content-Range) is an error") {
      try data.offset(for: TransferResponse(statusCode: 416))
    }
    #expect(
      try data.offset(for: TransferResponse(statusCode: 416, totalLength: 400)) == 400,
      "a 416 with Content-Range: bytes */400 says the 400 bytes on disk are the whole file: nothing is left, continue at 400")
    for total: Int64 in [399, 401, 1000] {
      #expect(
        throws: DownloadError.httpStatus(416),
        "a 416 saying the file has \(total) bytes, not the 400 on disk, is an error: the partial file is not that file"
      ) {
        try data.offset(for: TransferResponse(statusCode: 416, totalLength: total))
      }
    }
    #expect(throws: DownloadError.httpStatus(500), "any other status is an error") {
      try data.offset(for: TransferResponse(statusCode: 500))
    }
    var empty = data
    empty.bytesOnDisk = 0
    #expect(empty.request().rangeStart == nil, "with nothing on disk there is nothing to continue")
  }

  @Test("a pause after the download completed throws notRunning, and the file stays whole")
  func pausingAFinishedDownloadThrowsNotRunning() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let url = fileURL("done.bin", size: 1_000)
      let transport = ScriptedTransport(chunkSize: 256)
      transport.serve(url, .init(size: 1_000, etag: "\"d\""))
      let handle = Downloader(transport: transport).start(url, to: directory.file("done.bin"))
      let file = try await handle.result()
      await #expect(throws: DownloadError.notRunning, "the download had completed: there is nothing left to pause") {
        _ = try await handle.pause()
      }
      #expect(
        try Data(contentsOf: file) == ScriptedTransport.content(size: 1_000),
        "a pause that comes too late must leave the finished file as it was")
    }
  }

  @Test("waiting for the file of a paused download throws CancellationError")
  func aPausedDownloadHasNoFile() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let hold = Self.hold()
      let url = fileURL("paused.bin", size: Self.size)
      let transport = hold.transport(chunkSize: Self.chunk)
      transport.serve(url, .init(size: Self.size, etag: "\"p\""))
      let handle = Downloader(transport: transport).start(url, to: directory.file("paused.bin"))
      try await hold.waitUntilHeld(handle, .tasks)
      let data = try await handle.pause()
      await #expect(throws: CancellationError.self, "a paused download has no file yet: result() throws CancellationError") {
        _ = try await handle.result()
      }
      #expect(data.bytesOnDisk == Self.pausePoint, "the pause kept the \(Self.pausePoint) bytes on disk, got \(data.bytesOnDisk)")
    }
  }

  @Test("every request bypasses the local cache, so the server answers each resume")
  func requestsBypassTheCache() {
    let url = fileURL("f", size: 5_000)
    for transfer in [TransferRequest(url: url), TransferRequest(url: url, rangeStart: 100, ifRange: "\"e\"")] {
      let policy = URLSessionTransport.urlRequest(for: transfer).cachePolicy
      #expect(
        policy == .reloadIgnoringLocalCacheData,
        "a stored answer must not stand in for the server's (.reloadIgnoringLocalCacheData); the policy's raw value is \(policy.rawValue)")
    }
  }
}
