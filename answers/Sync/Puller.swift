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
    var pages = 0
    var restarted = false
    while true {
      let resyncing = await store.isResyncing
      let page: ChangePage
      do throws(SyncError) {
        page = try await fetch(since: resyncing ? await store.resyncToken : await store.token)
      } catch .tokenExpired where !restarted {
        restarted = true
        try await store.beginResync()
        continue
      }
      if resyncing {
        try await store.applyResyncPage(page.changes, token: page.next, last: !page.more)
      } else {
        try await store.apply(page.changes, token: page.next)
      }
      pages += 1
      if !page.more { return pages }
    }
  }

  private func fetch(since token: String?) async throws(SyncError) -> ChangePage {
    var components = URLComponents(url: baseURL.appendingPathComponent("v1/sync/changes"), resolvingAgainstBaseURL: false)!
    components.queryItems = [URLQueryItem(name: "limit", value: String(pageSize))] + (token.map { [URLQueryItem(name: "since", value: $0)] } ?? [])
    guard let url = components.url else { throw .malformed("no URL for the token \(token ?? "")") }
    let data: Data
    let response: HTTPURLResponse
    do {
      (data, response) = try await transport.send(URLRequest(url: url))
    } catch {
      throw SyncError(NetworkError(mapping: error))
    }
    if response.statusCode == 410 { throw .tokenExpired }
    guard (200..<300).contains(response.statusCode) else { throw .server(status: response.statusCode) }
    do {
      return try SyncJSON.decoder().decode(ChangePage.self, from: data)
    } catch {
      throw .malformed("a page of changes did not decode: \(error)")
    }
  }
}
