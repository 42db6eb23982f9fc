import Foundation
import Workbook

/// The sync routes of chapter 7, `/v1/sync/push` and `/v1/sync/changes`: a notes store that
/// takes batches of edits with optimistic concurrency and hands out every change since a token.
///
/// No authentication: one shared set of notes. `PracticeServer` routes `/v1/sync/` here after
/// its chaos knobs; tests may call `handle(_:)` directly, without sockets. Thread-safe: a push
/// batch is applied under one lock, so a page of changes never shows half a batch.
///
/// A batch at every limit at once (100 mutations × 32 fields × 4 KiB ≈ 13 MB) is larger than the
/// server's `Limits.maximumBodyBytes` (8 MiB): over HTTP it gets 413 before it reaches this code;
/// in-process it is taken.
public final class SyncService: Sendable {
  /// How many applied mutation ids are remembered for replays by default.
  public static let defaultRememberedMutations = 10_000
  /// Changes per page when `limit` is not given, and the range `limit` may take.
  static let defaultPageSize = 100
  static let pageSize = 1...500
  static let expiredToken = HTTPReply.error(410, "token expired: sync again from the beginning")

  private let state: Locked<SyncState>
  /// The most bytes of UTF-8 a field's value may hold; one more is a 413 for that edit.
  public let maximumValueBytes: Int

  /// `rememberedMutations`: how many of the most recently applied mutation ids keep their stored
  /// result (see `AppliedResults`). `maximumValueBytes`: the protocol's 4096 by default; a test
  /// lowers it to play a server that tightened its limit after the app shipped, which refuses
  /// edits the app's own check lets through.
  public init(rememberedMutations: Int = SyncService.defaultRememberedMutations, maximumValueBytes: Int = 4_096) {
    self.maximumValueBytes = maximumValueBytes
    let server = String(UInt64.random(in: 0...UInt64.max), radix: 36)
    state = Locked(SyncState(server: server, rememberedMutations: rememberedMutations))
  }

  /// Every note the server holds, tombstones included, by id.
  public var notes: [SyncedNote] {
    state.withLock { $0.notes.values.map(\.note) }.sorted { $0.id < $1.id }
  }

  /// How many mutations were applied: replays of an applied id, 410s and 412s do not count.
  public var appliedCount: Int { state.withLock { $0.appliedCount } }

  /// Whether the mutation with this id was applied (among the most recently applied
  /// `rememberedMutations`): a test's proof that an acknowledged edit reached the server.
  public func applied(_ mutationID: String) -> Bool {
    appliedRecord(mutationID) != nil
  }

  /// The note as the mutation with this id left it when it was applied; nil when it was not
  /// applied (or is older than the most recently applied `rememberedMutations`).
  public func appliedRecord(_ mutationID: String) -> SyncedNote? {
    state.withLock { $0.applied[mutationID]?.record }
  }

  /// Whether the mutation with this id was applied and created its note, the server holding no
  /// note by that id, not even a tombstone: a test's proof that an edit of a note whose tombstone
  /// was collected brought it back.
  public func created(_ mutationID: String) -> Bool {
    state.withLock { $0.applied[mutationID]?.created ?? false }
  }

  /// Every token issued so far gets 410 from now on; a client without a token (`since` absent)
  /// still syncs, and gets a token of the new epoch.
  public func expireTokens() {
    state.withLock { $0.epoch += 1 }
  }

  /// Collects every tombstone the server holds, as a server that keeps them only down to a horizon
  /// does: the feed no longer lists them, and from now on a change token older than the newest of
  /// them is refused by the feed and by the push (410), so a device that may have missed one of
  /// those deletes resyncs before its edits are taken. Returns the ids of the notes collected.
  @discardableResult
  public func collectTombstones() -> [String] {
    state.withLock { $0.collectTombstones() }
  }

  /// The token at the tombstone horizon: the oldest a push or a pull is still taken from (nil
  /// while no tombstone has been collected).
  public var horizon: String? {
    state.withLock { state in
      state.horizon > 0 ? SyncToken(server: state.server, epoch: state.epoch, sequence: state.horizon, horizon: state.horizon).text : nil
    }
  }

  /// Answers a request for a path under `/v1/sync/`.
  public func handle(_ request: HTTPRequest) -> HTTPReply {
    switch request.path {
    case "/v1/sync/push":
      guard request.method == "POST" else { return .error(405, "POST a batch of mutations", headers: [("Allow", "POST")]) }
      return push(request.body)
    case "/v1/sync/changes":
      guard request.method == "GET" || request.method == "HEAD" else {
        return .error(405, "GET the changes since a token", headers: [("Allow", "GET, HEAD")])
      }
      return changes(since: request.query["since"], limit: request.query["limit"])
    default:
      return .error(404, "no route for \(request.method) \(request.path); sync has /v1/sync/push and /v1/sync/changes")
    }
  }

  private func push(_ body: Data) -> HTTPReply {
    let batch: [SyncMutation.Checked]
    let since: String?
    do {
      (batch, since) = try SyncMutation.batch(body, maximumValueBytes: maximumValueBytes)
    } catch {
      return .error(400, error.message)
    }
    let outcomes: [SyncState.Outcome]? = state.withLock { state in
      // A push from before the tombstone horizon may carry an edit of a note deleted and
      // collected since: applied, it would bring the note back. Refused whole, nothing applied.
      guard state.acceptsPush(since: since) else { return nil }
      return batch.map { state.push($0) }
    }
    guard let outcomes else { return pastTheHorizon() }
    let results = zip(batch, outcomes).map { mutation, outcome in
      PushReply.Result(id: mutation.id, status: outcome.status, record: outcome.record, reason: outcome.reason)
    }
    return Self.reply(PushReply(results: results))
  }

  /// The answer to a push whose `since` predates the tombstone horizon: 410, nothing applied, with
  /// the horizon's token, so a client knows to resync from the beginning before it pushes again.
  private func pastTheHorizon() -> HTTPReply {
    .json(
      410,
      [
        "error": "the push's since predates the tombstone horizon: sync again from the beginning, then push",
        "horizon": horizon ?? "",
      ])
  }

  /// The body of a push's answer.
  private struct PushReply: Encodable {
    struct Result: Encodable {
      var id: String
      var status: Int
      var record: SyncedNote
      /// Why the edit was refused for good (413, 422); absent otherwise.
      var reason: String?
    }
    var results: [Result]
  }

  /// A page of changes.
  private struct ChangePage: Encodable {
    var changes: [SyncedNote]
    var next: String
    var more: Bool
  }

  /// A 200 with `body` as JSON, keys sorted as `HTTPReply.json` sorts them. The sync routes are
  /// called thousands of times a second by chapter 7's convergence test: a Codable encoder there
  /// costs a fraction of what `JSONSerialization` of a dictionary of `Any` costs.
  private static func reply(_ body: some Encodable) -> HTTPReply {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    guard let data = try? encoder.encode(body) else { return .error(500, "the reply could not be encoded") }
    return HTTPReply(status: 200, headers: [("Content-Type", "application/json")], body: data)
  }

  /// `since`: nil or empty for the beginning. An empty value is read as absent rather than as an
  /// unreadable token: a client that writes `since=` for "no token" would otherwise get 410,
  /// start again with `since=`, and loop.
  private func changes(since: String?, limit: String?) -> HTTPReply {
    var pageSize = Self.defaultPageSize
    if let limit {
      guard case .value(let value) = DecimalDigits.parse(limit), Self.pageSize.contains(value) else {
        return .error(400, "limit must be a whole number from 1 to 500")
      }
      pageSize = value
    }
    return state.withLock { state in
      var after = 0
      if let since, !since.isEmpty {
        guard let token = SyncToken(since), token.server == state.server, token.epoch == state.epoch, token.sequence <= state.sequence,
          state.holdsEveryDelete(since: token)
        else {
          return Self.expiredToken
        }
        after = token.sequence
      }
      let (page, more) = state.changes(after: after, limit: pageSize)
      let next = SyncToken(server: state.server, epoch: state.epoch, sequence: page.last?.sequence ?? after, horizon: state.horizon)
      return Self.reply(ChangePage(changes: page.map(\.note), next: next.text, more: more))
    }
  }
}
