import Foundation
import Networking
import PracticeServer
import Testing
import WorkbookTesting

@testable import Sync

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The push: the outbox reaches the server in order, in batches the server takes, each retried
/// with the same ids when the network or the server fails for a moment. The wire is the practice
/// server over URLSession; a reply lost after the server applied it is forced in process.
@Suite("Exercise 2 — Push", .timeLimit(.minutes(1)))
struct Exercise2_PusherTests {
  /// Retries with no wait: a retry happens at once on the manual clock, so a test counts attempts
  /// without moving time.
  static let retriesAtOnce = RetryPolicy(maxAttempts: 3, baseDelay: .zero, maxDelay: .zero, jitter: .none, maxRetryAfter: .zero)

  /// The practice server, a transport to it that records every request, and a pusher over both.
  func withServer(
    batchSize: Int = 50, policy: RetryPolicy = retriesAtOnce, clock: ManualClock = ManualClock(),
    _ body: (PracticeServer, ScriptedSyncTransport, Pusher<ManualClock>) async throws -> Void
  ) async throws {
    let server = try PracticeServer.started()
    defer { server.stop() }
    let transport = ScriptedSyncTransport(server: URLSessionSyncTransport())
    let pusher = Pusher(
      transport: transport, baseURL: server.baseURL, batchSize: batchSize, policy: policy, clock: clock, random: .constant(0.5))
    try await body(server, transport, pusher)
  }

  /// The error `push` threw, nil when it returned.
  func failure(of push: () async throws(SyncError) -> [PushResult]) async -> SyncError? {
    do {
      _ = try await push()
      return nil
    } catch {
      return error
    }
  }

  @Test func batchesLeaveInTheUsersOrderAndHoldAtMostBatchSize() async throws {
    try await withServer(batchSize: 3) { server, transport, pusher in
      let edits = Edits.chain(7)
      let results = try await pusher.push(edits)
      let sizes = transport.requests.map(\.pushedIDs.count)
      #expect(sizes == [3, 3, 1], "7 edits in batches of 3 are 3 requests of 3, 3 and 1 edits; the server got batches of \(sizes)")
      let sent = transport.requests.flatMap(\.pushedIDs)
      #expect(
        sent == edits.map(\.id),
        "every edit should reach the server once, in the order the user made it (each one builds on the one before); sent \(sent)")
      #expect(
        results.map(\.id) == edits.map(\.id) && results.allSatisfy { $0.status == 200 },
        "each edit is made on the version the previous one creates, so in order all 7 apply (200); got \(results.map { "\($0.id) \($0.status)" })"
      )
      #expect(server.sync.appliedCount == 7, "the server should have applied the 7 edits once each, applied \(server.sync.appliedCount)")
      #expect(server.sync.notes.first?.fields["title"] == "t6", "the note ends with the last edit's title, t6")
    }
  }

  @Test func oneHundredEditsAreOneRequestAndOneHundredOneAreTwo() async throws {
    // A batch size above the server's limit is held to it: the server refuses 101 with a 400.
    try await withServer(batchSize: 500) { server, transport, pusher in
      let hundred = Edits.newNotes(PushBody.maximumBatch, prefix: "a")
      let first = try await pusher.push(hundred)
      #expect(
        transport.requests.map(\.pushedIDs.count) == [100],
        "100 edits are the server's limit, so one request; sent \(transport.requests.map(\.pushedIDs.count))")
      #expect(first.count == 100, "100 edits get 100 results, got \(first.count)")
      let hundredAndOne = Edits.newNotes(PushBody.maximumBatch + 1, prefix: "b").map { edit in
        var edit = edit
        edit.base = edit.note == "note-100" ? 0 : 1
        return edit
      }
      let second = try await pusher.push(hundredAndOne)
      let sizes = transport.requests.dropFirst().map(\.pushedIDs.count)
      #expect(
        sizes == [100, 1],
        "101 edits are one more than a push may hold (PushBody.maximumBatch), so two requests of 100 and 1, even when the batch size asked is 500; sent \(sizes)"
      )
      #expect(second.allSatisfy { $0.status == 200 }, "every one of the 101 edits should apply")
      #expect(server.sync.appliedCount == 201, "the server should have applied 201 edits, applied \(server.sync.appliedCount)")
    }
  }

  @Test func aBatchSizeUnderOneIsHeldToOne() async throws {
    try await withServer(batchSize: 0) { server, transport, pusher in
      // Checked before any push: a batch of 0 never moves past the first edit.
      guard pusher.batchSize == 1 else {
        Issue.record("a batch size of 0 should be held to 1, the least a push can carry; it is \(pusher.batchSize)")
        return
      }
      let results = try await pusher.push(Edits.chain(2))
      let sizes = transport.requests.map(\.pushedIDs.count)
      #expect(sizes == [1, 1], "2 edits in batches of 1 are 2 requests of 1 edit; the server got batches of \(sizes)")
      #expect(results.map(\.status) == [200, 200], "both edits should apply, got \(results.map(\.status))")
    }
  }

  @Test func aNetworkFailureBecomesTheSyncErrorThatSaysWhatToDoNext() {
    let cases: [(NetworkError, SyncError)] = [
      (.offline, .offline),
      (.timeout, .offline),
      (.transport(.networkConnectionLost), .offline),
      (.http(status: 503, body: Data()), .server(status: 503)),
      (.unauthorized, .server(status: 401)),
      (.decoding("no results"), .malformed("no results")),
      (.cancelled, .cancelled),
    ]
    for (network, expected) in cases {
      let mapped = SyncError(network)
      #expect(mapped == expected, "NetworkError.\(network) should be SyncError.\(expected); it became .\(mapped)")
    }
  }

  @Test func pushingNothingSendsNoRequest() async throws {
    try await withServer { _, transport, pusher in
      let results = try await pusher.push([])
      #expect(results.isEmpty, "no edits, no results")
      #expect(
        transport.requests.isEmpty,
        "an empty outbox has nothing to send (the server answers an empty batch with 400); sent \(transport.requests.count) requests")
    }
  }

  @Test func aLostReplyIsSentAgainWithTheSameIdsAndAppliedOnce() async throws {
    let service = SyncService()
    let transport = ScriptedSyncTransport(server: InProcessServer(service: service), script: [.replyLost])
    let clock = ManualClock()
    let policy = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(1), jitter: .none)
    let pusher = Pusher(transport: transport, baseURL: InProcessServer.baseURL, batchSize: 10, policy: policy, clock: clock, random: .constant(0.5))
    let edits = Edits.newNotes(3)
    let push = Task { () async throws(SyncError) -> [PushResult] in try await pusher.push(edits) }
    let waited = await clock.waitForSleepers(1)
    #expect(
      waited,
      "the server applied the batch and the answer was lost (the connection dropped): the push should wait on the clock to send it again, because every edit carries an id the server deduplicates on"
    )
    await clock.advance(by: .seconds(1))
    let results = try await push.value
    let attempts = transport.requests.map(\.httpBody)
    #expect(attempts.count == 2, "one lost answer is one retry: 2 requests, sent \(attempts.count)")
    #expect(
      attempts.count == 2 && attempts[0] == attempts[1],
      "a retry must send the very same batch, byte for byte: same ids, so the server can answer it from what it stored")
    #expect(
      service.appliedCount == 3,
      "the retry carries the same ids, so the server applies the 3 edits once; it applied \(service.appliedCount) (each edit twice means the ids changed between attempts)"
    )
    #expect(results.map(\.id) == edits.map(\.id), "the results are those of the edits the user made, with their ids")
    #expect(results.allSatisfy { $0.status == 200 }, "the server answers a replayed id with the result it stored, 200")
  }

  @Test func aServiceUnavailableIsRetriedOnTheClockAndLandsOnce() async throws {
    let clock = ManualClock()
    let policy = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(1), jitter: .none)
    try await withServer(policy: policy, clock: clock) { server, transport, pusher in
      server.chaos.only(pathPrefix: "/v1/sync/push")
      server.chaos.failNext(1, status: 503, retryAfter: 2)
      let edits = Edits.newNotes(2)
      let ended = Counter()
      let push = Task { () async throws(SyncError) -> [PushResult] in
        defer { ended.increment() }
        return try await pusher.push(edits)
      }
      // A push that ends without sleeping (it threw, or never retried) stops the wait at once.
      let waited = await clock.waitForSleepers(1, .threads, giveUp: { ended.value == 1 })
      #expect(waited, "a 503 is temporary: the push should wait on the clock and try again")
      #expect(clock.sleepHistory == [.seconds(2)], "the server asked for Retry-After: 2, so the wait is 2 s; waited \(clock.sleepHistory)")
      #expect(transport.requests.count == 1, "nothing is sent again before the wait is over; sent \(transport.requests.count)")
      await clock.advance(by: .seconds(2))
      let results = try await push.value
      #expect(transport.requests.count == 2, "one 503 then a success is 2 requests, sent \(transport.requests.count)")
      #expect(results.allSatisfy { $0.status == 200 }, "after the retry both edits apply")
      #expect(server.sync.appliedCount == 2, "a 503 applies nothing, so the retry applies each edit once; applied \(server.sync.appliedCount)")
    }
  }

  @Test func aServiceUnavailableThatOutlastsTheRetriesIsAServerError() async throws {
    try await withServer { server, transport, pusher in
      server.chaos.only(pathPrefix: "/v1/sync/push")
      server.chaos.failNext(3, status: 503, retryAfter: 0)
      let error = await failure { () async throws(SyncError) in try await pusher.push(Edits.newNotes(1)) }
      #expect(
        error == .server(status: 503),
        "a server still failing after every attempt is .server(status: 503), so the engine keeps the edit and tries later; got \(String(describing: error))"
      )
      #expect(transport.requests.count == 3, "the policy allows 3 attempts, sent \(transport.requests.count)")
      #expect(server.sync.appliedCount == 0, "a 503 applies nothing")
    }
  }

  @Test func aBadRequestIsNotRetriedAndReportsItsStatus() async throws {
    try await withServer { server, transport, pusher in
      server.chaos.only(pathPrefix: "/v1/sync/push")
      server.chaos.failNext(1, status: 400, retryAfter: nil)
      let error = await failure { () async throws(SyncError) in try await pusher.push(Edits.newNotes(1)) }
      #expect(
        transport.requests.count == 1,
        "a 400 says the request itself is wrong: sending it again cannot help, so 1 request; sent \(transport.requests.count)")
      #expect(error == .server(status: 400), "the push should fail with .server(status: 400), got \(String(describing: error))")
    }
  }

  @Test func noConnectionIsOffline() async throws {
    // Port 1 on loopback: no server listens there (a test's server gets an ephemeral port), so
    // every connection is refused. A stopped server's port could be taken by another test's server.
    let baseURL = URL(string: "http://127.0.0.1:1")!
    let pusher = Pusher(transport: URLSessionSyncTransport(), baseURL: baseURL, policy: Self.retriesAtOnce, clock: ManualClock(), random: .constant(0.5))
    let error = await failure { () async throws(SyncError) in try await pusher.push(Edits.newNotes(1)) }
    #expect(error == .offline, "a server nobody answers for is .offline (try when the network is back), got \(String(describing: error))")
    let notConnected = ScriptedSyncTransport(server: nil, afterScript: .fail(.notConnectedToInternet))
    let offline = Pusher(transport: notConnected, baseURL: baseURL, policy: Self.retriesAtOnce, clock: ManualClock(), random: .constant(0.5))
    let second = await failure { () async throws(SyncError) in try await offline.push(Edits.newNotes(1)) }
    #expect(second == .offline, "a device with no network is .offline, got \(String(describing: second))")
  }

  @Test func aStaleBaseComesBackAsAResultNotAnError() async throws {
    try await withServer { server, _, pusher in
      _ = try await pusher.push(Edits.chain(2, prefix: "first"))
      let stale = Mutation(id: "late", note: "n1", base: 1, set: ["body": "b"], editedAt: Edits.editedAt)
      let results = try await pusher.push([stale])
      #expect(
        results.map(\.status) == [412] && results.first?.record.version == 2,
        "an edit made on version 1 of a note now at 2 is the server's 412 with its record, for the engine to rebase; got \(results.map(\.status))"
      )
      #expect(server.sync.appliedCount == 2, "a 412 applies nothing")
    }
  }

  @Test func aReplyWithFewerResultsThanEditsIsMalformed() async throws {
    let edits = Edits.newNotes(2)
    let reply = PushReply(results: [PushResult(id: edits[0].id, status: 200, record: NoteRecord(id: "note-0", version: 1))])
    let transport = ScriptedSyncTransport(server: nil, afterScript: .answer(status: 200, body: try SyncJSON.encoder().encode(reply)))
    let pusher = Pusher(transport: transport, baseURL: InProcessServer.baseURL, policy: .never, clock: ManualClock(), random: .constant(0.5))
    let error = await failure { () async throws(SyncError) in try await pusher.push(edits) }
    guard case .malformed = error else {
      Issue.record(
        "2 edits sent and 1 result back: the second edit's fate is unknown, so the reply is .malformed (the edit stays in the outbox); got \(String(describing: error))"
      )
      return
    }
  }

  @Test func aReplyAboutOtherIdsIsMalformed() async throws {
    let edits = Edits.newNotes(2)
    let reply = PushReply(results: [
      PushResult(id: edits[1].id, status: 200, record: NoteRecord(id: "note-1", version: 1)),
      PushResult(id: edits[0].id, status: 200, record: NoteRecord(id: "note-0", version: 1)),
    ])
    let transport = ScriptedSyncTransport(server: nil, afterScript: .answer(status: 200, body: try SyncJSON.encoder().encode(reply)))
    let pusher = Pusher(transport: transport, baseURL: InProcessServer.baseURL, policy: .never, clock: ManualClock(), random: .constant(0.5))
    let error = await failure { () async throws(SyncError) in try await pusher.push(edits) }
    guard case .malformed = error else {
      Issue.record(
        "the results name the edits in another order than they were sent: a result is matched by its id, so the reply is .malformed; got \(String(describing: error))"
      )
      return
    }
  }

  @Test func aBatchThatFailsEndsThePushBeforeTheNextBatch() async throws {
    let service = SyncService()
    let refusal = Data(#"{"error":"refused"}"#.utf8)
    let transport = ScriptedSyncTransport(
      server: InProcessServer(service: service), script: [.deliver, .answer(status: 400, body: refusal)])
    let pusher = Pusher(
      transport: transport, baseURL: InProcessServer.baseURL, batchSize: 2, policy: Self.retriesAtOnce, clock: ManualClock(), random: .constant(0.5))
    let error = await failure { () async throws(SyncError) in try await pusher.push(Edits.chain(5)) }
    #expect(error == .server(status: 400), "the second batch's 400 ends the push, got \(String(describing: error))")
    #expect(
      transport.requests.count == 2,
      "the third batch builds on the second, which failed: it must not be sent (the edits stay in the outbox, in order); sent \(transport.requests.count) requests"
    )
    #expect(service.appliedCount == 2, "only the first batch of 2 reached the server, applied \(service.appliedCount)")
  }
}
