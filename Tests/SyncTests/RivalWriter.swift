import Foundation
import Sync
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Another writer of the notes (the web app, say) that changes the note a device is pushing just
/// before each of its pushes reaches the server, for a number of pushes: each comes back 412, and
/// the rebased edit meets the next change. It is what `SyncEngine.maximumPushRounds` is for.
final class RivalWriter: Sendable {
  /// The field the rival sets: one no device's edits set, so a rebase keeps their intent.
  static let field = "pinned"

  private let network: ChaosNetwork
  private let device: String
  private let state: Mutex<(left: Int, ids: [String])>

  init(changes: Int, before device: String, on network: ChaosNetwork) {
    self.network = network
    self.device = device
    state = Mutex((changes, []))
  }

  /// The ids of the rival's mutations the server applied.
  var ids: [String] { state.withLock { $0.ids } }

  /// Waits for the device's next push; arm it with `ChaosNetwork.interrupt(_:with:)`.
  func interruption() -> ChaosNetwork.Interruption {
    ChaosNetwork.Interruption(push: true) { @Sendable [self] request in
      guard let body = request.httpBody, let note = try? SyncJSON.decoder().decode(PushBody.self, from: body).mutations.first?.note,
        let number = state.withLock({ state -> Int? in
          guard state.left > 0 else { return nil }
          state.left -= 1
          return state.ids.count + 1
        })
      else { return }
      change(note, number: number)
      network.interrupt(device, with: interruption())
    }
  }

  /// Sets the rival's field of `note` on the version the server holds, past any chaos.
  private func change(_ note: String, number: Int) {
    let current = network.server.notes.first { $0.id == note }
    guard current?.deleted != true else { return }
    let value = "web\(number)"
    let mutation = Mutation(
      id: "web-\(device)-\(number)-\(network.server.appliedCount)", note: note, base: current?.version ?? 0,
      set: [Self.field: value], editedAt: Date(timeIntervalSince1970: 1_800_000_000))
    var request = URLRequest(url: InProcessServer.baseURL.appendingPathComponent("v1/sync/push"))
    request.httpMethod = "POST"
    request.httpBody = try? SyncJSON.encoder().encode(PushBody(mutations: [mutation]))
    let reply = network.server.handle(InProcessServer.serverRequest(request))
    guard reply.status == 200, network.server.applied(mutation.id) else { return }
    state.withLock { $0.ids.append(mutation.id) }
    network.history.add("    the web app sets \(note).\(Self.field) = \(value)")
  }
}
