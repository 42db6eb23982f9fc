/// Everything the sync routes keep: the notes, the change sequence, the results of applied
/// mutations, and the token epoch. A value: `SyncService` keeps it behind one lock and changes it
/// a whole batch at a time.
struct SyncState {
  /// A note and the sequence number of its latest change.
  struct Entry {
    var note: SyncedNote
    var sequence: Int
  }

  /// What a mutation's push answered: its status and the record that went with it.
  struct Outcome: Equatable {
    var status: Int
    var record: SyncedNote
    /// Why a mutation was refused for good; nil for every other status.
    var reason: String? = nil
    /// Whether the mutation, applied, created its note: the server held no note by that id.
    var created = false
  }

  var notes: [String: Entry] = [:]
  /// The sequence number of the latest change (0: none yet). Every applied mutation takes the
  /// next one, so a note's number says when it last changed relative to every other note.
  var sequence = 0
  /// Tokens of an earlier epoch are refused (410): `expireTokens()` moves it on.
  var epoch = 0
  /// The sequence number of the newest tombstone collected (0: none yet). A token before it, handed
  /// out before that collection, may have missed a delete the server no longer holds: the feed and
  /// the push refuse it (410).
  var horizon = 0
  /// Distinguishes this server's tokens from those of any other run (see `SyncToken`).
  let server: String
  /// How many mutations were applied (not replayed, not refused).
  var appliedCount = 0
  private(set) var applied: AppliedResults

  init(server: String, rememberedMutations: Int) {
    self.server = server
    applied = AppliedResults(capacity: rememberedMutations)
  }

  /// Answers one checked mutation: one refused for good applies nothing and is not remembered
  /// (it is refused again if sent again); an edit goes through the four rules of the push route.
  mutating func push(_ checked: SyncMutation.Checked) -> Outcome {
    switch checked {
    case .edit(let mutation):
      return push(mutation)
    case .refused(_, let note, let status, let reason):
      return Outcome(status: status, record: notes[note]?.note ?? SyncedNote(id: note), reason: reason)
    }
  }

  /// Runs one valid mutation through the four rules of the push route, in order.
  mutating func push(_ mutation: SyncMutation) -> Outcome {
    // 1. Already applied: the same answer as the first time, nothing applied again; unless the
    // note's tombstone has since been collected, when the stored answer would show it alive.
    if let stored = applied[mutation.id] {
      guard notes[stored.record.id] == nil else { return stored }
      return collected(stored.record.id)
    }
    // A note the server does not hold, edited on a version above 0, once tombstones have been
    // collected: it was deleted and its tombstone collected. Applied on version 0 it would come back.
    if notes[mutation.note] == nil, mutation.base > 0, horizon > 0 { return collected(mutation.note) }
    let held = notes[mutation.note]?.note
    let current = held ?? SyncedNote(id: mutation.note)
    // 2. Delete wins: no edit brings a tombstone back. Not stored, like a 412.
    if current.deleted { return Outcome(status: 410, record: current) }
    // 3. Made on another version: the client rebases and resends the same id.
    guard mutation.base == current.version else { return Outcome(status: 412, record: current) }
    // 4. Apply.
    var note = current
    // A note created after a collection starts past the horizon, above every version a collected
    // note had: a device holding the tombstone of one with the same id takes the new note as newer.
    if held == nil { note.version = horizon }
    if mutation.delete {
      note.deleted = true
      note.fields = [:]
    } else {
      note.fields.merge(mutation.set) { _, new in new }
    }
    note.version += 1
    sequence += 1
    notes[note.id] = Entry(note: note, sequence: sequence)
    appliedCount += 1
    let outcome = Outcome(status: 200, record: note, created: held == nil)
    applied.remember(mutation.id, outcome)
    return outcome
  }

  /// The answer for an edit of a note whose tombstone was collected: 410, as for a tombstone, with
  /// a tombstone at the horizon. The server no longer knows the delete's version; it lies between
  /// the edit's base and the horizon, and a note created by that id later starts past the horizon.
  func collected(_ note: String) -> Outcome {
    Outcome(status: 410, record: SyncedNote(id: note, version: horizon, deleted: true))
  }

  /// Collects every tombstone held: they leave the notes and the feed, and the horizon moves to
  /// the newest of them. Returns the ids of the notes collected.
  mutating func collectTombstones() -> [String] {
    let tombstones = notes.values.filter(\.note.deleted)
    for entry in tombstones { notes[entry.note.id] = nil }
    horizon = max(horizon, tombstones.map(\.sequence).max() ?? 0)
    return tombstones.map(\.note.id).sorted()
  }

  /// Whether `token` (a push's `since`) is one the server takes a push from: any, until a
  /// tombstone is collected; after that only one of this server at or past the horizon, whose
  /// device has seen every delete the server no longer holds. The epoch is not asked: forgetting
  /// the feed's tokens collects nothing.
  func acceptsPush(since token: String?) -> Bool {
    guard horizon > 0 else { return true }
    guard let token = token.flatMap(SyncToken.init), token.server == server, token.sequence <= sequence else { return false }
    return holdsEveryDelete(since: token)
  }

  /// Whether a device at `token` has learned of every delete whose tombstone was collected: the
  /// token is at or past the horizon, or it was handed out when the horizon was already where it
  /// is (a page of a listing the collection did not cut into, such as a resync from the beginning
  /// after it, whose tokens lie below the horizon until it reaches the newest notes).
  func holdsEveryDelete(since token: SyncToken) -> Bool {
    horizon <= max(token.sequence, token.horizon)
  }

  /// The notes changed after `sequence`, oldest change first, at most `limit`, and whether more
  /// follow. Each note appears once: its entry holds only its latest change.
  func changes(after sequence: Int, limit: Int) -> (notes: [Entry], more: Bool) {
    let changed = notes.values.filter { $0.sequence > sequence }.sorted { $0.sequence < $1.sequence }
    return (Array(changed.prefix(limit)), changed.count > limit)
  }
}

/// The results of the most recent `capacity` applied mutations, by mutation id. Older ones are
/// forgotten, oldest first: the store stays bounded however long the server runs. A client that
/// resends an edit older than that gets it judged again by its `base`: a 412 once the note has
/// moved on, so the server never applies it on its old base, but a client that rebases on that 412
/// sends it again and it is applied a second time. The window is what the protocol promises.
struct AppliedResults {
  let capacity: Int
  private var results: [String: SyncState.Outcome] = [:]
  /// Ids in the order they were remembered, a ring of `capacity` slots.
  private var order: [String] = []
  private var oldest = 0

  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  var count: Int { results.count }

  subscript(id: String) -> SyncState.Outcome? { results[id] }

  mutating func remember(_ id: String, _ outcome: SyncState.Outcome) {
    guard results.updateValue(outcome, forKey: id) == nil else { return }
    if order.count < capacity {
      order.append(id)
    } else {
      results[order[oldest]] = nil
      order[oldest] = id
      oldest = (oldest + 1) % capacity
    }
  }
}
