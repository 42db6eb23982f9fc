import Foundation
import PracticeServer
import Testing

/// The sync routes' seeded chaos: each fault does what it says in-process and over real sockets
/// (a lost request or reply closes the connection without a byte), the same seed makes the same
/// faults, held copies are bounded, and every value of the `sync_faults` knob is checked at its
/// limit and one past it.
@Suite("Practice server — sync chaos", .timeLimit(.minutes(1)))
struct SyncChaosTests {
  // MARK: In process

  @Test("each fault at 100 percent: what is applied and what the client gets")
  func eachFault() throws {
    // One remembered id: the second copy of a two-mutation batch no longer knows the first
    // mutation, so a request served twice answers differently from one served once.
    func served(_ rates: SyncChaos.Rates) -> (outcome: SyncChaos.Outcome, sync: SyncService, chaos: SyncChaos) {
      let sync = SyncService(rememberedMutations: 1)
      let chaos = SyncChaos(sync: sync)
      chaos.configure(seed: 3, rates: rates)
      return (chaos.serve(.push(#"{"mutations":[\#(Self.mutation("m1", note: "n1")),\#(Self.mutation("m2", note: "n2"))]}"#)), sync, chaos)
    }

    let delivered = served(SyncChaos.Rates())
    #expect(delivered.outcome.fault == .delivered && Self.statuses(delivered.outcome.reply) == [200, 200] && delivered.sync.appliedCount == 2)

    let requestLost = served(.init(requestLost: 100))
    #expect(requestLost.outcome.fault == .requestLost && requestLost.outcome.reply == nil, "a lost request has no reply")
    #expect(requestLost.sync.appliedCount == 0 && requestLost.sync.notes.isEmpty, "a lost request applies nothing")

    let replyLost = served(.init(replyLost: 100))
    #expect(replyLost.outcome.fault == .replyLost && replyLost.outcome.reply == nil, "a lost reply is not sent")
    #expect(replyLost.sync.applied("m2") && replyLost.sync.notes.map(\.id) == ["n1", "n2"], "a lost reply's batch was applied")

    let duplicated = served(.init(duplicated: 100))
    #expect(
      duplicated.outcome.fault == .duplicated && Self.statuses(duplicated.outcome.reply) == [412, 200],
      "the client reads the second answer: m1 is forgotten by then and meets its own change (412), m2 replays its 200; got \(Self.statuses(duplicated.outcome.reply))"
    )
    #expect(duplicated.sync.appliedCount == 2, "each mutation is still applied once")

    let failing = served(.init(serverError: 100))
    #expect(failing.outcome.fault == .serverError && failing.outcome.reply?.status == 503 && failing.sync.appliedCount == 0, "503, nothing applied")

    let held = served(.init(heldForLater: 100))
    #expect(held.outcome.fault == .heldForLater && Self.statuses(held.outcome.reply) == [200, 200] && held.chaos.heldCount == 1)
    held.chaos.faultsOn = false
    #expect(held.chaos.deliverOneHeld()?.path == "/v1/sync/push" && held.chaos.heldCount == 0 && held.chaos.deliverOneHeld() == nil)
  }

  @Test("a held copy is applied when it is delivered, against the notes as they are then")
  func heldCopyArrivesLater() throws {
    let sync = SyncService()
    let chaos = SyncChaos(sync: sync)
    chaos.configure(seed: 5, rates: .init(heldForLater: 100))
    // n1 does not exist yet: base 1 gets 412 now. Once n1 is at version 1, the late copy applies.
    let now = chaos.serve(.push(#"{"mutations":[\#(Self.mutation("late", note: "n1", base: 1))]}"#))
    #expect(Self.statuses(now.reply) == [412] && !sync.applied("late"))
    chaos.faultsOn = false
    _ = chaos.serve(.push(#"{"mutations":[\#(Self.mutation("first", note: "n1"))]}"#))
    #expect(chaos.deliverAllHeld() == 1 && sync.applied("late"), "the late copy arrives after the note reached version 1")
    #expect(sync.notes.first?.version == 2)
  }

  @Test("the same seed and rates give the same faults in the same order; another seed, others")
  func sameSeedSameFaults() {
    let rates = SyncChaos.Rates(requestLost: 10, replyLost: 10, duplicated: 10, serverError: 10, heldForLater: 10)
    func faults(seed: UInt64) -> [SyncChaos.Fault] {
      let chaos = SyncChaos(sync: SyncService(), maximumHeld: 1_000)
      chaos.configure(seed: seed, rates: rates)
      var seen = (0..<300).map { _ in chaos.serve(.changes).fault }
      // Delivering held copies draws from the same generator, and then the faults go on.
      chaos.deliverHeld(3)
      seen += (0..<50).map { _ in chaos.serve(.changes).fault }
      return seen
    }
    let first = faults(seed: 11)
    #expect(first == faults(seed: 11), "seed 11 twice should give the same faults")
    #expect(first != faults(seed: 12), "seed 12 should give other faults than seed 11")
    for fault in SyncChaos.Fault.allCases {
      let share = first.prefix(300).filter { $0 == fault }.count
      let expected = fault == .delivered ? 150 : 30
      #expect(abs(share - expected) < expected / 2, "\(fault): \(share) of 300 requests, about \(expected) expected")
    }
  }

  @Test("faults off: every request is served once and nothing is drawn; back on, the draws go on where they stopped")
  func faultsOff() {
    let rates = SyncChaos.Rates(requestLost: 20, replyLost: 20, duplicated: 20, serverError: 20)
    let chaos = SyncChaos(sync: SyncService())
    chaos.configure(seed: 9, rates: rates)
    let before = (0..<20).map { _ in chaos.serve(.changes).fault }
    chaos.faultsOn = false
    #expect((0..<50).allSatisfy { _ in chaos.serve(.changes).fault == .delivered } && chaos.settings == nil)
    chaos.faultsOn = true
    let after = (0..<20).map { _ in chaos.serve(.changes).fault }

    let straight = SyncChaos(sync: SyncService())
    straight.configure(seed: 9, rates: rates)
    #expect(before + after == (0..<40).map { _ in straight.serve(.changes).fault })
  }

  @Test("at most maximumHeld copies holding at most maximumHeldBytes are kept; one past either is served without a copy")
  func heldCopiesAreBounded() {
    let chaos = SyncChaos(sync: SyncService(), maximumHeld: 3, maximumHeldBytes: 100)
    chaos.configure(seed: 1, rates: .init(heldForLater: 100))
    let forty = HTTPRequest(method: "POST", path: "/v1/sync/push", body: Data(repeating: 0x20, count: 40))
    let twenty = HTTPRequest(method: "POST", path: "/v1/sync/push", body: Data(repeating: 0x20, count: 20))
    let one = HTTPRequest(method: "POST", path: "/v1/sync/push", body: Data(" ".utf8))
    #expect(chaos.serve(forty).fault == .heldForLater && chaos.serve(forty).fault == .heldForLater, "80 bytes held")
    #expect(chaos.serve(one.with(bytes: 21)).fault == .delivered && chaos.heldCount == 2, "101 bytes would be one past the bound")
    #expect(chaos.serve(twenty).fault == .heldForLater && chaos.heldCount == 3, "exactly 100 bytes, 3 copies: at both bounds")
    #expect(chaos.serve(HTTPRequest(method: "GET", path: "/v1/sync/changes")).fault == .delivered && chaos.heldCount == 3, "a fourth copy is one past")
    #expect(chaos.deliverHeld(1) == 1 && chaos.serve(twenty).fault == .heldForLater, "a delivered copy makes room for one of its size")
    #expect(chaos.deliverAllHeld() == 3 && chaos.heldCount == 0)
  }

  // MARK: Over HTTP

  @Test("over HTTP: a lost request and a lost reply close the connection without a byte; only the lost reply is applied")
  func droppedConnections() async throws {
    try await withServer { server in
      #expect(try await Self.knob(server, #"{"sync_faults":{"seed":1,"request_lost":100}}"#).status == 200)
      let requestLost = try await Self.raw(server, Self.post("/v1/sync/push", #"{"mutations":[\#(Self.mutation("lost", note: "n1"))]}"#))
      #expect(requestLost == [], "a lost request: the connection closes with nothing written, got \(String(decoding: requestLost, as: UTF8.self))")
      #expect(!server.sync.applied("lost") && server.sync.notes.isEmpty)

      #expect(try await Self.knob(server, #"{"sync_faults":{"seed":1,"reply_lost":100}}"#).status == 200)
      let replyLost = try await Self.raw(server, Self.post("/v1/sync/push", #"{"mutations":[\#(Self.mutation("applied", note: "n1"))]}"#))
      #expect(replyLost == [], "a lost reply: the connection closes with nothing written")
      #expect(server.sync.applied("applied"), "the lost reply's mutation was applied")

      #expect(try await Self.knob(server, #"{"sync_faults":null}"#).status == 200)
      let answered = try await Self.raw(server, get("/v1/sync/changes"))
      #expect(String(decoding: answered, as: UTF8.self).hasPrefix("HTTP/1.1 200 "), "faults off: answered again")
      await expectStillServing(server, after: "dropped connections")
      #expect(server.requestLog.map(\.path).filter { $0 == "/v1/sync/push" }.isEmpty, "dropped requests were never answered, so not in the log of answers")
    }
  }

  @Test("over HTTP: the knob's seed and rates give the faults SyncChaos draws in-process for them, only on /v1/sync/")
  func overHTTPAsInProcess() async throws {
    try await withServer { server in
      let knob = #"{"sync_faults":{"seed":42,"request_lost":15,"reply_lost":15,"duplicated":15,"server_error":15,"held_for_later":15}}"#
      let set = try await Self.knob(server, knob)
      #expect(
        set.status == 200
          && set.text.contains(#""sync_faults":{"duplicated":15,"held_for_later":15,"reply_lost":15,"request_lost":15,"seed":42,"server_error":15}"#),
        "\(set.text)")
      #expect(try await Self.raw(server, get("/health")).starts(with: Array("HTTP/1.1 200".utf8)), "other routes draw nothing")
      var seen: [String] = []
      for _ in 0..<40 {
        let bytes = try await Self.raw(server, get("/v1/sync/changes"))
        seen.append(bytes.isEmpty ? "dropped" : String(decoding: bytes.prefix(12).suffix(3), as: UTF8.self))
      }
      let replay = SyncChaos(sync: SyncService())
      replay.configure(seed: 42, rates: .init(requestLost: 15, replyLost: 15, duplicated: 15, serverError: 15, heldForLater: 15))
      let expected = (0..<40).map { _ -> String in
        switch replay.serve(.changes).fault {
        case .requestLost, .replyLost: "dropped"
        case .serverError: "503"
        case .delivered, .duplicated, .heldForLater: "200"
        }
      }
      #expect(seen == expected)
      #expect(Set(seen) == ["dropped", "503", "200"], "40 requests at these rates meet every kind of answer")
      let state = try await Self.knob(server, "{}")
      #expect(state.text.contains(#""held_copies":\#(replay.heldCount)"#), "the server holds as many copies as the replay: \(state.text)")
    }
  }

  @Test("over HTTP: deliver_held applies held copies; reset turns faults off and drops the copies")
  func deliverHeldOverHTTP() async throws {
    try await withServer { server in
      _ = try await Self.knob(server, #"{"sync_faults":{"seed":2,"held_for_later":100}}"#)
      let late = try await Self.raw(server, Self.post("/v1/sync/push", #"{"mutations":[\#(Self.mutation("late", note: "n1", base: 1))]}"#))
      #expect(String(decoding: late, as: UTF8.self).hasPrefix("HTTP/1.1 200 "), "a held request is answered now")
      let second = try await Self.raw(server, Self.post("/v1/sync/push", #"{"mutations":[\#(Self.mutation("first", note: "n1"))]}"#))
      #expect(String(decoding: second, as: UTF8.self).hasPrefix("HTTP/1.1 200 ") && !server.sync.applied("late"))
      let none = try await Self.knob(server, #"{"deliver_held":0}"#)
      #expect(none.text.contains(#""delivered_copies":0"#) && none.text.contains(#""held_copies":2"#), "\(none.text)")
      let delivered = try await Self.knob(server, #"{"deliver_held":5,"sync_faults":null}"#)
      #expect(
        delivered.text.contains(#""delivered_copies":2"#) && delivered.text.contains(#""held_copies":0"#) && delivered.text.contains(#""sync_faults":null"#),
        "\(delivered.text)")
      #expect(server.sync.applied("late"), "the late copy of base 1 applied once n1 existed")

      _ = try await Self.knob(server, #"{"sync_faults":{"held_for_later":100}}"#)
      _ = try await Self.raw(server, get("/v1/sync/changes"))
      let reset = try await Self.knob(server, #"{"reset":true}"#)
      #expect(reset.text.contains(#""held_copies":0"#) && reset.text.contains(#""sync_faults":null"#), "\(reset.text)")
      #expect(server.syncChaos.settings == nil && server.syncChaos.heldCount == 0)
    }
  }

  static let badKnobs: [(body: String, why: String)] = [
    (#"{"sync_faults":{"request_lost":101}}"#, "a rate is at most 100 percent"),
    (#"{"sync_faults":{"held_for_later":-1}}"#, "a rate is 0 or more"),
    (#"{"sync_faults":{"request_lost":60,"reply_lost":41}}"#, "the rates add up to 101"),
    (#"{"sync_faults":{"request_lost":20,"reply_lost":20,"duplicated":20,"server_error":20,"held_for_later":21}}"#, "five rates add up to 101"),
    (#"{"sync_faults":{"seed":-1}}"#, "a seed is 0 or more"),
    (#"{"sync_faults":{"seed":9223372036854775808}}"#, "a seed is at most 2^63-1"),
    (#"{"sync_faults":{"seed":1.5}}"#, "a seed is a whole number"),
    (#"{"sync_faults":{"seed":"7"}}"#, "a seed is a number, not a string"),
    (#"{"sync_faults":{"duplicated":true}}"#, "a rate is a number, not true"),
    (#"{"sync_faults":{"duplicated":12.5}}"#, "a rate is a whole percent"),
    (#"{"sync_faults":{"dropped":5}}"#, "an unknown rate is a typo to point out"),
    (#"{"sync_faults":[8,9]}"#, "sync_faults is an object"),
    (#"{"sync_faults":true}"#, "sync_faults is an object, not true"),
    (#"{"deliver_held":-1}"#, "a count is 0 or more"),
    (#"{"deliver_held":"all"}"#, "a count is a number"),
  ]

  @Test("every sync_faults value at its limit is taken, and one past it gets 400 saying which and why, and changes nothing")
  func knobLimits() async throws {
    try await withServer { server in
      let good = [
        #"{"sync_faults":{"request_lost":100}}"#, #"{"sync_faults":{"held_for_later":0}}"#, #"{"sync_faults":{"request_lost":60,"reply_lost":40}}"#,
        #"{"sync_faults":{"request_lost":20,"reply_lost":20,"duplicated":20,"server_error":20,"held_for_later":20}}"#,
        #"{"sync_faults":{"seed":0}}"#, #"{"sync_faults":{"seed":9223372036854775807}}"#, #"{"sync_faults":{}}"#, #"{"deliver_held":0}"#,
      ]
      for body in good {
        let answer = try await Self.knob(server, body)
        #expect(answer.status == 200, "\(body) is within every limit: 200, got \(answer.status) \(answer.text)")
      }
      let settled = try await Self.knob(server, #"{"sync_faults":{"seed":4,"duplicated":3}}"#)
      for (body, why) in Self.badKnobs {
        // Together with a valid knob, which must not be set either.
        let withValid = "{\"fail_next\":1," + body.dropFirst()
        for text in [body, withValid] {
          let answer = try await Self.knob(server, text)
          #expect(answer.status == 400, "POST /admin/chaos \(text) should get 400 (\(why)), got \(answer.status) \(answer.text)")
          let key = body.contains("deliver_held") ? "deliver_held" : "sync_faults"
          #expect(answer.text.contains(key), "the 400 names the knob: \(answer.text)")
        }
      }
      let after = try await Self.knob(server, "{}")
      #expect(after.text == settled.text, "no refused knob changed anything: \(after.text), before \(settled.text)")
      #expect(server.syncChaos.settings?.seed == 4 && server.syncChaos.settings?.rates == .init(duplicated: 3))
      let message = try await Self.knob(server, #"{"sync_faults":{"request_lost":60,"reply_lost":41}}"#)
      #expect(message.text.contains("101"), "the 400 says the sum: \(message.text)")
    }
  }

  // MARK: Helpers

  static func mutation(_ id: String, note: String, base: Int = 0) -> String {
    #"{"id":"\#(id)","note":"\#(note)","base":\#(base),"set":{"title":"t"},"delete":false,"editedAt":1800000000}"#
  }

  /// The statuses of a push's results, in order.
  static func statuses(_ reply: HTTPReply?) -> [Int] {
    guard let reply, let object = try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any],
      let results = object["results"] as? [[String: Any]]
    else { return [] }
    return results.compactMap { $0["status"] as? Int }
  }

  static func post(_ path: String, _ body: String) -> String {
    "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
  }

  /// `POST /admin/chaos` with `body`: the status and the answer's text.
  static func knob(_ server: PracticeServer, _ body: String) async throws -> (status: Int, text: String) {
    let result = try await exchange(server, post("/admin/chaos", body))
    return (result.response.status, result.response.text)
  }

  /// Every byte the server writes for one request on a fresh connection, up to its close.
  static func raw(_ server: PracticeServer, _ request: String) async throws -> [UInt8] {
    let port = server.port
    return try await onThread {
      let connection = try RawConnection(port: port)
      connection.send(request)
      guard let bytes = connection.everythingUntilClose() else { throw RawConnection.Failure.noResponse("still open at the safety net") }
      return bytes
    }
  }
}

extension HTTPRequest {
  fileprivate static func push(_ body: String) -> HTTPRequest {
    HTTPRequest(method: "POST", path: "/v1/sync/push", headers: ["content-type": "application/json"], body: Data(body.utf8))
  }

  fileprivate static let changes = HTTPRequest(method: "GET", path: "/v1/sync/changes")

  /// The same request with a body of `count` spaces.
  fileprivate func with(bytes count: Int) -> HTTPRequest {
    HTTPRequest(method: method, path: path, query: query, headers: headers, body: Data(repeating: 0x20, count: count))
  }
}
