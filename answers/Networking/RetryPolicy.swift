// Exercise 3 — Retry with backoff and jitter (intermediate)
//
// A retry loop decides three things: whether this failure may be retried at all (is the request
// idempotent? is the failure transient?), how long to wait (exponential backoff with jitter, or
// the server's `Retry-After`, both capped), and when to stop (after the last attempt: with no
// wait, since nobody will use it; at once on cancellation). All waiting goes through the
// injected clock and every random number through the injected `RandomSource`, so tests replay it.
import Foundation
import Synchronization
import Workbook

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Where jitter comes from: a seeded generator in tests, the system generator in an app, or a
/// constant to pin one value.
public nonisolated final class RandomSource: Sendable {
  private enum Storage {
    case generator(any RandomNumberGenerator & Sendable)
    case constant(Double)
  }

  private let storage: Mutex<Storage>

  /// Draws from `generator`, such as a seeded one in a test.
  public init(_ generator: some RandomNumberGenerator & Sendable) {
    storage = Mutex(.generator(generator))
  }

  private init(constant: Double) {
    storage = Mutex(.constant(constant))
  }

  /// A source that always draws `unit`, a value in 0...1, to pin the jitter in a test.
  public static func constant(_ unit: Double) -> RandomSource {
    RandomSource(constant: min(max(unit, 0), 1))
  }

  /// The system's generator.
  public static var system: RandomSource { RandomSource(SystemRandomNumberGenerator()) }

  /// The next draw from the generator, or the constant.
  public func unit() -> Double {
    storage.withLock { storage in
      switch storage {
      case .constant(let value):
        return value
      case .generator(var generator):
        let value = Double(generator.next() >> 11) / Double(UInt64(1) << 53)
        storage = .generator(generator)
        return value
      }
    }
  }
}

/// When and how often a failed request is tried again.
public nonisolated struct RetryPolicy: Sendable {
  /// How the exponential delay `d` is spread out, so that clients failing together do not all
  /// come back together (the thundering herd).
  public enum Jitter: Sendable, Equatable {
    /// Exactly `d`: every client retries in lockstep.
    case none
    /// `d/2 + u · d/2` for a draw `u` in `0..<1`: never shorter than half the delay.
    case equal
    /// `u · d` for a draw `u` in `0..<1`: spreads retries the most.
    case full

    /// Another name for `.none`.
    public static let zero = Jitter.none
  }

  /// Attempts in total, the first one included: 3 means at most 2 retries.
  public var maxAttempts: Int
  /// The delay before the first retry, before jitter; it doubles for every further retry.
  public var baseDelay: Duration
  /// The cap of the exponential delay.
  public var maxDelay: Duration
  public var jitter: Jitter
  /// The cap of a server's `Retry-After`: a server asking for an hour does not freeze the app.
  public var maxRetryAfter: Duration

  public init(
    maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30),
    jitter: Jitter = .full, maxRetryAfter: Duration = .seconds(60)
  ) {
    self.maxAttempts = maxAttempts
    self.baseDelay = baseDelay
    self.maxDelay = maxDelay
    self.jitter = jitter
    self.maxRetryAfter = maxRetryAfter
  }

  /// One attempt, no retries.
  public static let never = RetryPolicy(maxAttempts: 1)

  /// Methods that mean the same thing when sent twice.
  public static let idempotentMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, .options]
  /// Statuses that say "try again later": timeout, too many requests, and the server errors
  /// that are usually temporary.
  public static let retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
  /// Transport failures that a second try often fixes.
  public static let transientCodes: [URLError.Code] = [
    .timedOut, .networkConnectionLost, .cannotConnectToHost, .dnsLookupFailed, .cannotFindHost,
  ]

  /// The wait before retry number `retry` (1 = the first retry): `baseDelay · 2^(retry-1)`,
  /// capped at `maxDelay`, then jittered with one draw from `random`. O(retry) at most. A `retry`
  /// below 1 counts as 1: the wait is never shorter than the first one.
  public func backoff(beforeRetry retry: Int, random: RandomSource) -> Duration {
    var delay = baseDelay
    var step = 1
    while step < retry, delay < maxDelay {
      delay = delay * 2
      step += 1
    }
    delay = min(delay, maxDelay)
    switch jitter {
    case .none: return delay
    case .full: return delay * random.unit()
    case .equal: return delay / 2 + (delay / 2) * random.unit()
    }
  }

  /// The same, drawing from a generator you own.
  public func backoff(beforeRetry retry: Int, random: inout some RandomNumberGenerator) -> Duration {
    backoff(beforeRetry: retry, random: .constant(Double(random.next() >> 11) / Double(UInt64(1) << 53)))
  }

  /// Whether a request may be sent twice: an idempotent method, or any method with an
  /// idempotency key the server deduplicates on. A plain POST could create two orders. An empty
  /// key is a bug of the caller's: whether it counts as a key is your choice, and no test sends one.
  public func mayRetry(method: HTTPMethod, idempotencyKey: String?) -> Bool {
    Self.idempotentMethods.contains(method) || idempotencyKey != nil
  }

  /// Whether `error` is transient: a retryable status, a timeout, or a transient transport code.
  /// Offline, 401, other 4xx, decoding and cancellation are not.
  public func isRetryable(_ error: NetworkError) -> Bool {
    switch error {
    case .http(let status, _, _): return Self.retryableStatuses.contains(status)
    case .timeout: return true
    case .transport(let code): return Self.transientCodes.contains(code)
    default: return false
    }
  }

  /// A `Retry-After` value as a wait (RFC 9110 §10.2.3): delay-seconds, which is digits only
  /// (`"120"`), or an HTTP-date measured from `now`, where a past date means no wait. All three
  /// date formats of RFC 9110 §5.6.7 are accepted, as a recipient must: IMF-fixdate
  /// (`"Sun, 06 Nov 1994 08:49:37 GMT"`), the obsolete RFC 850 form
  /// (`"Sunday, 06-Nov-94 08:49:37 GMT"`, whose two-digit year is the latest one not more than 50
  /// years after `now`'s year) and asctime (`"Sun Nov  6 08:49:37 1994"`). Nil for anything else:
  /// empty, a sign or a fraction, an impossible date, trailing text. Spaces and tabs around the
  /// value are ignored, as they are no part of a field value (RFC 9110 §5.5). Seconds too many for
  /// an `Int` are `Int.max` seconds, which `delay(after:…)` caps at `maxRetryAfter`. Never traps.
  ///
  /// A date's wait is the exact time from `now` to it, to the millisecond: `now` rarely falls on a
  /// whole second, and a wait cut down to whole seconds sends the retry before the server's time.
  ///
  /// The seconds are read by hand in O(length); a date goes to `HTTPDate.parse` (given, in the
  /// Workbook module), which builds no `DateFormatter`.
  public static func retryAfter(_ value: String, now: Date) -> Duration? {
    let text = Array(value.trimmingCharacters(in: .whitespaces).utf8)
    guard !text.isEmpty else { return nil }
    if text.allSatisfy({ (0x30...0x39).contains($0) }) {
      var seconds = 0
      for digit in text {
        let (tens, overflowed) = seconds.multipliedReportingOverflow(by: 10)
        let (sum, overflowedAgain) = tens.addingReportingOverflow(Int(digit - 0x30))
        if overflowed || overflowedAgain { return .seconds(Int.max) }  // capped by the caller
        seconds = sum
      }
      return .seconds(seconds)
    }
    guard let date = HTTPDate.parse(value, now: now) else { return nil }
    let wait = date.timeIntervalSince(now)
    guard wait > 0 else { return .zero }
    return .milliseconds(Int((min(wait, 1e12) * 1_000).rounded()))
  }

  /// The wait before retry `retry` after `error`: the server's `Retry-After` capped at
  /// `maxRetryAfter` when it sent a valid one, with no jitter (the server chose the time), the
  /// jittered backoff otherwise. The header counts with whatever status it came: a 500 or a 502
  /// that asks for 5 s gets 5 s, like a 503 or a 429.
  public func delay(after error: NetworkError, beforeRetry retry: Int, random: RandomSource, now: Date) -> Duration {
    if case .http(_, _, let header?) = error, let asked = Self.retryAfter(header, now: now) {
      return min(asked, maxRetryAfter)
    }
    return backoff(beforeRetry: retry, random: random)
  }

  /// Runs `operation` (given the attempt number, from 1) until it succeeds, the failure is not
  /// retryable, the request may not be retried, or `maxAttempts` attempts have been made.
  ///
  /// Between attempts it sleeps on `clock`; after the last attempt it throws at once, without
  /// waiting, the last attempt's error. At least one attempt is made: a `maxAttempts` below 1
  /// counts as 1. Cancellation, before an attempt (the first one included: a task cancelled
  /// before `run` never calls `operation`) or during a wait, throws `.cancelled` at once. Every
  /// error reaches the caller as a `NetworkError`.
  ///
  /// Yours to choose: whether a wait of zero (`Retry-After: 0`, a past date) sleeps on the clock
  /// for zero or does not sleep at all; and, when the task is cancelled during an attempt that
  /// then fails, whether the caller gets that attempt's error or `.cancelled` (no attempt and no
  /// wait may follow either way).
  public func run<T, C: Clock>(
    method: HTTPMethod, idempotencyKey: String? = nil, clock: C, random: RandomSource = .system,
    now: () -> Date = Date.init, operation: (_ attempt: Int) async throws -> T
  ) async throws(NetworkError) -> T where C.Duration == Duration {
    var attempt = 1
    while true {
      if Task.isCancelled { throw .cancelled }
      do {
        return try await operation(attempt)
      } catch {
        let failure = NetworkError(mapping: error)
        guard attempt < maxAttempts, !Task.isCancelled, mayRetry(method: method, idempotencyKey: idempotencyKey),
          isRetryable(failure)
        else { throw failure }
        let wait = delay(after: failure, beforeRetry: attempt, random: random, now: now())
        do {
          try await clock.sleep(for: wait)
        } catch {
          throw .cancelled
        }
        attempt += 1
      }
    }
  }
}
