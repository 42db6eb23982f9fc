#if canImport(PracticeServer)
  import Foundation
  import PracticeServer
  import Synchronization
  import Testing
  import WorkbookTesting

  @testable import Downloads

  #if canImport(FoundationNetworking)
    import FoundationNetworking
  #endif

  /// A reader slower than the network, over a real `URLSession` and the practice server: the
  /// body must still arrive once, byte for byte. The reader is held before its second pull until
  /// more than `bufferLimit` bytes wait unread, the moment the transport would suspend its task.
  /// (Not graded: it tests the given transport.)
  @Suite("URLSession transport read-ahead (practice server)", .timeLimit(.minutes(1)))
  struct URLSessionTransportReadAheadTests {
    static let size = 1_000_000
    static let bufferLimit = 16_384

    @Test("a reader that falls behind by more than bufferLimit still reads the body once, in order")
    func aSlowReaderReadsTheBodyOnce() async throws {
      let server = try PracticeServer.started()
      defer { server.stop() }
      let url = try #require(URL(string: "\(server.baseURL.absoluteString)/files/slow.bin?size=\(Self.size)"))
      let (passedLimit, signal) = AsyncStream<Void>.makeStream()
      let limit = Self.bufferLimit
      let transport = URLSessionTransport(
        configuration: .ephemeral, bufferLimit: limit,
        seams: .init(
          beforeChunk: { _, _, index in
            // Hold the second pull until the read-ahead has passed the limit.
            guard index == 1 else { return }
            for await _ in passedLimit { return }
          },
          unread: { bytes in
            if bytes > limit { signal.yield() }
          }))
      let (response, body) = try await transport.start(TransferRequest(url: url))
      #expect(response.statusCode == 200 && response.totalLength == Int64(Self.size))
      var received = Data()
      for try await chunk in body { received.append(chunk) }
      signal.finish()
      let requests = server.requestLog.filter { $0.path == "/files/slow.bin" }.count
      #expect(
        received.count == Self.size,
        "\(received.count) bytes read of a \(Self.size)-byte body; the server was asked \(requests) times")
      #expect(received == ScriptedTransport.content(size: Int64(Self.size)), "the body's bytes, in order")
    }
  }
#endif
