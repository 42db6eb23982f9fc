import Foundation
import PracticeServer
import Sync
import Synchronization
import WorkbookTesting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A network between simulated devices and the in-process sync server: the practice server's
/// sync chaos (`SyncChaos`, the same faults `POST /admin/chaos {"sync_faults":{…}}` sets over
/// HTTP) decides what happens to each request: lost, reply lost, duplicated, 503, or answered
/// with a copy held for later. This type adds what only the simulation knows: which devices are
/// offline, a bound on requests, and a generator of its own for the simulation's steps, so that
/// the steps a seed makes do not depend on the faults it drew. The same seed makes the same
/// history, so a failing run can be replayed with `SEED=`.
final class ChaosNetwork: Sendable {
  /// What happens to one request.
  typealias Fault = SyncChaos.Fault

  /// The convergence test's fault rates, in percent of requests: 38 in 100 meet a fault.
  static let rates = SyncChaos.Rates(requestLost: 8, replyLost: 9, duplicated: 7, serverError: 7, heldForLater: 7)

  /// What `URLSession` reports when the server closes a fresh connection without a reply, as the
  /// practice server does for a lost request or a lost reply: `InProcessServerTests` measures it
  /// over HTTP and holds this network to it. The URL loading system of Apple's platforms says the
  /// connection was lost; the open-source Foundation on Linux, built on libcurl, reads the empty
  /// reply as a bad server response.
  #if canImport(FoundationNetworking)
    static let droppedConnection = URLError.Code.badServerResponse
  #else
    static let droppedConnection = URLError.Code.networkConnectionLost
  #endif

  /// How a history names what `URLSession` reported when no reply came.
  static func name(_ code: URLError.Code) -> String {
    switch code {
    case .timedOut: "timed out (URLError.timedOut)"
    case .networkConnectionLost: "connection lost (URLError.networkConnectionLost)"
    case .badServerResponse: "connection closed with no reply (URLError.badServerResponse)"
    case .notConnectedToInternet: "offline (URLError.notConnectedToInternet)"
    default: "URLError code \(code.rawValue)"
    }
  }

  /// The simulation's own draws are seeded with the run's seed mixed with this, so that they do
  /// not repeat the numbers the fault generator, seeded with the seed itself, draws.
  private static let stepSalt: UInt64 = 0x5851_F42D_4C95_7F2D

  private struct State {
    var random: SeededRandom
    var offline: Set<String> = []
    var requests = 0
    var exchanges: [String: [Exchange]] = [:]
    var interruptions: [String: Interruption] = [:]
    var outboxes: [String: @Sendable () async -> [Mutation]] = [:]
    /// The last page each device got, and the devices whose next pull a stale cache answers with it.
    var lastPage: [String: Data] = [:]
    var stale: Set<String> = []
    /// How many requests of each device got no reply: every second one times out.
    var unanswered: [String: Int] = [:]
  }

  /// What runs once while one of a device's requests is on its way: after the request left the
  /// engine, before it reaches the server.
  struct Interruption: Sendable {
    /// Whether it waits for a push (else for a pull).
    var push: Bool
    var action: @Sendable (URLRequest) async -> Void
  }

  /// One request a device sent, what the network did with it and the reply it got, if any.
  struct Exchange {
    var request: URLRequest
    /// Nil when the device was offline: the request never left it.
    var fault: Fault?
    var status: Int?
    var reply: Data?
    /// When no reply came: what `URLSession` reported.
    var code: URLError.Code?
    /// For a push, the device's outbox as the push left: read from the engine, which waits for
    /// the reply and lets other calls in meanwhile.
    var outbox: [Mutation]?

    var isPush: Bool { request.httpMethod == "POST" && request.url?.path.hasSuffix("/v1/sync/push") == true }
    var isPull: Bool { request.httpMethod == "GET" && request.url?.path.hasSuffix("/v1/sync/changes") == true }
  }

  /// How many requests one history may make: a normal one makes a few hundred, and a pull or a
  /// push that never ends must fail the history at once rather than at the suite's time limit.
  static let requestLimit = 2_000

  let server: SyncService
  /// The server's faults on the sync routes, seeded with the run's seed.
  let faults: SyncChaos
  let history: History
  private let state: Mutex<State>

  init(seed: UInt64, server: SyncService = SyncService(), history: History) {
    self.server = server
    self.history = history
    faults = SyncChaos(sync: server)
    faults.configure(seed: seed, rates: Self.rates)
    state = Mutex(State(random: SeededRandom(seed: seed ^ Self.stepSalt)))
  }

  /// Whether faults are drawn at all (off: every request is delivered, and no stale cache answers).
  var chaotic: Bool {
    get { faults.faultsOn }
    set {
      faults.faultsOn = newValue
      if !newValue { state.withLock { $0.stale.removeAll() } }
    }
  }

  func setOnline(_ device: String, _ online: Bool) {
    state.withLock {
      if online { $0.offline.remove(device) } else { $0.offline.insert(device) }
    }
  }

  /// Whether the devices sent more than `requestLimit` requests (every later one failed as offline).
  var ranAway: Bool { state.withLock { $0.requests > Self.requestLimit } }

  /// A number in `0..<bound` from the simulation's generator (not the fault generator's).
  func draw(_ bound: Int) -> Int {
    state.withLock { Int($0.random.next() % UInt64(bound)) }
  }

  /// Runs `interruption` once, with the request it waited for, when `device` next sends a push
  /// or a pull; nil takes back one not yet run.
  func interrupt(_ device: String, with interruption: Interruption?) {
    state.withLock { $0.interruptions[device] = interruption }
  }

  fileprivate func interruption(of device: String, before request: URLRequest) -> Interruption? {
    let probe = Exchange(request: request)
    let push = probe.isPush
    guard push || probe.isPull else { return nil }
    return state.withLock { state in
      guard state.interruptions[device]?.push == push else { return nil }
      return state.interruptions.removeValue(forKey: device)
    }
  }

  /// How to read `device`'s outbox when one of its pushes leaves (its engine's, after a relaunch).
  func watchOutbox(of device: String, with read: @escaping @Sendable () async -> [Mutation]) {
    state.withLock { $0.outboxes[device] = read }
  }

  fileprivate func outbox(of device: String, before request: URLRequest) async -> [Mutation]? {
    guard Exchange(request: request).isPush, let read = state.withLock({ $0.outboxes[device] }) else { return nil }
    return await read()
  }

  /// The transport one device uses.
  func link(for device: String) -> DeviceLink { DeviceLink(network: self, device: device) }

  /// Delivers one copy the server holds for later, if any; its answer goes nowhere.
  func deliverOneLate() {
    guard let copy = faults.deliverOneHeld() else { return }
    history.add("    a late copy of \(Self.describe(method: copy.method, path: copy.path, body: copy.body)) arrives")
  }

  /// The next pull of `device` is answered, without reaching the server, with the last page it
  /// got (a cache that ignores the query): an old page, with old versions and an old token.
  func serveStalePage(to device: String) {
    state.withLock { _ = $0.stale.insert(device) }
  }

  /// Delivers every copy still held.
  func deliverAllLate() {
    // Each call delivers one copy and none is added meanwhile: at most as many calls as copies.
    for _ in 0..<faults.heldCount { deliverOneLate() }
  }

  fileprivate func send(
    _ request: URLRequest, from device: String, outbox: [Mutation]?, cancelled: () -> Bool
  ) throws -> (Data, HTTPURLResponse) {
    if cancelled() { throw URLError(.cancelled) }
    let offline = state.withLock { state -> Bool in
      state.requests += 1
      return state.requests > Self.requestLimit || state.offline.contains(device)
    }
    if offline {
      record(Exchange(request: request), from: device)
      throw URLError(.notConnectedToInternet)
    }
    if request.httpMethod == "GET", let page = state.withLock({ $0.stale.remove(device) != nil ? $0.lastPage[device] : nil }) {
      history.add("    \(device): \(Self.describe(request)): a stale cache answers with the page \(device) got before")
      record(Exchange(request: request, fault: .delivered, status: 200, reply: page), from: device)
      return InProcessServer.clientReply(HTTPReply(status: 200, headers: [("Content-Type", "application/json")], body: page), for: request)
    }
    let outcome = faults.serve(InProcessServer.serverRequest(request))
    if request.httpMethod == "GET", outcome.reply?.status == 200, let body = outcome.reply?.body {
      state.withLock { $0.lastPage[device] = body }
    }
    // No reply: the connection closed (the practice server's way), or, every second time for a
    // device, nothing came back before the request's time ran out, as when the network goes quiet
    // (`URLSession` then fails with `.timedOut`, as chapter 3's test against a slow server shows).
    let code =
      outcome.reply != nil
      ? nil
      : state.withLock { state -> URLError.Code in
        state.unanswered[device, default: 0] += 1
        return state.unanswered[device, default: 0] % 2 == 0 ? .timedOut : Self.droppedConnection
      }
    if outcome.fault != .delivered {
      history.add("    \(device): \(Self.describe(request)): \(outcome.fault.rawValue)\(code == .timedOut ? ", timed out" : "")")
    } else if outcome.reply?.status == 410 {
      history.add("    \(device): \(Self.describe(request)): 410\(request.httpMethod == "POST" ? ", older than the tombstone horizon" : "")")
    }
    record(
      Exchange(request: request, fault: outcome.fault, status: outcome.reply?.status, reply: outcome.reply?.body, code: code, outbox: outbox),
      from: device)
    guard let reply = outcome.reply else { throw URLError(code ?? Self.droppedConnection) }
    return InProcessServer.clientReply(reply, for: request)
  }

  private func record(_ exchange: Exchange, from device: String) {
    state.withLock { $0.exchanges[device, default: []].append(exchange) }
  }

  /// What `device` sent since the last call, oldest first, and forgets it.
  func takeExchanges(of device: String) -> [Exchange] {
    state.withLock { $0.exchanges.removeValue(forKey: device) ?? [] }
  }

  static func describe(_ request: URLRequest) -> String {
    describe(method: request.httpMethod ?? "GET", path: request.url?.path ?? "", body: request.httpBody)
  }

  static func describe(method: String, path: String, body: Data?) -> String {
    guard let body, let push = try? SyncJSON.decoder().decode(PushBody.self, from: body) else {
      return "\(method) \(path)"
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
    try await send(request, cancelled: { Task.isCancelled })
  }

  /// Sends `request` for a caller whose cancellation `cancelled` reads: the engine's task, or
  /// (`URLSessionLink`) the task that waits on `URLSession` while another task carries the request.
  func send(_ request: URLRequest, cancelled: @Sendable () -> Bool) async throws -> (Data, HTTPURLResponse) {
    let outbox = await network.outbox(of: device, before: request)
    if let interruption = network.interruption(of: device, before: request) { await interruption.action(request) }
    return try network.send(request, from: device, outbox: outbox, cancelled: cancelled)
  }
}

/// The lines of one simulated run, printed when it fails.
final class History: Sendable {
  private let lines = Mutex<[String]>([])

  func add(_ line: String) { lines.withLock { $0.append(line) } }
  var text: String { lines.withLock { $0.joined(separator: "\n") } }
}
