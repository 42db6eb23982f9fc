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

// Given — the source of random draws; write the policy below it.
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
    // TODO: double per retry, cap at `maxDelay`, then apply `jitter` (placeholder: `baseDelay`).
    baseDelay
  }

  /// The same, drawing from a generator you own.
  public func backoff(beforeRetry retry: Int, random: inout some RandomNumberGenerator) -> Duration {
    backoff(beforeRetry: retry, random: .constant(Double(random.next() >> 11) / Double(UInt64(1) << 53)))
  }

  /// Whether a request may be sent twice: an idempotent method, or any method with an
  /// idempotency key the server deduplicates on. A plain POST could create two orders. An empty
  /// key is a bug of the caller's: whether it counts as a key is your choice, and no test sends one.
  public func mayRetry(method: HTTPMethod, idempotencyKey: String?) -> Bool {
    // TODO: an idempotent method, or any method with a key (placeholder: false).
    false
  }

  /// Whether `error` is transient: a retryable status, a timeout, or a transient transport code.
  /// Offline, 401, other 4xx, decoding and cancellation are not.
  public func isRetryable(_ error: NetworkError) -> Bool {
    // TODO: retryable statuses, timeouts and transient codes (placeholder: false).
    false
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
  /// `HTTPDate.parse(_:now:)` (given, in the Workbook module) reads the three date formats.
  public static func retryAfter(_ value: String, now: Date) -> Duration? {
    // TODO: whole seconds or an HTTP-date measured from `now` (placeholder: nil).
    nil
  }

  /// The wait before retry `retry` after `error`: the server's `Retry-After` capped at
  /// `maxRetryAfter` when it sent a valid one, with no jitter (the server chose the time), the
  /// jittered backoff otherwise. The header counts with whatever status it came: a 500 or a 502
  /// that asks for 5 s gets 5 s, like a 503 or a 429.
  public func delay(after error: NetworkError, beforeRetry retry: Int, random: RandomSource, now: Date) -> Duration {
    // TODO: prefer a valid `Retry-After`, capped (placeholder: it ignores the header).
    backoff(beforeRetry: retry, random: random)
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
    // TODO: attempt, and on a retryable failure wait on `clock` and try again, up to `maxAttempts`.
    throw .encoding(NotImplemented("RetryPolicy.run").description)
  }
}
