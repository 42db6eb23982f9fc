// Exercise 6 — The engine (advanced)
//
// Put the parts together. An edit goes to the outbox first and to the screen after; a sync pushes
// the outbox, takes each answer (applied: the edit leaves the outbox and the server's note becomes
// the confirmed copy; 412: rebase and send again; 410: the note is gone, drop the edit; 400, 413,
// 422: refused for good, set aside with its reason where the user can see it, so one bad edit
// never holds back the rest), then pulls what other devices changed. A push refused because the
// device's token predates the server's tombstone horizon is answered with a resync before the
// next push: no edit may bring back a note whose delete the server no longer remembers. An edit that breaks a limit
// the protocol states is refused here, before it is queued. Everything the engine knows is on disk, so a crash anywhere
// loses nothing: a new engine on the same folder carries on where the old one stopped.
import Foundation
import Networking
import Workbook

/// A notes app's sync engine: the outbox, the confirmed copy, push and pull.
public actor SyncEngine {
  /// How many push rounds one sync makes at most: a round sends each note's oldest edit, so edits
  /// of one note take a round each, and a note another device keeps changing cannot hold the sync
  /// forever.
  public static let maximumPushRounds = 8

  private let outbox: Outbox
  private let store: NoteStore
  private let quarantine: Quarantine
  private let pusher: any MutationPushing
  private let puller: Puller
  private let now: @Sendable () -> Date

  /// Opens the engine whose state is in `directory` (`outbox.json`, `notes.json` and
  /// `refused.json`).
  ///
  /// - Parameters:
  ///   - policy: how a failed push is retried within one sync.
  ///   - clock: what the push waits on between retries (a test clock in tests).
  ///   - now: the device's clock, for `Mutation.editedAt` only.
  public init<C: Clock<Duration>>(
    directory: URL, transport: any SyncTransport, baseURL: URL, fileSystem: any FileSystem = RealFileSystem(),
    policy: RetryPolicy = .never, clock: C = ContinuousClock(), batchSize: Int = 50, pageSize: Int = 100,
    now: @escaping @Sendable () -> Date = Date.init
  ) throws(SyncError) {
    outbox = try Outbox(file: directory.appendingPathComponent("outbox.json"), fileSystem: fileSystem)
    store = try NoteStore(file: directory.appendingPathComponent("notes.json"), fileSystem: fileSystem)
    quarantine = try Quarantine(file: directory.appendingPathComponent("refused.json"), fileSystem: fileSystem)
    pusher = Pusher(transport: transport, baseURL: baseURL, batchSize: batchSize, policy: policy, clock: clock)
    puller = Puller(transport: transport, baseURL: baseURL, pageSize: pageSize)
    self.now = now
  }

  /// The notes the screen shows, by id: the confirmed copy with the unsent edits on top, deleted
  /// notes left out.
  public func notes() async -> [String: NoteRecord] {
    let records = await store.records
    let pending = Dictionary(grouping: await outbox.pending, by: \.note)
    var shown: [String: NoteRecord] = [:]
    for id in Set(records.keys).union(pending.keys) {
      shown[id] = Merge.overlay(records[id], pending[id] ?? [])
    }
    return shown
  }

  /// The edits not yet applied by the server, oldest first.
  public var pending: [Mutation] {
    get async { await outbox.pending }
  }

  /// The confirmed copy of every note, tombstones included.
  public var confirmed: [String: NoteRecord] {
    get async { await store.records }
  }

  /// The edits the server refused for good, oldest first, each with its status and reason: out of
  /// the outbox, so the rest syncs, and kept on disk until the user discards them.
  public var refused: [RefusedEdit] {
    get async { await quarantine.refused }
  }

  /// Forgets the refused edits with these ids (the user fixed or discarded them).
  public func discardRefused(ids: Set<String>) async throws(SyncError) {
    try await quarantine.remove(ids: ids)
  }

  /// Sets `fields` of note `id` (creating the note when it is new). Returns once the edit is in
  /// the outbox on disk; when that fails the edit is not made and the screen does not show it.
  /// An edit that breaks one of `EditLimits` throws `.invalidEdit` and is not made.
  public func edit(_ id: String, set fields: [String: String]) async throws(SyncError) {
    try EditLimits.check(note: id, set: fields, delete: false)
    let base = await store.records[id]?.version ?? 0
    try await outbox.append(Mutation(note: id, base: base, set: fields, editedAt: now()))
  }

  /// Deletes note `id`: it leaves the screen at once and the server at the next sync. An id that
  /// breaks `EditLimits` throws `.invalidEdit`.
  public func delete(_ id: String) async throws(SyncError) {
    try EditLimits.check(note: id, set: [:], delete: true)
    let base = await store.records[id]?.version ?? 0
    try await outbox.append(Mutation(note: id, base: base, delete: true, editedAt: now()))
  }

  /// Pushes the outbox, then pulls every change. A failure leaves every unanswered edit in the
  /// outbox and every applied page applied; the next sync carries on. An edit refused for good is
  /// not a failure: it moves to `refused` and the sync goes on without it. Nor is a push refused
  /// because the device's token predates the server's tombstone horizon: the engine resyncs, then
  /// pushes again. An unsent edit of a note deleted elsewhere whose tombstone the server collected
  /// goes out on the version it was made on, is answered 410 and dropped, as any edit of a note
  /// deleted elsewhere is (a delete wins): it never recreates the note.
  public func sync() async throws(SyncError) {
    do throws(SyncError) {
      try await push()
    } catch .tokenExpired {
      // The server collected tombstones this device may not have seen: an edit sent now could
      // bring back a note deleted elsewhere. The copy is made whole again first.
      try await resync()
      try await push()
    }
    try await puller.pull(into: store)
  }

  /// A resync from the beginning, or the one under way carried on.
  private func resync() async throws(SyncError) {
    if !(await store.isResyncing) { try await store.beginResync() }
    try await puller.pull(into: store)
  }

  private func push() async throws(SyncError) {
    for _ in 0..<Self.maximumPushRounds {
      let pending = await outbox.pending
      var seen = Set<String>()
      let round = pending.filter { seen.insert($0.note).inserted }
      guard !round.isEmpty else { return }
      for result in try await pusher.push(round, since: await store.token) {
        guard let sent = round.first(where: { $0.id == result.id }) else {
          throw .malformed("the push answered for mutation \(result.id), which was not sent")
        }
        try await settle(result, of: sent)
      }
    }
  }

  /// Acts on the server's answer to one mutation: the outbox and the confirmed copy change
  /// together, the outbox last, so a crash between them sends the edit again (answered from the
  /// server's store) instead of losing it. The outbox changes in one `update`, on its own copies:
  /// an edit made while the push was on its way may have compacted the one sent.
  private func settle(_ result: PushResult, of mutation: Mutation) async throws(SyncError) {
    try await store.apply([result.record])
    let record = result.record
    switch result.status {
    case 200:
      // Later edits of this note were made on top of this one: their base is its new version.
      try await outbox.update { pending in
        pending.compactMap { edit in
          if edit.id == mutation.id { return nil }
          guard edit.note == mutation.note, edit.base == mutation.base else { return edit }
          var moved = edit
          moved.base = record.version
          return moved
        }
      }
    case 412:
      try await outbox.update { pending in
        pending.compactMap { edit in edit.id == mutation.id ? Merge.rebase(edit, on: record) : edit }
      }
    case 410:
      try await outbox.remove(ids: [mutation.id])
    case let status where PushResult.refusedForGood.contains(status):
      // Kept before it leaves the outbox: a crash between the two sends it again, and the same
      // refusal finds it already kept.
      let reason = result.reason ?? "refused with status \(status)"
      try await quarantine.add(RefusedEdit(mutation: mutation, status: status, reason: reason))
      try await outbox.remove(ids: [mutation.id])
    default:
      throw .malformed("the push answered \(result.status) for mutation \(mutation.id)")
    }
  }
}

/// A `Pusher` on any clock: the engine holds one without naming its clock's type.
nonisolated protocol MutationPushing: Sendable {
  func push(_ mutations: [Mutation], since: String?) async throws(SyncError) -> [PushResult]
}

extension Pusher: MutationPushing {}
