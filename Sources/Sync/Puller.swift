// Exercise 3, part 2 — The change feed (intermediate)
//
// The server lists what changed after a token, a page at a time. Apply each page with the token
// after it, then ask again while the server says there is more. A token the server no longer
// knows (410) is not an error for the user: start again from the beginning into a new copy built
// beside the confirmed one, which the last page swaps in; until then the screen keeps every note
// it had, and a resync cut short carries on from its own token at the next pull. The outbox's
// unsent edits are the user's and stay.
import Foundation
import Networking
import Workbook

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Reads `GET /v1/sync/changes` into a `NoteStore`.
public nonisolated struct Puller: Sendable {
  public let transport: any SyncTransport
  /// The server's root, such as `http://127.0.0.1:8080`.
  public let baseURL: URL
  /// Changes per page, 1 to 500.
  public let pageSize: Int

  public init(transport: any SyncTransport, baseURL: URL, pageSize: Int = 100) {
    self.transport = transport
    self.baseURL = baseURL
    self.pageSize = min(max(pageSize, 1), 500)
  }

  /// Pulls every change after the store's token into the store, page by page; after a 410, once
  /// from the beginning, into a new copy the last page swaps in (a resync under way when the pull
  /// starts carries on from its own token). Returns how many pages were applied.
  @discardableResult
  public func pull(into store: NoteStore) async throws(SyncError) -> Int {
    // TODO: GET v1/sync/changes?limit=&since= until `more` is false; on 410 begin a resync once, and page it into the new copy.
    throw .malformed(NotImplemented("Puller.pull").description)
  }
}
