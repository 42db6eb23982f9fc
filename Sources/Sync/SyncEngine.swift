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
    // TODO: overlay each note's pending edits on its confirmed copy (placeholder: nothing shown).
    [:]
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
    // TODO: check the edit against `EditLimits`, then append a mutation made on the confirmed version to the outbox.
    throw .disk(NotImplemented("SyncEngine.edit").description)
  }

  /// Deletes note `id`: it leaves the screen at once and the server at the next sync. An id that
  /// breaks `EditLimits` throws `.invalidEdit`.
  public func delete(_ id: String) async throws(SyncError) {
    // TODO: check the id against `EditLimits`, then append a delete made on the confirmed version to the outbox.
    throw .disk(NotImplemented("SyncEngine.delete").description)
  }

  /// Pushes the outbox, then pulls every change. A failure leaves every unanswered edit in the
  /// outbox and every applied page applied; the next sync carries on. An edit refused for good is
  /// not a failure: it moves to `refused` and the sync goes on without it. Nor is a push refused
  /// because the device's token predates the server's tombstone horizon: the engine resyncs, then
  /// pushes again. An unsent edit of a note deleted elsewhere whose tombstone the server collected
  /// goes out on the version it was made on, is answered 410 and dropped, as any edit of a note
  /// deleted elsewhere is (a delete wins): it never recreates the note.
  public func sync() async throws(SyncError) {
    // TODO: push in rounds and settle each result (200, 412, 410, refused for good), then pull;
    // a push refused as past the tombstone horizon (`.tokenExpired`) resyncs before it pushes again.
    throw .malformed(NotImplemented("SyncEngine.sync").description)
  }
}

/// A `Pusher` on any clock: the engine holds one without naming its clock's type.
nonisolated protocol MutationPushing: Sendable {
  func push(_ mutations: [Mutation], since: String?) async throws(SyncError) -> [PushResult]
}

extension Pusher: MutationPushing {}
