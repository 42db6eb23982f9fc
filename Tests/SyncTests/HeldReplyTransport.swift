import Foundation
import PracticeServer
import Sync
import Synchronization
import WorkbookTesting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The in-process server, whose answer to the first push waits at `gate` after the server has
/// applied (or refused) it: the test acts while the reply is on its way, then opens the gate.
final class HeldReplyTransport: SyncTransport {
  let server: InProcessServer
  let gate = Gate()
  private let pushes = Mutex<[PushBody]>([])

  init(service: SyncService) { server = InProcessServer(service: service) }

  /// Every push body sent, in order.
  var pushed: [PushBody] { pushes.withLock { $0 } }

  func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    let answer = try await server.send(request)
    guard let body = request.httpBody, let push = try? SyncJSON.decoder().decode(PushBody.self, from: body) else { return answer }
    let first = pushes.withLock {
      $0.append(push)
      return $0.count == 1
    }
    if first { await gate.pass() }
    return answer
  }
}
