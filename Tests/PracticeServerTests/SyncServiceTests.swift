import Foundation
import PracticeServer
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The sync routes of chapter 7: every limit at the limit and one past it, a refused batch that
/// applies nothing, replays, stale bases, tombstones, paging and expired tokens; in-process through
/// `SyncService.handle` and over real sockets through `URLSession`.
@Suite("Practice server — sync routes", .timeLimit(.minutes(1)))
struct SyncServiceTests {
  // MARK: Limits

  @Test("a batch holds 1 to 100 mutations: 100 are applied, 101 and 0 get 400 and apply nothing")
  func batchSize() throws {
    let sync = SyncService()
    let hundred = (0..<100).map { Edit(id: "m\($0)", note: "n\($0)", set: ["title": "t"]) }
    let accepted = try sync.push(hundred)
    #expect(accepted.status == 200 && sync.appliedCount == 100, "100 mutations is the largest batch, got \(accepted.status) \(accepted.text)")

    let before = sync.notes
    let tooMany = (0..<101).map { Edit(id: "x\($0)", note: "y\($0)", set: ["title": "t"]) }
    try expectRefused(sync.push(tooMany), by: sync, unchanged: before, "101 mutations")
    try expectRefused(sync.push([]), by: sync, unchanged: before, "an empty batch")
    #expect(sync.appliedCount == 100, "a refused batch applies nothing")
  }

  @Test("limit takes 1 to 500: 500 gives 500 changes, 501, 0 and anything but digits get 400")
  func pageLimit() throws {
    let sync = SyncService()
    for batch in 0..<6 {
      _ = try sync.push((0..<100).map { Edit(id: "m\(batch)-\($0)", note: "n\(batch)-\($0)", set: ["title": "t"]) })
    }
    let largest = try sync.changes(limit: "500")
    #expect(largest.page?.changes.count == 500 && largest.page?.more == true, "limit=500 of 600 changes: 500 and more, got \(largest.status)")
    let plain = try sync.changes()
    #expect(plain.page?.changes.count == 100 && plain.page?.more == true, "no limit means 100 a page, got \(plain.page?.changes.count ?? -1)")
    let smallest = try sync.changes(limit: "1")
    #expect(smallest.page?.changes.map(\.id) == ["n0-0"], "limit=1 gives the oldest change alone")
    for limit in ["501", "0", "abc", "-1", "+5", "5.0", "", "99999999999999999999999"] {
      let refused = try sync.changes(limit: limit)
      #expect(refused.status == 400 && refused.error != nil, "limit=\(limit) is outside 1…500: 400, got \(refused.status) \(refused.text)")
    }
  }

  @Test("mutation and note ids are 1 to 64 characters of A-Z a-z 0-9 -: a bad mutation id refuses the batch, a bad note id its edit (422)")
  func idLimits() throws {
    let sync = SyncService()
    let longest = String(repeating: "a", count: 63) + "-"
    let accepted = try sync.push([Edit(id: longest, note: longest, set: ["title": "t"])])
    #expect(accepted.status == 200 && sync.appliedCount == 1, "64-character ids are allowed, got \(accepted.status) \(accepted.text)")
    let before = sync.notes
    let tooLong = String(repeating: "b", count: 65)
    for (edit, what) in [
      (Edit(id: tooLong, note: "n1", set: ["title": "t"]), "a 65-character mutation id"),
      (Edit(id: "", note: "n1", set: ["title": "t"]), "an empty mutation id"),
      (Edit(id: "m_2", note: "n1", set: ["title": "t"]), "an underscore in a mutation id"),
    ] {
      try expectRefused(sync.push([Edit(id: "ok", note: "fine", set: ["title": "t"]), edit]), by: sync, unchanged: before, what)
    }
    for (note, what) in [
      (tooLong, "a 65-character note id"), ("", "an empty note id"), ("n/1", "a slash in a note id"), ("né", "a letter outside ASCII in a note id"),
    ] {
      try expectEditRefused(422, note: note, set: ["title": "t"], by: sync, what)
    }
  }

  @Test("a field value is at most 4096 bytes of UTF-8, counted in bytes, not characters: one more refuses that edit (413), not the batch")
  func valueLimit() throws {
    let sync = SyncService()
    let largest = String(repeating: "é", count: 2_048)  // 2 bytes each
    let accepted = try sync.push([Edit(id: "m1", note: "n1", set: ["body": largest])])
    #expect(accepted.status == 200 && sync.notes.first?.fields["body"] == largest, "4096 bytes is allowed, got \(accepted.status)")
    try expectEditRefused(413, note: "n2", set: ["body": largest + "x"], by: sync, "a value of 4097 bytes (2049 characters)")
  }

  @Test("at most 32 fields per mutation (413), names 1 to 64 characters of A-Z a-z 0-9 _ (422): a refused edit alone")
  func fieldLimits() throws {
    let sync = SyncService()
    let thirtyTwo = Dictionary(uniqueKeysWithValues: (0..<32).map { ("f_\($0)", "v") })
    let longName = String(repeating: "n", count: 64)
    let accepted = try sync.push([Edit(id: "m1", note: "n1", set: thirtyTwo), Edit(id: "m2", note: "n2", set: [longName: "v"])])
    #expect(accepted.status == 200 && sync.appliedCount == 2, "32 fields and a 64-character name are allowed, got \(accepted.status) \(accepted.text)")
    var thirtyThree = thirtyTwo
    thirtyThree["f_32"] = "v"
    for (status, set, what) in [
      (413, thirtyThree, "33 fields"), (422, [longName + "n": "v"], "a 65-character field name"), (422, ["": "v"], "an empty field name"),
      (422, ["a-b": "v"], "a hyphen in a field name"),
    ] {
      try expectEditRefused(status, note: "n4", set: set, by: sync, what)
    }
  }

  @Test("an edit refused for good is refused again when sent again: nothing of it is stored")
  func refusedEditIsNotRemembered() throws {
    let sync = SyncService()
    let tooLarge = String(repeating: "x", count: 4_097)
    for attempt in 1...2 {
      let reply = try sync.push([Edit(id: "m1", note: "n1", set: ["body": tooLarge])])
      #expect(reply.results?.map(\.status) == [413], "attempt \(attempt): the same refused edit gets 413 again, got \(reply.text)")
    }
    #expect(sync.appliedCount == 0 && sync.notes.isEmpty && !sync.applied("m1"), "a refused edit applies nothing and is not remembered as applied")
  }

  static let malformed: [(body: String, why: String)] = [
    (#"{"mutations":[{"id":"m1","note":"n1","base":0,"set":{"title":"t"}}"#, "JSON cut short"),
    ("", "an empty body"),
    ("mutations=1", "not JSON"),
    (#"[{"id":"m1","note":"n1","base":0,"set":{"title":"t"}}]"#, "an array instead of {\"mutations\":[…]}"),
    (#"{"mutations":{"id":"m1"}}"#, "mutations that are not an array"),
    (#"{"mutations":[{"note":"n1","base":0,"set":{"title":"t"}}]}"#, "a mutation without an id"),
    (#"{"mutations":[{"id":"m1","note":"n1","set":{"title":"t"}}]}"#, "a mutation without a base"),
    (#"{"mutations":[{"id":"m1","note":"n1","base":"0","set":{"title":"t"}}]}"#, "a base that is a string"),
    (#"{"mutations":[{"id":"m1","note":"n1","base":true,"set":{"title":"t"}}]}"#, "a base that is a boolean"),
    (#"{"mutations":[{"id":"m1","note":"n1","base":-1,"set":{"title":"t"}}]}"#, "a negative base"),
    (#"{"mutations":[{"id":"m1","note":"n1","base":0,"set":{"title":7}}]}"#, "a field value that is a number"),
    (#"{"mutations":[{"id":"m1","note":"n1","base":0,"set":{"title":"t"},"delete":"yes"}]}"#, "delete that is not a boolean"),
    (#"{"mutations":[{"id":"m1","note":"n1","base":0,"set":{"title":"t"},"delete":true}]}"#, "a delete that also sets a field"),
    (#"{"mutations":[{"id":"m1","note":"n1","base":0}]}"#, "neither a set nor a delete"),
    (#"{"mutations":[{"id":"m1","note":"n1","base":0,"set":{},"delete":false}]}"#, "an empty set and no delete"),
    (#"{"mutations":[{"id":"m1","note":"n1","base":0,"set":{"title":"t"},"editedAt":"noon"}]}"#, "editedAt that is not a number"),
  ]

  @Test("malformed or invalid batches get 400 with an error, and the first, valid mutation is not applied either")
  func malformedBatches() throws {
    let sync = SyncService()
    _ = try sync.push([Edit(id: "seed", note: "n0", set: ["title": "before"])])
    let before = sync.notes
    let valid = #"{"id":"v1","note":"n0","base":1,"set":{"title":"after"}},"#
    for (body, why) in Self.malformed {
      // Where the body is a batch, put a valid mutation in front of the bad one.
      let withValid = body.hasPrefix(#"{"mutations":[{"#) ? body.replacingOccurrences(of: #"{"mutations":["#, with: #"{"mutations":["# + valid) : body
      for text in Set([body, withValid]) {
        expectRefused(sync.reply(.push(Data(text.utf8))), by: sync, unchanged: before, "\(why): \(text)")
      }
    }
    #expect(sync.appliedCount == 1, "only the seeding mutation was ever applied, got \(sync.appliedCount)")
  }

  // MARK: The four rules of a push

  @Test("a mutation id already applied gets its first result again, and nothing is applied twice")
  func replayedMutation() throws {
    let sync = SyncService()
    let first = try sync.push([Edit(id: "m1", note: "n1", set: ["title": "one"])])
    let firstResult = try #require(first.results?.first)
    #expect(firstResult == PushResult(id: "m1", status: 200, record: Record(id: "n1", version: 1, fields: ["title": "one"])))
    _ = try sync.push([Edit(id: "m2", note: "n1", base: 1, set: ["title": "two"])])

    // The same id again, even with other content and a base that no longer matches: the stored answer.
    let replay = try sync.push([Edit(id: "m1", note: "n1", base: 0, set: ["title": "three"]), Edit(id: "m1", note: "n1", base: 2, set: ["title": "four"])])
    #expect(replay.results == [firstResult, firstResult], "a replay answers exactly what the first push did, got \(replay.text)")
    #expect(sync.appliedCount == 2, "replays apply nothing: 2 applied mutations, got \(sync.appliedCount)")
    #expect(sync.notes == [SyncedNote(id: "n1", version: 2, fields: ["title": "two"])], "the note is as m2 left it")

    // Within one batch: the second copy of a new id is a replay of the first.
    let twice = try sync.push([Edit(id: "m3", note: "n1", base: 2, set: ["body": "b"]), Edit(id: "m3", note: "n1", base: 2, set: ["body": "b"])])
    #expect(twice.results?.map(\.status) == [200, 200] && twice.results?[0] == twice.results?[1] && sync.appliedCount == 3)
  }

  @Test("a stale base gets 412 with the current record and is not stored; the same id with the new base applies")
  func staleBase() throws {
    let sync = SyncService()
    _ = try sync.push([Edit(id: "m1", note: "n1", set: ["title": "one", "color": "red"])])
    _ = try sync.push([Edit(id: "m2", note: "n1", base: 1, set: ["title": "two"])])
    let current = Record(id: "n1", version: 2, fields: ["title": "two", "color": "red"])

    let stale = try sync.push([Edit(id: "m3", note: "n1", base: 1, set: ["body": "mine"])])
    #expect(stale.status == 200 && stale.results == [PushResult(id: "m3", status: 412, record: current)], "got \(stale.text)")
    #expect(sync.appliedCount == 2, "a 412 applies nothing")

    let rebased = try sync.push([Edit(id: "m3", note: "n1", base: 2, set: ["body": "mine"])])
    let merged = Record(id: "n1", version: 3, fields: ["title": "two", "color": "red", "body": "mine"])
    #expect(
      rebased.results == [PushResult(id: "m3", status: 200, record: merged)],
      "a 412 is not stored, so the same id with the new base applies, merged over the fields it does not set: got \(rebased.text)")

    let missing = try sync.push([Edit(id: "m4", note: "n9", base: 3, set: ["title": "x"])])
    #expect(
      missing.results == [PushResult(id: "m4", status: 412, record: Record(id: "n9", version: 0, fields: [:]))],
      "a note that does not exist is at version 0: got \(missing.text)")
    #expect(sync.notes.map(\.id) == ["n1"], "a 412 creates nothing")
  }

  @Test("a delete leaves a tombstone; any later edit of it gets 410 with the tombstone and is not stored")
  func tombstone() throws {
    let sync = SyncService()
    _ = try sync.push([Edit(id: "m1", note: "n1", set: ["title": "one"])])
    let deleted = try sync.push([Edit(id: "m2", note: "n1", base: 1, delete: true)])
    let tombstone = Record(id: "n1", version: 2, deleted: true, fields: [:])
    #expect(deleted.results == [PushResult(id: "m2", status: 200, record: tombstone)], "a delete empties the fields and bumps the version: \(deleted.text)")

    let edit = try sync.push([Edit(id: "m3", note: "n1", base: 2, set: ["title": "back"]), Edit(id: "m4", note: "n1", base: 1, delete: true)])
    #expect(
      edit.results == [PushResult(id: "m3", status: 410, record: tombstone), PushResult(id: "m4", status: 410, record: tombstone)],
      "delete wins over any edit, whatever its base: got \(edit.text)")
    #expect(sync.appliedCount == 2 && sync.notes == [SyncedNote(id: "n1", version: 2, deleted: true)])
    let again = try sync.push([Edit(id: "m3", note: "n1", base: 2, set: ["title": "back"])])
    #expect(again.results?.first?.status == 410, "a 410 is not stored: the id is judged again, and the note is still deleted")
  }

  @Test("the store of applied ids keeps the most recent 10 000: an older id is judged again by its base, and the server does not apply it on that old base")
  func appliedIDsAreBounded() throws {
    let sync = SyncService()
    #expect(SyncService.defaultRememberedMutations == 10_000)
    for batch in 0..<100 {
      _ = try sync.push((0..<100).map { Edit(id: "m\(batch * 100 + $0)", note: "n\(batch * 100 + $0)", set: ["title": "t"]) })
    }
    let remembered = try sync.push([Edit(id: "m0", note: "n0", set: ["title": "t"])])
    #expect(remembered.results?.first?.status == 200, "10 000 applied ids are all remembered: m0 replays its 200")
    _ = try sync.push([Edit(id: "m10000", note: "n10000", set: ["title": "t"])])
    let forgotten = try sync.push([Edit(id: "m0", note: "n0", set: ["title": "t"]), Edit(id: "m1", note: "n1", set: ["title": "t"])])
    #expect(
      forgotten.results?.map(\.status) == [412, 200],
      "the 10 001st applied id pushes out the oldest: m0 meets its note at version 1 (412), m1 is still remembered, got \(forgotten.results?.map(\.status) ?? [])"
    )
    #expect(sync.appliedCount == 10_001, "nothing was applied twice")
  }

  // MARK: Changes

  @Test("changes come once per note, at its latest state, in change order, a page at a time with more")
  func changesPaging() throws {
    let sync = SyncService()
    _ = try sync.push(["a", "b", "c", "d", "e"].map { Edit(id: "m-\($0)", note: $0, set: ["title": $0]) })
    _ = try sync.push([Edit(id: "m-a2", note: "a", base: 1, set: ["title": "a2"])])
    _ = try sync.push([Edit(id: "m-c2", note: "c", base: 1, delete: true)])

    var pages: [[Record]] = []
    var mores: [Bool] = []
    var token: String?
    repeat {
      let reply = try sync.changes(since: token, limit: "2")
      let page = try #require(reply.page, "changes should answer 200 with a page, got \(reply.status) \(reply.text)")
      pages.append(page.changes)
      mores.append(page.more)
      token = page.next
    } while mores.last == true && pages.count < 10
    #expect(pages.map { $0.map(\.id) } == [["b", "d"], ["e", "a"], ["c"]], "latest change last: b, d, e, then a (edited), c (deleted)")
    #expect(mores == [true, true, false])
    #expect(pages.joined().first { $0.id == "a" } == Record(id: "a", version: 2, fields: ["title": "a2"]), "a appears once, at version 2")
    #expect(pages.joined().first { $0.id == "c" } == Record(id: "c", version: 2, deleted: true, fields: [:]), "tombstones are changes too")

    let caughtUp = try #require(try sync.changes(since: token).page)
    #expect(caughtUp.changes.isEmpty && !caughtUp.more && caughtUp.next == token, "nothing new: an empty page and the same token")
    _ = try sync.push([Edit(id: "m-b2", note: "b", base: 1, set: ["body": "x"])])
    let later = try #require(try sync.changes(since: token).page)
    #expect(later.changes == [Record(id: "b", version: 2, fields: ["title": "b", "body": "x"])] && !later.more, "only what changed since the token")
  }

  @Test("expireTokens(): every token issued so far gets 410, and a sync from no token works after it")
  func expiredTokens() throws {
    let sync = SyncService()
    _ = try sync.push([Edit(id: "m1", note: "n1", set: ["title": "t"])])
    let old = try #require(try sync.changes().page?.next)
    #expect(try sync.changes(since: old).status == 200)
    sync.expireTokens()
    let expired = try sync.changes(since: old)
    #expect(expired.status == 410 && expired.error == "token expired: sync again from the beginning", "got \(expired.status) \(expired.text)")
    let fresh = try #require(try sync.changes().page, "no token still works after expiry")
    #expect(fresh.changes.map(\.id) == ["n1"] && fresh.next != old)
    #expect(try sync.changes(since: fresh.next).status == 200, "a token of the new epoch works")
  }

  @Test("a token the server did not write gets 410; an empty since means from the beginning")
  func unreadableTokens() throws {
    let sync = SyncService()
    _ = try sync.push([Edit(id: "m1", note: "n1", set: ["title": "t"])])
    let token = try #require(try sync.changes().page?.next)
    let other = try #require(try SyncService().changes().page?.next)
    let forged = [
      "garbage", "e0.s1", other, token + "0", token.replacingOccurrences(of: ".s1", with: ".s2"), token.replacingOccurrences(of: ".s1", with: ".s01"),
      token.replacingOccurrences(of: ".s1", with: ".s-1"),
    ]
    for since in forged {
      let reply = try sync.changes(since: since)
      #expect(reply.status == 410, "since=\(since) (the real one is \(token)) should get 410, got \(reply.status) \(reply.text)")
    }
    let empty = try sync.changes(since: "")
    #expect(empty.page?.changes.map(\.id) == ["n1"], "since= with no value reads as no token, got \(empty.status)")
  }

  @Test("a wrong method gets 405 with Allow; another path under /v1/sync/ gets 404")
  func methods() throws {
    let sync = SyncService()
    for (method, path, allow) in [("GET", "/v1/sync/push", "POST"), ("PUT", "/v1/sync/push", "POST"), ("POST", "/v1/sync/changes", "GET, HEAD")] {
      let reply = sync.handle(HTTPRequest(method: method, path: path))
      #expect(reply.status == 405 && reply.headers.contains { $0 == ("Allow", allow) }, "\(method) \(path): 405 with Allow: \(allow), got \(reply.status)")
    }
    #expect(sync.handle(HTTPRequest(method: "GET", path: "/v1/sync/other")).status == 404)
  }

  // MARK: Over HTTP

  @Test("over HTTP: push, then changes, with keys sorted; a malformed batch gets 400 and applies nothing")
  func overHTTP() async throws {
    try await withServer { server in
      let body = try Edit.body([Edit(id: "m1", note: "n1", set: ["title": "hello", "zeta": "kept"])])
      let (pushed, pushData) = try await send(server, "POST", "/v1/sync/push", body: body)
      let record = #"{"deleted":false,"fields":{"title":"hello","zeta":"kept"},"id":"n1","version":1}"#
      #expect(pushed.statusCode == 200 && pushed.value(forHTTPHeaderField: "Content-Type") == "application/json")
      #expect(String(decoding: pushData, as: UTF8.self) == #"{"results":[{"id":"m1","record":"# + record + #","status":200}]}"#)

      let (listed, listData) = try await send(server, "GET", "/v1/sync/changes?limit=10")
      let page = try JSONDecoder().decode(ChangePage.self, from: listData)
      #expect(listed.statusCode == 200 && page.changes == [Record(id: "n1", version: 1, fields: ["title": "hello", "zeta": "kept"])] && !page.more)
      let (_, caughtUp) = try await send(server, "GET", "/v1/sync/changes?since=\(page.next)")
      #expect(try JSONDecoder().decode(ChangePage.self, from: caughtUp).changes.isEmpty)

      let (refused, _) = try await send(
        server, "POST", "/v1/sync/push", body: Data(#"{"mutations":[{"id":"m2","note":"n1","base":1,"set":{"title":"x"}},{"#.utf8))
      #expect(refused.statusCode == 400 && server.sync.appliedCount == 1 && server.sync.notes.first?.fields["title"] == "hello")

      let (wrong, _) = try await send(server, "GET", "/v1/sync/push")
      #expect(wrong.statusCode == 405 && wrong.value(forHTTPHeaderField: "Allow") == "POST")
    }
  }

  @Test("over HTTP: chaos applies to sync paths, and POST /admin/chaos {\"expire_sync_tokens\":true} expires tokens")
  func chaosKnobs() async throws {
    try await withServer { server in
      let (_, first) = try await send(server, "GET", "/v1/sync/changes")
      let token = try JSONDecoder().decode(ChangePage.self, from: first).next

      _ = try await send(server, "POST", "/admin/chaos", body: Data(#"{"fail_next":1,"status":503}"#.utf8))
      let (failed, _) = try await send(server, "GET", "/v1/sync/changes?since=\(token)")
      #expect(failed.statusCode == 503, "fail_next reaches the sync routes, got \(failed.statusCode)")

      let (badKnob, _) = try await send(server, "POST", "/admin/chaos", body: Data(#"{"expire_sync_tokens":1}"#.utf8))
      #expect(badKnob.statusCode == 400, "a flag is true or false")
      let (stillGood, _) = try await send(server, "GET", "/v1/sync/changes?since=\(token)")
      #expect(stillGood.statusCode == 200, "a refused knob expires nothing")

      let (set, _) = try await send(server, "POST", "/admin/chaos", body: Data(#"{"expire_sync_tokens":true}"#.utf8))
      let (expired, expiredData) = try await send(server, "GET", "/v1/sync/changes?since=\(token)")
      #expect(set.statusCode == 200 && expired.statusCode == 410, "got \(set.statusCode), then \(expired.statusCode)")
      #expect(String(decoding: expiredData, as: UTF8.self) == #"{"error":"token expired: sync again from the beginning"}"#)
      let (fresh, _) = try await send(server, "GET", "/v1/sync/changes")
      #expect(fresh.statusCode == 200, "no token still works")
    }
  }

  private func send(_ server: PracticeServer, _ method: String, _ path: String, body: Data? = nil) async throws -> (HTTPURLResponse, Data) {
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    var request = URLRequest(url: try #require(URL(string: server.baseURL.absoluteString + path)))
    request.httpMethod = method
    request.httpBody = body
    if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
    let (data, response) = try await session.data(for: request)
    return (try #require(response as? HTTPURLResponse), data)
  }

  /// Pushes a valid edit, the edit `set` of `note` that breaks a limit, and another valid edit of
  /// a note the bad one does not touch: the bad one is answered with `status` and a reason and
  /// applies nothing, both valid ones are applied.
  private func expectEditRefused(
    _ status: Int, note: String, set: [String: String], by sync: SyncService, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let before = sync.notes
    let applied = sync.appliedCount
    let first = "v\(applied)a"
    let last = "v\(applied)b"
    let reply = try sync.push([
      Edit(id: "\(first)-m", note: first, set: ["title": "t"]), Edit(id: "bad\(applied)", note: note, set: set),
      Edit(id: "\(last)-m", note: last, set: ["title": "t"]),
    ])
    #expect(
      reply.status == 200, "\(what): one bad edit refuses that edit, not the batch: 200 with a result each, got \(reply.status) \(reply.text)",
      sourceLocation: sourceLocation)
    let results = reply.results ?? []
    #expect(results.map(\.status) == [200, status, 200], "\(what): results 200, \(status), 200, got \(results.map(\.status))", sourceLocation: sourceLocation)
    #expect(
      results.count == 3 && results[1].reason?.isEmpty == false, "\(what): a refused edit's result says why (reason), got \(reply.text)",
      sourceLocation: sourceLocation)
    let kept = sync.notes.filter { $0.id != first && $0.id != last } == before && sync.appliedCount == applied + 2
    #expect(kept, "\(what): the refused edit applies nothing; the two valid ones are applied", sourceLocation: sourceLocation)
  }

  private func expectRefused(
    _ reply: SyncReply, by sync: SyncService, unchanged before: [SyncedNote], _ what: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(reply.status == 400 && reply.error != nil, "\(what): 400 with an error, got \(reply.status) \(reply.text)", sourceLocation: sourceLocation)
    // Compared outside #expect, which would print every note on a failure.
    let unchanged = sync.notes == before
    #expect(unchanged, "\(what): a refused batch applies none of its mutations", sourceLocation: sourceLocation)
  }
}

// MARK: - Wire helpers

/// One mutation to push, written as the client module will write it.
private struct Edit: Encodable {
  var id: String
  var note: String
  var base = 0
  var set: [String: String] = [:]
  var delete = false
  var editedAt = 1_700_000_000.0

  static func body(_ edits: [Edit]) throws -> Data {
    try JSONEncoder().encode(["mutations": edits])
  }
}

private struct Record: Decodable, Equatable {
  var id: String
  var version: Int
  var deleted = false
  var fields: [String: String]

  init(id: String, version: Int, deleted: Bool = false, fields: [String: String]) {
    self.id = id
    self.version = version
    self.deleted = deleted
    self.fields = fields
  }
}

private struct PushResult: Decodable, Equatable {
  var id: String
  var status: Int
  var record: Record
  var reason: String? = nil
}

private struct ChangePage: Decodable {
  var changes: [Record]
  var next: String
  var more: Bool
}

/// A reply from `SyncService.handle`, read as whichever shape it has.
private struct SyncReply {
  var status: Int
  var body: Data

  var text: String { String(decoding: body, as: UTF8.self) }
  var results: [PushResult]? { try? JSONDecoder().decode([String: [PushResult]].self, from: body)["results"] }
  var page: ChangePage? { status == 200 ? try? JSONDecoder().decode(ChangePage.self, from: body) : nil }
  var error: String? { (try? JSONDecoder().decode([String: String].self, from: body))?["error"] }
}

extension HTTPRequest {
  fileprivate static func push(_ body: Data) -> HTTPRequest {
    HTTPRequest(method: "POST", path: "/v1/sync/push", headers: ["Content-Type": "application/json"], body: body)
  }
}

extension SyncService {
  fileprivate func reply(_ request: HTTPRequest) -> SyncReply {
    let reply = handle(request)
    return SyncReply(status: reply.status, body: reply.body)
  }

  fileprivate func push(_ edits: [Edit]) throws -> SyncReply {
    reply(.push(try Edit.body(edits)))
  }

  fileprivate func changes(since: String? = nil, limit: String? = nil) throws -> SyncReply {
    var query: [String: String] = [:]
    query["since"] = since
    query["limit"] = limit
    return reply(HTTPRequest(method: "GET", path: "/v1/sync/changes", query: query))
  }
}
