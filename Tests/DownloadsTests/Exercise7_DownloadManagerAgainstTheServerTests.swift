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
    /// Exercise 6's server files: their URLs and sizes.
    typealias Files = Exercise6_ResumeAgainstTheServerTests
    let files = Files()

    @Test("two callers of the same URL through DownloadManager make one request to the server")
    func managerSharesOneRequest() async throws {
      let server = try PracticeServer.started()
      defer { server.stop() }
      try await withTemporaryDirectory("downloads") { directory in
        let url = try files.fileURL(server, "shared.bin")
        // The transfer stops before its second chunk until the test lets it go on.
        let hold = Hold(at: .chunk(1))
        let manager = DownloadManager(downloader: files.downloader(hold), directory: directory.url)
        let first = Crowd(1) { _ in try await manager.download(url) }
        // The transfer runs on URLSession's threads, which settle() cannot see.
        let held = await hold.clock.waitForSleepers(1, .threads, giveUp: { first.allFinished })
        if !held && first.allFinished { _ = try await first.values() }
        try #require(held, "the first caller's transfer should be running, held part way")
        let second = Crowd(1) { _ in try await manager.download(url) }
        let joined = await eventually(.threads, giveUp: { second.allFinished }) { await manager.joiners(of: url) == 2 }
        guard joined else {
          Issue.record("the second caller should join the running transfer, and both should wait for it")
          first.cancelAll()
          second.cancelAll()
          return
        }
        await hold.release()
        let (a, b) = (try await first.values()[0], try await second.values()[0])
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
