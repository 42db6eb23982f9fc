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
  }

  var notes: [String: Entry] = [:]
  /// The sequence number of the latest change (0: none yet). Every applied mutation takes the
  /// next one, so a note's number says when it last changed relative to every other note.
  var sequence = 0
  /// Tokens of an earlier epoch are refused (410): `expireTokens()` moves it on.
  var epoch = 0
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
    // 1. Already applied: the same answer as the first time, nothing applied again.
    if let stored = applied[mutation.id] { return stored }
    let current = notes[mutation.note]?.note ?? SyncedNote(id: mutation.note)
    // 2. Delete wins: no edit brings a tombstone back. Not stored, like a 412.
    if current.deleted { return Outcome(status: 410, record: current) }
    // 3. Made on another version: the client rebases and resends the same id.
    guard mutation.base == current.version else { return Outcome(status: 412, record: current) }
    // 4. Apply.
    var note = current
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
    let outcome = Outcome(status: 200, record: note)
    applied.remember(mutation.id, outcome)
    return outcome
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
