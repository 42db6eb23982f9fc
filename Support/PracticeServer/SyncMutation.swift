import Foundation

/// One edit in a `POST /v1/sync/push` batch, read and checked before any edit of the batch is
/// applied. A batch that is malformed (not JSON of the right shape, 0 or more than 100 mutations,
/// a mutation id the server could not answer for, a negative base, a delete that sets fields, an
/// edit that does neither) is refused whole (400). An edit that breaks a per-edit limit (a value
/// over 4096 bytes or more than 32 fields: 413; a note id or a field name outside its alphabet or
/// length: 422) is refused alone, with its reason, and the rest of the batch is applied: one bad
/// edit must not hold back every edit queued behind it.
struct SyncMutation: Equatable {
  /// The operation id the server deduplicates on, minted once by the client for this edit.
  var id: String
  var note: String
  /// The server version the edit was made on (0: a note the client never saw on the server).
  var base: Int
  var set: [String: String]
  var delete: Bool

  /// Mutations in one batch.
  static let batchSize = 1...100
  /// Mutation ids and note ids, in characters of `[A-Za-z0-9-]`.
  static let idLength = 1...64
  static let maximumFields = 32
  /// Field names, in characters of `[A-Za-z0-9_]`.
  static let fieldNameLength = 1...64
  static let maximumValueBytes = 4_096

  /// Why a batch was refused: the message of its 400.
  struct Refusal: Error, Equatable {
    var message: String
  }

  /// One mutation of a batch as checked: an edit to run through the push rules, or one refused
  /// for good, which applies nothing and is answered with its status and reason.
  enum Checked: Equatable {
    case edit(SyncMutation)
    case refused(id: String, note: String, status: Int, reason: String)

    var id: String {
      switch self {
      case .edit(let mutation): mutation.id
      case .refused(let id, _, _, _): id
      }
    }
  }

  /// The batch in `body`, `{"mutations":[…]}`, each mutation checked, or why the batch is refused
  /// whole.
  /// `maximumValueBytes`: the server's cap on a value, the protocol's 4096 unless a test lowers it
  /// (a server that tightened a limit after an app shipped).
  /// Also returns the body's `since`, the change token the client last pulled (nil: none, or it
  /// never pulled), which the push is judged by against the tombstone horizon.
  static func batch(_ body: Data, maximumValueBytes: Int = maximumValueBytes) throws(Refusal) -> (mutations: [Checked], since: String?) {
    let wire: Body
    do {
      wire = try JSONDecoder().decode(Body.self, from: body)
    } catch {
      throw Refusal(message: "send {\"mutations\":[{\"id\",\"note\",\"base\",\"set\",\"delete\"}…]}: \(Self.describe(error))")
    }
    guard batchSize.contains(wire.mutations.count) else {
      throw Refusal(message: "a batch holds 1 to 100 mutations, got \(wire.mutations.count)")
    }
    var batch: [Checked] = []
    for (index, mutation) in wire.mutations.enumerated() {
      batch.append(try checked(mutation, at: "mutations[\(index)]", maximumValueBytes: maximumValueBytes))
    }
    return (batch, wire.since)
  }

  private struct Body: Decodable {
    var mutations: [Wire]
    var since: String?
  }

  /// A mutation as it arrives. `editedAt` is the device's clock, for display only: checked to be
  /// a number when present, never used.
  private struct Wire: Decodable {
    var id: String
    var note: String
    var base: Int
    var set: [String: String]?
    var delete: Bool?
    var editedAt: Double?
  }

  private static func checked(_ wire: Wire, at place: String, maximumValueBytes: Int) throws(Refusal) -> Checked {
    guard isID(wire.id) else { throw Refusal(message: "\(place).id must be 1 to 64 characters of A-Z a-z 0-9 -") }
    guard wire.base >= 0 else { throw Refusal(message: "\(place).base must be 0 or more, got \(wire.base)") }
    let set = wire.set ?? [:]
    let delete = wire.delete ?? false
    guard !(delete && !set.isEmpty) else { throw Refusal(message: "\(place) deletes the note and sets fields: send one or the other") }
    guard delete || !set.isEmpty else { throw Refusal(message: "\(place) neither sets a field nor deletes the note") }
    if let (status, reason) = brokenLimit(note: wire.note, set: set, maximumValueBytes: maximumValueBytes) {
      return .refused(id: wire.id, note: wire.note, status: status, reason: reason)
    }
    return .edit(SyncMutation(id: wire.id, note: wire.note, base: wire.base, set: set, delete: delete))
  }

  /// The per-edit limit this edit breaks, as the status and reason of its result; nil when it
  /// keeps them all.
  private static func brokenLimit(note: String, set: [String: String], maximumValueBytes: Int) -> (status: Int, reason: String)? {
    guard isID(note) else { return (422, "the note id must be 1 to 64 characters of A-Z a-z 0-9 -") }
    guard set.count <= maximumFields else { return (413, "the edit sets \(set.count) fields; at most \(maximumFields)") }
    for (name, value) in set.sorted(by: { $0.key < $1.key }) {
      guard fieldNameLength.contains(name.utf8.count), name.utf8.allSatisfy(isFieldNameByte) else {
        return (422, "a field name must be 1 to 64 characters of A-Z a-z 0-9 _")
      }
      guard value.utf8.count <= maximumValueBytes else {
        return (413, "the field \(name) is \(value.utf8.count) bytes of UTF-8; at most \(maximumValueBytes)")
      }
    }
    return nil
  }

  /// `[A-Za-z0-9-]`, 1 to 64 of them.
  private static func isID(_ text: String) -> Bool {
    idLength.contains(text.utf8.count) && text.utf8.allSatisfy(isIDByte)
  }

  private static func isIDByte(_ byte: UInt8) -> Bool {
    ASCII.isAlpha(byte) || ASCII.isDigit(byte) || byte == 0x2D
  }

  private static func isFieldNameByte(_ byte: UInt8) -> Bool {
    ASCII.isAlpha(byte) || ASCII.isDigit(byte) || byte == 0x5F
  }

  /// A decoding error in a line: where in the body, and what was wrong there.
  private static func describe(_ error: any Error) -> String {
    func path(_ context: DecodingError.Context) -> String {
      let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      return keys.isEmpty ? "the body" : String(keys.drop { $0 == "." })
    }
    switch error {
    case DecodingError.keyNotFound(let key, let context): return "\(path(context)) has no \"\(key.stringValue)\""
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      return "\(path(context)) has the wrong type: \(context.debugDescription)"
    case DecodingError.dataCorrupted(let context): return "\(path(context)) is not valid JSON: \(context.debugDescription)"
    default: return "not valid JSON"
    }
  }
}
