#if canImport(PracticeServer)
  import Foundation
  import PracticeServer
  import Testing
  import WorkbookTesting

  @testable import Downloads

  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  /// Pause and resume over real HTTP: the downloader, `URLSessionTransport` and the practice
  /// server's `/files/{name}?size=N`, which honours `Range` and `If-Range` like a real server.
  /// The transport's chunk seam holds a transfer part way (`Hold`), so a pause lands mid-file
  /// however fast the server and the machine are.
  @Suite("Exercise 6 — Pause and resume (practice server)", .timeLimit(.minutes(1)))
  struct Exercise6_ResumeAgainstTheServerTests {
    static let size: Int64 = 300_000

    /// `http://127.0.0.1:<port>/files/<name>?size=<size>&<query>`.
    func fileURL(_ server: PracticeServer, _ name: String, query: String = "") throws -> URL {
      let extra = query.isEmpty ? "" : "&\(query)"
      return try #require(URL(string: "\(server.baseURL.absoluteString)/files/\(name)?size=\(Self.size)\(extra)"))
    }

    /// Holds the first transfer before its second chunk, so a few bytes are on disk and the rest
    /// is not, however fast the server sends it; a resume runs through.
    static func hold() -> Hold { Hold(at: .chunk(1), once: true) }

    /// A downloader over the given `URLSessionTransport`, whose transfers stop at `hold` if any.
    func downloader(_ hold: Hold? = nil) -> Downloader {
      Downloader(transport: hold?.urlSessionTransport() ?? URLSessionTransport(configuration: .ephemeral))
    }

    /// The served requests for `/files/<name>`, in order.
    func served(_ server: PracticeServer, _ name: String) -> [PracticeServer.LoggedRequest] {
      server.requestLog.filter { $0.path == "/files/\(name)" }
    }

    /// Starts a download, waits until it is held with its first bytes on disk, pauses it and
    /// returns the resume data.
    func pausedDownload(_ hold: Hold, _ downloader: Downloader, _ url: URL, to destination: URL) async throws
      -> ResumeData
    {
      // The transfer runs on URLSession's threads, which settle() cannot see.
      let data = try await hold.pausedDownload(downloader, url, to: destination, .threads)
      try #require(
        data.bytesOnDisk > 0 && data.bytesOnDisk < Self.size,
        "the pause should land part-way through the file; \(data.bytesOnDisk) of \(Self.size) bytes were on disk")
      return data
    }

    @Test("a fresh download over HTTP produces exactly the server's bytes")
    func freshDownload() async throws {
      let server = try PracticeServer.started()
      defer { server.stop() }
      try await withTemporaryDirectory("downloads") { directory in
        let url = try fileURL(server, "a.bin")
        let result = try await downloader().download(url, to: directory.file("a.bin"))
        let formula = Data((0..<Self.size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        #expect(
          ScriptedTransport.content(size: Self.size) == formula,
          "the scripted files and the server's files follow the same rule: byte i is i * 31 + 7, truncated")
        let content = try Data(contentsOf: result)
        #expect(content.count == Int(Self.size), "the whole file should arrive: \(content.count) of \(Self.size) bytes")
        #expect(content == formula, "the downloaded file should be the server's bytes, in order, byte for byte")
        let requests = served(server, "a.bin")
        #expect(requests.count == 1, "a fresh download is one request; the server saw \(requests.count)")
        #expect(requests.first?.headers["range"] == nil, "a fresh download asks for the whole file, with no Range header")
        #expect(requests.first?.status == 200, "the server answers a whole-file request with 200")
        #expect(
          requests.first?.headers["accept-encoding"] == "identity",
          "a download asks for the file's own bytes (Accept-Encoding: identity), which ranges and Content-Length count; sent \(String(describing: requests.first?.headers["accept-encoding"]))"
        )
        #expect(directory.contents() == ["a.bin"], "only the finished file should remain, no temporary file: \(directory.contents())")
      }
    }

    @Test("a partial file already whole: its range gets the server's 416 with bytes */N, and the download completes")
    func finishedPartialFileCompletes() async throws {
      let server = try PracticeServer.started()
      defer { server.stop() }
      try await withTemporaryDirectory("downloads") { directory in
        let url = try fileURL(server, "w.bin")
        let destination = directory.file("w.bin")
        let partial = try Exercise6_ResumeTests.partialFile(holding: Self.size, for: destination)
        let data = ResumeData(
          url: url, partial: partial, bytesOnDisk: Self.size, validator: "\"w.bin-\(Self.size)\"", acceptsRanges: true)
        let result = try await downloader().resume(data).result()
        #expect(served(server, "w.bin").last?.status == 416, "a range that starts at the file's end is not satisfiable")
        #expect(
          try Data(contentsOf: result) == ScriptedTransport.content(size: Self.size),
          "the partial file was already the whole file: it is committed as it is")
        #expect(directory.contents() == ["w.bin"], "only the finished file remains: \(directory.contents())")
      }
    }

    @Test("a paused download resumes with Range and If-Range, gets a 206, and the file is exact")
    func pauseAndResume() async throws {
      let server = try PracticeServer.started()
      defer { server.stop() }
      try await withTemporaryDirectory("downloads") { directory in
        let url = try fileURL(server, "b.bin")
        let hold = Self.hold()
        let downloader = downloader(hold)
        let data = try await pausedDownload(hold, downloader, url, to: directory.file("b.bin"))
        let etag = "\"b.bin-\(Self.size)\""
        #expect(data.validator == etag, "the pause should keep the server's ETag to send back as If-Range; got \(String(describing: data.validator))")
        #expect(data.acceptsRanges, "the server said Accept-Ranges: bytes, and the pause should remember it")

        let result = try await downloader.resume(data).result()
        let requests = served(server, "b.bin")
        #expect(requests.count == 2, "one request before the pause and one to resume; the server saw \(requests.count)")
        let resume = requests.last
        #expect(
          resume?.headers["range"] == "bytes=\(data.bytesOnDisk)-",
          "the resume should ask only for the bytes after the \(data.bytesOnDisk) on disk; sent \(String(describing: resume?.headers["range"]))")
        #expect(
          resume?.headers["if-range"] == etag,
          "the resume should send the ETag as If-Range so a changed file is not spliced; sent \(String(describing: resume?.headers["if-range"]))")
        #expect(resume?.status == 206, "an unchanged file with a matching If-Range is answered with the rest of it (206)")
        #expect(resume?.headers["accept-encoding"] == "identity", "the range counts the file's own bytes: the resume asks for identity too")
        #expect(
          try Data(contentsOf: result) == ScriptedTransport.content(size: Self.size),
          "the bytes before the pause plus the 206 body should be the whole file, none lost or duplicated")
        #expect(directory.contents() == ["b.bin"], "only the finished file should remain, no partial file: \(directory.contents())")
      }
    }

    @Test("if the file changed while paused, If-Range fails, the server sends 200 and the download restarts")
    func changedFileRestarts() async throws {
      let server = try PracticeServer.started()
      defer { server.stop() }
      try await withTemporaryDirectory("downloads") { directory in
        let url = try fileURL(server, "c.bin")
        let hold = Self.hold()
        let downloader = downloader(hold)
        var data = try await pausedDownload(hold, downloader, url, to: directory.file("c.bin"))
        // The same file, but the server now gives it another ETag: a new version on the server.
        data.url = try fileURL(server, "c.bin", query: "etag=other")

        let result = try await downloader.resume(data).result()
        let resume = served(server, "c.bin").last
        #expect(resume?.query["etag"] == "other", "the resume should reach the changed file")
        #expect(
          resume?.headers["if-range"] == "\"c.bin-\(Self.size)\"",
          "the resume should send the old ETag as If-Range; sent \(String(describing: resume?.headers["if-range"]))")
        #expect(resume?.status == 200, "an If-Range that no longer matches makes the server send the whole new file (200)")
        let content = try Data(contentsOf: result)
        #expect(
          content.count == Int(Self.size),
          "a 200 is the whole file: it must be written from byte 0, not after the old bytes (\(content.count) bytes)")
        #expect(content == ScriptedTransport.content(size: Self.size), "the restarted file should be exact, byte for byte")
      }
    }

    @Test("without Accept-Ranges the resume asks for the whole file and the content is exact")
    func noRangesRestarts() async throws {
      let server = try PracticeServer.started()
      defer { server.stop() }
      try await withTemporaryDirectory("downloads") { directory in
        let url = try fileURL(server, "d.bin", query: "ranges=0")
        let hold = Self.hold()
        let downloader = downloader(hold)
        let data = try await pausedDownload(hold, downloader, url, to: directory.file("d.bin"))
        #expect(!data.acceptsRanges, "the server sent no Accept-Ranges, and the pause should remember that")

        let result = try await downloader.resume(data).result()
        let requests = served(server, "d.bin")
        #expect(requests.count == 2, "one request before the pause and one to resume; the server saw \(requests.count)")
        let resume = requests.last
        #expect(
          resume?.headers["range"] == nil,
          "a server that does not offer ranges may ignore them: the resume should ask for the whole file; sent \(String(describing: resume?.headers["range"]))"
        )
        #expect(resume?.status == 200, "a whole-file request is answered with 200")
        let content = try Data(contentsOf: result)
        #expect(content.count == Int(Self.size), "the restart should write the file from byte 0: \(content.count) of \(Self.size) bytes")
        #expect(content == ScriptedTransport.content(size: Self.size), "the restarted file should be exact, byte for byte")
      }
    }
  }
#endif
