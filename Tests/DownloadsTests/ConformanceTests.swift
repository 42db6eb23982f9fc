#if canImport(PracticeServer)
  import Foundation
  import PracticeServer
  import Testing
  import WorkbookTesting

  @testable import Downloads

  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  /// What `Tools/conformance.sh` set: the two servers and the folder nginx serves.
  enum Conformance {
    static let environment = ProcessInfo.processInfo.environment
    static let nginx = environment["WORKBOOK_CONFORMANCE_NGINX"].flatMap { URL(string: $0) }
    static let nginxRoot = environment["WORKBOOK_CONFORMANCE_NGINX_ROOT"].map { URL(fileURLWithPath: $0) }
    static let plain = environment["WORKBOOK_CONFORMANCE_PLAIN"].flatMap { URL(string: $0) }
  }

  /// The downloader and `URLSessionTransport` against servers nobody here wrote: nginx (ranges,
  /// strong and weak ETags, gzip on the fly and precompressed) and Python's `http.server`
  /// (no ranges), which `Tools/conformance.sh` starts on loopback and names in the environment.
  /// Without those variables (any run but `make conformance`) the suite is skipped.
  /// (Not graded: it tests the given code and the reference answers.)
  @Suite(
    "Conformance against nginx and http.server", .enabled(if: Conformance.nginx != nil, "make conformance runs it"),
    .timeLimit(.minutes(1)))
  struct ConformanceTests {
    /// Records what a transport was asked and what it answered, in order.
    final class RecordingTransport: Transport {
      let inner: any Transport
      let exchanges = Recorder<(request: TransferRequest, response: TransferResponse)>()

      init(_ inner: any Transport) { self.inner = inner }

      func start(_ request: TransferRequest) async throws -> (TransferResponse, TransferBody) {
        let (response, body) = try await inner.start(request)
        exchanges.append((request, response))
        return (response, body)
      }
    }

    func nginx(_ path: String) throws -> URL {
      try #require(Conformance.nginx, "WORKBOOK_CONFORMANCE_NGINX is not set").appendingPathComponent(path)
    }

    func plain(_ path: String) throws -> URL {
      try #require(
        Conformance.plain, "WORKBOOK_CONFORMANCE_PLAIN is not set: make conformance starts http.server and sets it"
      ).appendingPathComponent(path)
    }

    /// The bytes nginx serves at `path`, read from its folder.
    func served(_ path: String) throws -> Data {
      try Data(contentsOf: try #require(Conformance.nginxRoot, "WORKBOOK_CONFORMANCE_NGINX_ROOT is not set").appendingPathComponent(path))
    }

    /// A downloader whose transfers stop at `hold` (if any), and the record of its exchanges.
    func downloader(_ hold: Hold? = nil) -> (Downloader, RecordingTransport) {
      let transport = RecordingTransport(hold?.urlSessionTransport() ?? URLSessionTransport(configuration: .ephemeral))
      return (Downloader(transport: transport), transport)
    }

    /// Starts a download, waits until it is held before its second chunk, pauses it.
    func paused(_ url: URL, hold: Hold, _ downloader: Downloader, to destination: URL, size: Int) async throws -> ResumeData {
      let data = try await hold.pausedDownload(downloader, url, to: destination, .threads)
      try #require(data.bytesOnDisk > 0 && data.bytesOnDisk < size, "the pause should land mid-file: \(data.bytesOnDisk) of \(size)")
      return data
    }

    @Test("a file downloads whole, and a paused one resumes with a 206 to the exact bytes")
    func resumesWithA206() async throws {
      try await withTemporaryDirectory("conformance") { directory in
        let expected = try served("big.bin")
        let hold = Hold(at: .chunk(1), once: true)
        let (downloader, transport) = downloader(hold)
        let data = try await paused(try nginx("big.bin"), hold: hold, downloader, to: directory.file("big.bin"), size: expected.count)
        #expect(data.validator?.hasPrefix("\"") == true, "nginx sends a strong ETag: \(String(describing: data.validator))")
        let result = try await downloader.resume(data).result()
        let resumed = transport.exchanges.values.last
        #expect(resumed?.request.rangeStart == data.bytesOnDisk && resumed?.request.ifRange == data.validator)
        #expect(resumed?.response.statusCode == 206 && resumed?.response.rangeStart == data.bytesOnDisk, "nginx sends the rest")
        #expect(try Data(contentsOf: result) == expected, "the resumed file is nginx's file, byte for byte")
      }
    }

    @Test("nginx's 206 carries no Accept-Ranges, and a second pause still resumes with Range (RFC 9110 §14.3)")
    func a206ProvesRanges() async throws {
      try await withTemporaryDirectory("conformance") { directory in
        let size = try served("big.bin").count
        let hold = Hold(at: .chunk(1))
        let (downloader, transport) = downloader(hold)
        let first = try await paused(try nginx("big.bin"), hold: hold, downloader, to: directory.file("twice.bin"), size: size)
        let handle = downloader.resume(first)
        try await hold.waitUntilHeld(handle, .threads)
        let second = try await handle.pause()
        let resumed = transport.exchanges.values.last?.response
        #expect(resumed?.statusCode == 206, "the resume was answered with a range")
        #expect(resumed?.acceptsRanges == false, "nginx does not repeat Accept-Ranges on a 206; if it ever does, this test proves less")
        #expect(second.acceptsRanges, "the 206 proved ranges work: the pause must remember it")
        #expect(second.request().rangeStart == second.bytesOnDisk, "the second resume asks for the rest again, not the whole file")
      }
    }

    @Test("a partial file already whole: nginx answers its range 416 with bytes */N, and the download completes")
    func finishedPartialFile() async throws {
      try await withTemporaryDirectory("conformance") { directory in
        let expected = try served("big.bin")
        let (downloader, transport) = downloader()
        _ = try await downloader.download(try nginx("big.bin"), to: directory.file("first.bin"))
        let etag = try #require(transport.exchanges.values.first?.response.validator, "nginx sends an ETag")
        let destination = directory.file("whole.bin")
        let partial = PartialFile(url: directory.file(".whole.bin.partial"), destination: destination)
        try expected.write(to: partial.url)
        let data = ResumeData(
          url: try nginx("big.bin"), partial: partial, bytesOnDisk: Int64(expected.count), validator: etag, acceptsRanges: true)
        let result = try await downloader.resume(data).result()
        let last = transport.exchanges.values.last?.response
        #expect(last?.statusCode == 416 && last?.totalLength == Int64(expected.count), "nginx: 416, Content-Range: bytes */\(expected.count)")
        #expect(try Data(contentsOf: result) == expected, "every byte was on disk: the file is committed as it is")
        #expect(!FileManager.default.fileExists(atPath: partial.url.path), "the partial file became the destination")
      }
    }

    @Test("identity is asked for: gzip on the fly and gzip_static serve the file's own bytes")
    func identityCoding() async throws {
      try await withTemporaryDirectory("conformance") { directory in
        for path in ["text.txt", "static/static.txt"] {
          let (downloader, transport) = downloader()
          let result = try await downloader.download(try nginx(path), to: directory.file(path.replacingOccurrences(of: "/", with: "-")))
          let response = transport.exchanges.values.last?.response
          #expect(response?.contentEncoding == nil, "\(path): identity was asked, so nginx sends no coding")
          #expect(try Data(contentsOf: result) == (try served(path)), "\(path): the file's own bytes, the length nginx announced")
        }
      }
    }

    @Test("a precompressed file sent coded whatever was asked (gzip_static always) is refused with its coding")
    func codedWhateverWasAsked() async throws {
      try await withTemporaryDirectory("conformance") { directory in
        let (downloader, _) = downloader()
        await #expect(throws: DownloadError.contentEncoded("gzip"), "Content-Length counts gzip's bytes: refuse, never compare") {
          _ = try await downloader.download(try nginx("always/always.txt"), to: directory.file("always.txt"))
        }
        #expect(directory.contents().isEmpty, "nothing is left behind: \(directory.contents())")
      }
    }

    @Test("behind a weak ETag the resume asks for the whole file")
    func weakETag() async throws {
      try await withTemporaryDirectory("conformance") { directory in
        let expected = try served("weak/weak.bin")
        let hold = Hold(at: .chunk(1), once: true)
        let (downloader, transport) = downloader(hold)
        let data = try await paused(try nginx("weak/weak.bin"), hold: hold, downloader, to: directory.file("weak.bin"), size: expected.count)
        #expect(data.validator == "W/\"weak-1\"", "the weak ETag is kept as the server sent it")
        let result = try await downloader.resume(data).result()
        let resumed = transport.exchanges.values.last
        #expect(resumed?.request.rangeStart == nil && resumed?.response.statusCode == 200, "no If-Range for a weak ETag: a whole file")
        #expect(try Data(contentsOf: result) == expected)
      }
    }

    @Test("a file replaced between pause and resume comes back whole: If-Range fails, nginx sends 200")
    func replacedFile() async throws {
      try await withTemporaryDirectory("conformance") { directory in
        let root = try #require(Conformance.nginxRoot)
        let hold = Hold(at: .chunk(1), once: true)
        let (downloader, transport) = downloader(hold)
        let old = try served("changing.bin")
        let data = try await paused(try nginx("changing.bin"), hold: hold, downloader, to: directory.file("changing.bin"), size: old.count)
        // A new version of another size (nginx's ETag is the mtime in seconds and the size),
        // moved into place in one step.
        let replacement = Data(old.reversed().prefix(old.count - 1_000))
        let staged = root.appendingPathComponent(".changing.bin.new")
        try replacement.write(to: staged)
        #expect(rename(staged.path, root.appendingPathComponent("changing.bin").path) == 0)
        let result = try await downloader.resume(data).result()
        let resumed = transport.exchanges.values.last
        #expect(resumed?.request.ifRange == data.validator && resumed?.response.statusCode == 200, "the old ETag no longer matches")
        #expect(try Data(contentsOf: result) == replacement, "the new version, whole, not the old start glued to the new end")
      }
    }

    @Test("http.server offers no ranges: the resume asks for the whole file and the content is exact")
    func serverWithoutRanges() async throws {
      try await withTemporaryDirectory("conformance") { directory in
        let size = 1_000_000
        let hold = Hold(at: .chunk(1), once: true)
        let (downloader, transport) = downloader(hold)
        let data = try await paused(try plain("plain.bin"), hold: hold, downloader, to: directory.file("plain.bin"), size: size)
        #expect(!data.acceptsRanges, "http.server sends no Accept-Ranges")
        let result = try await downloader.resume(data).result()
        #expect(transport.exchanges.values.last?.request.rangeStart == nil, "without ranges a resume asks for the whole file")
        #expect(try Data(contentsOf: result) == ScriptedTransport.content(size: Int64(size)))
      }
    }

    /// One request, as the three servers answer it: status, Content-Range, Content-Length,
    /// whether there is an ETag, and the body of a 200 or 206.
    struct Answer: Equatable, CustomStringConvertible {
      var status: Int
      var contentRange: String?
      var contentLength: String?
      var hasETag: Bool
      var body: Data?

      var description: String {
        "\(status) Content-Range: \(contentRange ?? "-") Content-Length: \(contentLength ?? "-") ETag: \(hasETag) body: \(body?.count ?? 0) bytes"
      }
    }

    static func fetch(_ url: URL, range: String?, ifRange: String?) async throws -> (Answer, etag: String?) {
      var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
      request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
      if let range { request.setValue(range, forHTTPHeaderField: "Range") }
      if let ifRange { request.setValue(ifRange, forHTTPHeaderField: "If-Range") }
      let session = URLSession(configuration: .ephemeral)
      defer { session.finishTasksAndInvalidate() }
      let (data, response) = try await session.data(for: request)
      let http = try #require(response as? HTTPURLResponse)
      let etag = http.value(forHTTPHeaderField: "ETag")
      let ranged = http.statusCode == 200 || http.statusCode == 206
      return (
        Answer(
          status: http.statusCode, contentRange: http.value(forHTTPHeaderField: "Content-Range"),
          contentLength: ranged ? http.value(forHTTPHeaderField: "Content-Length") : nil, hasETag: etag != nil,
          body: ranged ? data : nil), etag
      )
    }

    /// The scripted transport's answer in the same terms.
    static func scripted(_ transport: ScriptedTransport, _ url: URL, range start: Int64?, ifRange: String?, size: Int64) async throws -> Answer {
      let (response, body) = try await transport.start(TransferRequest(url: url, rangeStart: start, ifRange: ifRange))
      var data = Data()
      for try await chunk in body { data.append(chunk) }
      let ranged = response.statusCode == 200 || response.statusCode == 206
      let contentRange: String? =
        switch response.statusCode {
        case 206: "bytes \(response.rangeStart ?? -1)-\(size - 1)/\(size)"
        case 416: "bytes */\(response.totalLength.map(String.init) ?? "?")"
        default: nil
        }
      return Answer(
        status: response.statusCode, contentRange: contentRange,
        contentLength: ranged ? String(Int64(data.count)) : nil, hasETag: response.validator != nil, body: ranged ? data : nil)
    }

    @Test("the same requests to nginx, the practice server and the scripted transport get the same answers")
    func differential() async throws {
      let server = try PracticeServer.started()
      defer { server.stop() }
      let size = Int64(try served("big.bin").count)
      let nginxURL = try nginx("big.bin")
      let practiceURL = try #require(URL(string: "\(server.baseURL.absoluteString)/files/big.bin?size=\(size)"))
      let scriptedURL = fileURL("big.bin", size: size)
      let scripted = ScriptedTransport()
      scripted.serve(scriptedURL, .init(size: size, etag: "\"big\""))
      let nginxTag = try await Self.fetch(nginxURL, range: nil, ifRange: nil).etag
      let practiceTag = try await Self.fetch(practiceURL, range: nil, ifRange: nil).etag
      // (range start, whether If-Range sends the server's own ETag or another one)
      let cases: [(start: Int64?, ifRange: Bool?)] = [
        (nil, nil), (0, nil), (100, nil), (size - 1, nil), (size, nil), (size + 7, nil), (100, true), (100, false), (size, false),
      ]
      for (start, own) in cases {
        let range = start.map { "bytes=\($0)-" }
        func tag(_ etag: String?) -> String? { own.map { $0 ? etag ?? "" : "\"another-version\"" } }
        let fromNginx = try await Self.fetch(nginxURL, range: range, ifRange: tag(nginxTag)).0
        let fromPractice = try await Self.fetch(practiceURL, range: range, ifRange: tag(practiceTag)).0
        let fromScript = try await Self.scripted(scripted, scriptedURL, range: start, ifRange: tag("\"big\""), size: size)
        let what = "Range: \(range ?? "none"), If-Range: \(own.map { $0 ? "its own ETag" : "another ETag" } ?? "none")"
        #expect(fromPractice == fromNginx, "\(what): the practice server answered \(fromPractice), nginx \(fromNginx)")
        #expect(fromScript == fromNginx, "\(what): the scripted transport answered \(fromScript), nginx \(fromNginx)")
      }
    }
  }
#endif
