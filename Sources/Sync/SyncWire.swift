// Given: the sync endpoints' request and reply bodies. Nothing to write here.
import Foundation

/// The body of `POST /v1/sync/push`: at most `PushBody.maximumBatch` mutations.
public nonisolated struct PushBody: Codable, Equatable, Sendable {
  /// The most mutations the server takes in one push; one more is a 400.
  public static let maximumBatch = 100

  public var mutations: [Mutation]
  /// The change token the device last pulled (nil: it never pulled). A server that collects
  /// tombstones refuses a push whose token predates its horizon with 410 and applies nothing: the
  /// device may hold an edit of a note deleted and collected since, which would bring it back.
  public var since: String?

  public init(mutations: [Mutation], since: String? = nil) {
    self.mutations = mutations
    self.since = since
  }
}

/// The server's answer to one mutation of a push, in the order they were sent.
public nonisolated struct PushResult: Codable, Equatable, Sendable {
  /// The mutation's id.
  public var id: String
  /// 200 applied (or applied before: the stored answer), 412 the base is not the note's version
  /// (nothing applied), 410 the note is deleted, its tombstone held or collected (nothing
  /// applied); 400, 413 or 422 the edit is
  /// refused for good (nothing applied, and sending it again gets the same answer).
  public var status: Int
  /// The note as the server holds it after this mutation.
  public var record: NoteRecord
  /// Why the edit was refused for good, in the server's words; nil for every other status.
  public var reason: String?

  /// The statuses that refuse one edit for good: its result says so, and the rest of the batch
  /// is answered as usual.
  public static let refusedForGood: Set<Int> = [400, 413, 422]

  public init(id: String, status: Int, record: NoteRecord, reason: String? = nil) {
    self.id = id
    self.status = status
    self.record = record
    self.reason = reason
  }
}

/// The reply body of `POST /v1/sync/push`.
public nonisolated struct PushReply: Codable, Equatable, Sendable {
  public var results: [PushResult]

  public init(results: [PushResult]) { self.results = results }
}

/// One page of `GET /v1/sync/changes?since=&limit=`: every note changed after the token, each once
/// at its latest state (tombstones too), in the server's order.
public nonisolated struct ChangePage: Codable, Equatable, Sendable {
  public var changes: [NoteRecord]
  /// The token to send next time. Opaque: stored and sent back, never read.
  public var next: String
  /// Whether another page follows at once.
  public var more: Bool

  public init(changes: [NoteRecord], next: String, more: Bool) {
    self.changes = changes
    self.next = next
    self.more = more
  }
}

/// The JSON coders of the sync endpoints and files: dates as whole milliseconds since 1970, keys
/// sorted, so the same value is the same bytes on every run and reads back equal.
public nonisolated enum SyncJSON {
  public static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(milliseconds(date))
    }
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }

  public static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      date(milliseconds: try decoder.singleValueContainer().decode(Int64.self))
    }
    return decoder
  }

  /// `date` to the nearest millisecond since 1970.
  public static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded())
  }

  /// The date `milliseconds` after 1970: `Mutation` keeps its date this way, so it survives a
  /// round trip through JSON unchanged (seconds as a `Double` would not).
  public static func date(milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }
}
