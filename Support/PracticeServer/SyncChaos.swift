import Foundation
import Workbook

/// Seeded faults on the sync routes (`/v1/sync/`), the network of chapter 7's convergence test:
/// a request can be lost before the server sees it, its reply lost after the server applied it,
/// applied twice, answered 503, or answered now and applied again later, out of order. Every
/// decision is drawn from one seeded generator, so the same seed and rates give the same faults
/// in the same order; a failing run is replayed by its seed.
///
/// Off until `configure(seed:rates:)` (or `POST /admin/chaos {"sync_faults":{…}}`). Over HTTP a
/// lost request or a lost reply closes the connection without writing a byte of a response;
/// in-process, `serve(_:)` says so with a nil reply. Held copies wait until `deliverOneHeld()`,
/// `deliverAllHeld()` or `{"deliver_held":N}`; at most `maximumHeld` copies holding at most
/// `maximumHeldBytes` of bodies are kept, so no client can make the server hoard memory (a copy
/// that does not fit is not kept: the request is simply delivered). Thread-safe.
public final class SyncChaos: Sendable {
  /// What happens to one request.
  public enum Fault: String, CaseIterable, Sendable {
    /// Answered as usual.
    case delivered
    /// Lost on the way in: nothing applied, the connection closes with no reply.
    case requestLost = "request lost"
    /// Applied, then the reply is lost: the connection closes with no reply.
    case replyLost = "reply lost"
    /// Arrives twice: applied twice, and the client reads the second answer.
    case duplicated
    /// Answered 503 by a failing server: nothing applied.
    case serverError = "503"
    /// Answered now, and a copy is kept to be applied later, out of order.
    case heldForLater = "a copy arrives later"
  }

  /// How often each fault happens, in percent of requests; the rest are delivered. Each rate is
  /// 0 to 100 and their sum at most 100.
  public struct Rates: Sendable, Equatable {
    public var requestLost: Int
    public var replyLost: Int
    public var duplicated: Int
    public var serverError: Int
    public var heldForLater: Int

    public init(requestLost: Int = 0, replyLost: Int = 0, duplicated: Int = 0, serverError: Int = 0, heldForLater: Int = 0) {
      self.requestLost = requestLost
      self.replyLost = replyLost
      self.duplicated = duplicated
      self.serverError = serverError
      self.heldForLater = heldForLater
    }

    /// The faults in the order they take their share of a roll, with their rates.
    var shares: [(fault: Fault, percent: Int)] {
      [(.requestLost, requestLost), (.replyLost, replyLost), (.duplicated, duplicated), (.serverError, serverError), (.heldForLater, heldForLater)]
    }

    /// The fault a roll in `0..<100` lands on: the first `requestLost` rolls lose the request, the
    /// next `replyLost` lose the reply, and so on in the order of `shares`; the rest deliver.
    func fault(forRoll roll: Int) -> Fault {
      var end = 0
      for (fault, percent) in shares {
        end += percent
        if roll < end { return fault }
      }
      return .delivered
    }
  }

  /// What one request got.
  public struct Outcome: Sendable {
    public var fault: Fault
    /// What the client reads; nil when the connection closes without a reply.
    public var reply: HTTPReply?
  }

  /// The default bound on held copies.
  public static let defaultMaximumHeld = 64
  /// The default bound on the bytes of held bodies: two of the largest bodies the server reads.
  public static let defaultMaximumHeldBytes = 16 << 20

  private struct State {
    var random = SplitMix64(seed: 0)
    var seed: UInt64 = 0
    var rates = Rates()
    var on = false
    var held: [HTTPRequest] = []
    var heldBytes = 0
  }

  public let maximumHeld: Int
  public let maximumHeldBytes: Int
  private let sync: SyncService
  private let state = Locked(State())

  public init(sync: SyncService, maximumHeld: Int = SyncChaos.defaultMaximumHeld, maximumHeldBytes: Int = SyncChaos.defaultMaximumHeldBytes) {
    self.sync = sync
    self.maximumHeld = max(0, maximumHeld)
    self.maximumHeldBytes = max(0, maximumHeldBytes)
  }

  /// Starts drawing faults at `rates` from a generator seeded with `seed` (a fresh start: the same
  /// call gives the same decisions again). Held copies stay held. Rates outside 0…100, or summing
  /// past 100, are a programming error.
  public func configure(seed: UInt64, rates: Rates) {
    precondition(rates.shares.allSatisfy { (0...100).contains($0.percent) } && rates.shares.map(\.percent).reduce(0, +) <= 100)
    state.withLock { state in
      state.random = SplitMix64(seed: seed)
      state.seed = seed
      state.rates = rates
      state.on = true
    }
  }

  /// Whether faults are drawn: off, every request is served once and nothing is drawn. Turning
  /// them back on goes on with the same generator, where it stopped.
  public var faultsOn: Bool {
    get { state.withLock { $0.on } }
    set { state.withLock { $0.on = newValue } }
  }

  /// The seed and rates last configured, or nil while faults are off.
  public var settings: (seed: UInt64, rates: Rates)? {
    state.withLock { $0.on ? ($0.seed, $0.rates) : nil }
  }

  /// How many copies are held for later.
  public var heldCount: Int { state.withLock { $0.held.count } }

  /// Turns faults off and drops every held copy.
  public func reset() {
    state.withLock { $0 = State() }
  }

  /// Draws this request's fault and serves it accordingly.
  public func serve(_ request: HTTPRequest) -> Outcome {
    let fault = state.withLock { state -> Fault in
      guard state.on else { return .delivered }
      let fault = state.rates.fault(forRoll: state.random.below(100))
      guard fault == .heldForLater else { return fault }
      guard state.held.count < maximumHeld, state.heldBytes + request.body.count <= maximumHeldBytes else { return .delivered }
      state.held.append(request)
      state.heldBytes += request.body.count
      return fault
    }
    switch fault {
    case .delivered, .heldForLater:
      return Outcome(fault: fault, reply: sync.handle(request))
    case .requestLost:
      return Outcome(fault: fault, reply: nil)
    case .replyLost:
      _ = sync.handle(request)
      return Outcome(fault: fault, reply: nil)
    case .duplicated:
      _ = sync.handle(request)
      return Outcome(fault: fault, reply: sync.handle(request))
    case .serverError:
      return Outcome(fault: fault, reply: .error(503, "chaos: the sync server is failing on purpose"))
    }
  }

  /// Applies one held copy, chosen by the seeded generator, and returns it (nil when none is
  /// held); its answer goes nowhere, as a late copy's does.
  @discardableResult
  public func deliverOneHeld() -> HTTPRequest? {
    let copy = state.withLock { state -> HTTPRequest? in
      guard !state.held.isEmpty else { return nil }
      let copy = state.held.remove(at: state.random.below(state.held.count))
      state.heldBytes -= copy.body.count
      return copy
    }
    guard let copy else { return nil }
    _ = sync.handle(copy)
    return copy
  }

  /// Applies up to `count` held copies, one at a time as `deliverOneHeld()` does; returns how
  /// many were applied.
  @discardableResult
  public func deliverHeld(_ count: Int) -> Int {
    var delivered = 0
    while delivered < count, deliverOneHeld() != nil { delivered += 1 }
    return delivered
  }

  /// Applies every held copy; returns how many.
  @discardableResult
  public func deliverAllHeld() -> Int { deliverHeld(Int.max) }

  // MARK: The knob

  /// The keys of `{"sync_faults":{…}}`: the seed, then each fault's rate.
  static let rateKeys: [(key: String, fault: Fault)] = [
    ("request_lost", .requestLost), ("reply_lost", .replyLost), ("duplicated", .duplicated), ("server_error", .serverError),
    ("held_for_later", .heldForLater),
  ]
  static let knobKeys = ["seed"] + rateKeys.map(\.key)

  /// Reads the value of the `sync_faults` knob: a JSON object of a seed (an integer, 0 or more)
  /// and rates (integers, 0 to 100 percent, summing to at most 100), each optional (0 when
  /// absent), or null to turn faults off. Returns the settings (nil for null) or why not.
  static func settings(fromKnob value: Any) throws(KnobError) -> (seed: UInt64, rates: Rates)? {
    if value is NSNull { return nil }
    let example = #"{"seed":7,"request_lost":8,"reply_lost":9,"duplicated":7,"server_error":7,"held_for_later":7}"#
    guard let object = value as? [String: Any] else {
      throw KnobError("sync_faults must be a JSON object such as \(example), or null")
    }
    let unknown = object.keys.filter { !knobKeys.contains($0) }.sorted()
    guard unknown.isEmpty else {
      throw KnobError("unknown key in sync_faults: \(unknown.joined(separator: ", ")); the keys are \(knobKeys.joined(separator: ", "))")
    }
    var seed: UInt64 = 0
    if let given = object["seed"] {
      guard !Chaos.isBoolean(given), let integer = given as? Int, integer >= 0 else {
        throw KnobError("sync_faults.seed must be a whole number from 0 to \(Int.max), got \(given)")
      }
      seed = UInt64(integer)
    }
    var percent: [Fault: Int] = [:]
    for (key, fault) in rateKeys {
      guard let given = object[key] else { continue }
      guard !Chaos.isBoolean(given), let integer = given as? Int, (0...100).contains(integer) else {
        throw KnobError("sync_faults.\(key) must be a whole percent from 0 to 100, got \(given)")
      }
      percent[fault] = integer
    }
    let total = percent.values.reduce(0, +)
    guard total <= 100 else {
      throw KnobError("the rates in sync_faults add up to \(total) percent; at most 100 of every 100 requests can meet a fault")
    }
    let rates = Rates(
      requestLost: percent[.requestLost] ?? 0, replyLost: percent[.replyLost] ?? 0, duplicated: percent[.duplicated] ?? 0,
      serverError: percent[.serverError] ?? 0, heldForLater: percent[.heldForLater] ?? 0)
    return (seed, rates)
  }

  /// Why a value of the knob was refused: the 400's message.
  struct KnobError: Error {
    var message: String
    init(_ message: String) { self.message = message }
  }

  /// The settings as the knob's answer shows them: the same object `sync_faults` takes, or null.
  var knobValue: Any {
    guard let (seed, rates) = settings else { return NSNull() }
    var object: [String: Any] = ["seed": seed]
    for (key, fault) in Self.rateKeys {
      object[key] = rates.shares.first { $0.fault == fault }?.percent ?? 0
    }
    return object
  }
}
