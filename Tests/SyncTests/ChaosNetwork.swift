import Foundation
import PracticeServer
import Sync
import Synchronization
import WorkbookTesting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A network between simulated devices and the in-process sync server that loses, repeats,
/// delays and fails requests, each decision drawn from one seeded generator: the same seed makes
/// the same faults in the same places, so a failing run can be replayed with `SEED=`.
final class ChaosNetwork: Sendable {
  /// What happens to one request.
  enum Fault: String, CaseIterable {
    /// Arrives and is answered.
    case delivered
    /// Lost on the way: the server never sees it; the device sees the connection drop.
    case requestLost = "request lost"
    /// Applied by the server, then the answer is lost: the device sees the connection drop.
    case replyLost = "reply lost"
    /// Arrives twice; the device sees the second answer.
    case duplicated
    /// Answered by a failing server: 503, nothing applied.
    case serverError = "503"
    /// Answered now, and a copy stays in the air to arrive later, out of order.
    case alsoLater = "a copy arrives later"
  }

  private struct State {
    var random: SeededRandom
    var chaotic = true
    var offline: Set<String> = []
    var inTheAir: [URLRequest] = []
    var requests = 0
  }

  /// How many requests one history may make: a normal one makes a few hundred, and a pull or a
  /// push that never ends must fail the history at once rather than at the suite's time limit.
  static let requestLimit = 2_000

  let server: SyncService
  let history: History
  private let state: Mutex<State>

  init(seed: UInt64, server: SyncService = SyncService(), history: History) {
    self.server = server
    self.history = history
    state = Mutex(State(random: SeededRandom(seed: seed)))
  }

  /// Whether faults are drawn at all (off: every request is delivered).
  var chaotic: Bool {
    get { state.withLock { $0.chaotic } }
    set { state.withLock { $0.chaotic = newValue } }
  }

  func setOnline(_ device: String, _ online: Bool) {
    state.withLock {
      if online { $0.offline.remove(device) } else { $0.offline.insert(device) }
    }
  }

  /// Whether the devices sent more than `requestLimit` requests (every later one failed as offline).
  var ranAway: Bool { state.withLock { $0.requests > Self.requestLimit } }

  /// A number in `0..<bound` from the run's generator.
  func draw(_ bound: Int) -> Int {
    state.withLock { Int($0.random.next() % UInt64(bound)) }
  }

  /// The transport one device uses.
  func link(for device: String) -> DeviceLink { DeviceLink(network: self, device: device) }

  /// Delivers one request that was left in the air, if any; its answer goes nowhere.
  func deliverOneLate() {
    let request = state.withLock { state -> URLRequest? in
      guard !state.inTheAir.isEmpty else { return nil }
      return state.inTheAir.remove(at: Int(state.random.next() % UInt64(state.inTheAir.count)))
    }
    guard let request else { return }
    history.add("    a late copy of \(Self.describe(request)) arrives")
    _ = server.handle(InProcessServer.serverRequest(request))
  }

  /// Delivers every request still in the air.
  func deliverAllLate() {
    while state.withLock({ !$0.inTheAir.isEmpty }) { deliverOneLate() }
  }

  fileprivate func send(_ request: URLRequest, from device: String) throws -> (Data, HTTPURLResponse) {
    if Task.isCancelled { throw URLError(.cancelled) }
    let (offline, fault) = state.withLock { state -> (Bool, Fault) in
      state.requests += 1
      if state.requests > Self.requestLimit || state.offline.contains(device) { return (true, .delivered) }
      guard state.chaotic else { return (false, .delivered) }
      let roll = state.random.next() % 100
      switch roll {
      case 0..<62: return (false, .delivered)
      case 62..<70: return (false, .requestLost)
      case 70..<79: return (false, .replyLost)
      case 79..<86: return (false, .duplicated)
      case 86..<93: return (false, .serverError)
      default:
        state.inTheAir.append(request)
        return (false, .alsoLater)
      }
    }
    if offline { throw URLError(.notConnectedToInternet) }
    if fault != .delivered { history.add("    \(device): \(Self.describe(request)): \(fault.rawValue)") }
    switch fault {
    case .requestLost:
      throw URLError(.networkConnectionLost)
    case .serverError:
      return InProcessServer.clientReply(.error(503, "chaos"), for: request)
    case .replyLost:
      _ = server.handle(InProcessServer.serverRequest(request))
      throw URLError(.networkConnectionLost)
    case .duplicated:
      _ = server.handle(InProcessServer.serverRequest(request))
      return InProcessServer.clientReply(server.handle(InProcessServer.serverRequest(request)), for: request)
    case .delivered, .alsoLater:
      return InProcessServer.clientReply(server.handle(InProcessServer.serverRequest(request)), for: request)
    }
  }

  static func describe(_ request: URLRequest) -> String {
    guard let body = request.httpBody, let push = try? SyncJSON.decoder().decode(PushBody.self, from: body) else {
      return "\(request.httpMethod ?? "GET") \(request.url?.path ?? "")"
    }
    let list = push.mutations.map {
      "\($0.note)@\($0.base) \($0.delete ? "delete" : $0.set.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))"
    }
    return "push [\(list.joined(separator: "; "))]"
  }
}

/// One device's way onto the chaotic network.
struct DeviceLink: SyncTransport {
  let network: ChaosNetwork
  let device: String

  func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    try network.send(request, from: device)
  }
}

/// The lines of one simulated run, printed when it fails.
final class History: Sendable {
  private let lines = Mutex<[String]>([])

  func add(_ line: String) { lines.withLock { $0.append(line) } }
  var text: String { lines.withLock { $0.joined(separator: "\n") } }
}
