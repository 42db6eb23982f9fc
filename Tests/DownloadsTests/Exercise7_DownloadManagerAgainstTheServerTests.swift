#if canImport(PracticeServer)
  import Foundation
  import PracticeServer
  import Testing
  import WorkbookTesting

  @testable import Downloads

  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  /// Exercise 7's manager over real HTTP: the practice server counts the requests it is sent.
  @Suite("Exercise 7 — One transfer per URL (practice server)", .timeLimit(.minutes(1)))
  struct Exercise7_DownloadManagerAgainstTheServerTests {
    /// Exercise 6's server files: their URLs, sizes and throttle.
    typealias Files = Exercise6_ResumeAgainstTheServerTests
    let files = Files()

    @Test("two callers of the same URL through DownloadManager make one request to the server")
    func managerSharesOneRequest() async throws {
      let server = try PracticeServer.started()
      defer { server.stop() }
      try await withTemporaryDirectory("downloads") { directory in
        let url = try files.fileURL(server, "shared.bin", query: Files.throttle)
        let manager = DownloadManager(downloader: files.downloader(), directory: directory.url)
        let first = Task { try await manager.download(url) }
        let joined = await eventually { await manager.joiners(of: url) == 1 }
        if !joined { _ = try await first.value }
        try #require(joined, "the first caller should be waiting for its transfer")
        let second = Task { try await manager.download(url) }
        let (a, b) = (try await first.value, try await second.value)
        #expect(a == b, "both callers should get the same file: \(a.path) and \(b.path)")
        #expect(
          server.requestCount("/files/shared.bin") == 1,
          "the second caller should join the running transfer, not send its own request; the server saw \(server.requestCount("/files/shared.bin"))"
        )
        #expect(try Data(contentsOf: a) == ScriptedTransport.content(size: Files.size), "the shared file should be exact, byte for byte")
      }
    }
  }
#endif
