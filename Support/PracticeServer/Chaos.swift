import Foundation
import Workbook

/// The server's failure knobs. Thread-safe; every change applies to requests that arrive after it.
public final class Chaos: Sendable {
  struct Plan {
    var failure: HTTPReply?
    var delayMilliseconds = 0
    var tokenGeneration = 0
  }

  private struct State {
    var failNext = 0
    var failStatus = 503
    var failRetryAfter: Int? = 1
    var rateLimitNext = 0
    var rateLimitRetryAfter = 1
    var delayMilliseconds = 0
    /// Only requests whose path starts with this are affected (nil: all but /health, /admin).
    var path: String?
    /// Tokens issued in an earlier generation are expired.
    var tokenGeneration = 0
  }

  private let state = Locked(State())
  /// The sync routes, whose change tokens `expire_sync_tokens` expires.
  private let sync: SyncService?
  /// The sync routes' seeded faults, set by `sync_faults` and `deliver_held`.
  private let syncChaos: SyncChaos?

  init(sync: SyncService? = nil, syncChaos: SyncChaos? = nil) {
    self.sync = sync
    self.syncChaos = syncChaos
  }

  var tokenGeneration: Int { state.withLock { $0.tokenGeneration } }

  /// The next `count` requests fail with `status` (503 by default; a final status, 200 to 599)
  /// and `Retry-After: seconds` (none when nil).
  public func failNext(_ count: Int, status: Int = 503, retryAfter seconds: Int? = 1) {
    state.withLock {
      $0.failNext = count
      $0.failStatus = status
      $0.failRetryAfter = seconds
    }
  }

  /// The next `count` requests get 429 with `Retry-After: seconds`.
  public func rateLimitNext(_ count: Int, retryAfter seconds: Int = 1) {
    state.withLock {
      $0.rateLimitNext = count
      $0.rateLimitRetryAfter = seconds
    }
  }

  /// Every access token issued so far is expired: the next authenticated call gets 401. Refresh
  /// tokens stay valid, so a refresh works.
  public func expireTokens() {
    state.withLock { $0.tokenGeneration += 1 }
  }

  /// Every response waits `milliseconds` before it is written (0 turns it off).
  public func delay(milliseconds: Int) {
    state.withLock { $0.delayMilliseconds = max(0, milliseconds) }
  }

  /// Limits the knobs to paths starting with `prefix` (nil: every path but /health and /admin).
  public func only(pathPrefix prefix: String?) {
    state.withLock { $0.path = prefix }
  }

  /// Turns every knob off, the sync routes' faults too, and drops their held copies (expired
  /// tokens stay expired).
  public func reset() {
    state.withLock { state in
      let generation = state.tokenGeneration
      state = State()
      state.tokenGeneration = generation
    }
    syncChaos?.reset()
  }

  func take(path: String) -> Plan {
    state.withLock { state in
      var plan = Plan(tokenGeneration: state.tokenGeneration)
      if let prefix = state.path, !path.hasPrefix(prefix) { return plan }
      plan.delayMilliseconds = state.delayMilliseconds
      if state.failNext > 0 {
        state.failNext -= 1
        let headers = state.failRetryAfter.map { [("Retry-After", String($0))] } ?? []
        plan.failure = .error(state.failStatus, "chaos: failing on purpose", headers: headers)
      } else if state.rateLimitNext > 0 {
        state.rateLimitNext -= 1
        plan.failure = .error(429, "chaos: too many requests", headers: [("Retry-After", String(state.rateLimitRetryAfter))])
      }
      return plan
    }
  }

  /// The numeric knobs of `POST /admin/chaos` and the values each may take.
  private static let numbers: [(key: String, range: ClosedRange<Int>, meaning: String)] = [
    ("fail_next", 0...Int.max, "a count, 0 or more"),
    ("status", 200...599, "a final HTTP status, 200 to 599"),
    ("retry_after", 0...86_400, "seconds, 0 to 86400"),
    ("rate_limit_next", 0...Int.max, "a count, 0 or more"),
    ("delay_ms", 0...60_000, "milliseconds, 0 to 60000"),
    ("deliver_held", 0...Int.max, "a count of held sync copies to apply, 0 or more"),
  ]
  private static let flags = ["expire_tokens", "expire_sync_tokens", "reset"]
  private static let knobs = Set(numbers.map(\.key) + flags + ["path", "sync_faults"])

  /// `POST /admin/chaos` with a JSON object of knobs. Every knob is checked before any is set:
  /// a wrong one gets 400 saying which and why, and changes nothing. Unchecked, a status of 99999
  /// would go out as a status line no client can parse, and a 1xx as an interim response the
  /// client keeps waiting after (RFC 9110 §15).
  func handle(_ request: HTTPRequest) -> HTTPReply {
    guard request.method == "POST" else { return .error(405, "POST a JSON object of knobs", headers: [("Allow", "POST")]) }
    var object: [String: Any] = [:]
    if !request.body.allSatisfy({ [ASCII.space, ASCII.tab, ASCII.cr, ASCII.lf].contains($0) }) {
      guard let parsed = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] else {
        return .error(400, "send a JSON object of knobs, such as {\"fail_next\":2,\"status\":503}")
      }
      object = parsed
    }
    let unknown = object.keys.filter { !Self.knobs.contains($0) }.sorted()
    guard unknown.isEmpty else {
      return .error(400, "unknown knob \(unknown.joined(separator: ", ")); the knobs are \(Self.knobs.sorted().joined(separator: ", "))")
    }
    var number: [String: Int] = [:]
    for (key, range, meaning) in Self.numbers {
      guard let value = object[key] else { continue }
      guard !Self.isBoolean(value), let integer = value as? Int, range.contains(integer) else {
        return .error(400, "\(key) must be \(meaning), got \(value)")
      }
      number[key] = integer
    }
    for key in Self.flags where object[key].map({ !Self.isBoolean($0) }) ?? false {
      return .error(400, "\(key) must be true or false")
    }
    if let path = object["path"], !(path is NSNull), !((path as? String)?.hasPrefix("/") ?? false) {
      return .error(400, "path must be a path prefix starting with /, or null")
    }
    var syncFaults: (seed: UInt64, rates: SyncChaos.Rates)??
    if let value = object["sync_faults"] {
      do {
        syncFaults = .some(try SyncChaos.settings(fromKnob: value))
      } catch {
        return .error(400, error.message)
      }
    }

    // Held copies are applied first, under the faults they were held under, before a reset
    // drops them or new settings start a new generator.
    let delivered = number["deliver_held"].map { syncChaos?.deliverHeld($0) ?? 0 }
    if object["reset"] as? Bool == true { reset() }
    if let syncFaults {
      if let (seed, rates) = syncFaults {
        syncChaos?.configure(seed: seed, rates: rates)
      } else {
        syncChaos?.faultsOn = false
      }
    }
    if let path = object["path"] { only(pathPrefix: path as? String) }
    if let count = number["fail_next"] { failNext(count, status: number["status"] ?? 503, retryAfter: number["retry_after"] ?? 1) }
    if let count = number["rate_limit_next"] { rateLimitNext(count, retryAfter: number["retry_after"] ?? 1) }
    if object["expire_tokens"] as? Bool == true { expireTokens() }
    if object["expire_sync_tokens"] as? Bool == true { sync?.expireTokens() }
    if let delay = number["delay_ms"] { self.delay(milliseconds: delay) }
    var answer = state.withLock { state -> [String: Any] in
      [
        "fail_next": state.failNext, "status": state.failStatus, "rate_limit_next": state.rateLimitNext,
        "delay_ms": state.delayMilliseconds, "path": state.path.map { $0 as Any } ?? NSNull(),
        "token_generation": state.tokenGeneration,
      ]
    }
    if let syncChaos {
      answer["sync_faults"] = syncChaos.knobValue
      answer["held_copies"] = syncChaos.heldCount
    }
    if let delivered { answer["delivered_copies"] = delivered }
    return .json(200, answer)
  }

  /// Whether a value from `JSONSerialization` is `true` or `false`. Both arrive as an `NSNumber`,
  /// which also converts to `Int` (true is 1) and from 0 or 1 to `Bool`, so neither `is Bool` nor
  /// `as? Int` tells a JSON boolean from a number; its Objective-C type code ("c", a char) does.
  static func isBoolean(_ value: Any) -> Bool {
    guard let number = value as? NSNumber else { return value is Bool }
    return String(cString: number.objCType) == "c"
  }
}
