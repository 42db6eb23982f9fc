import Foundation
import PracticeServer
import Testing
import WorkbookTesting

@testable import Networking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Exercise 3 — Retry with backoff and jitter", .timeLimit(.minutes(1)))
struct Exercise3_RetryPolicyTests {
  let unavailable = NetworkError.http(status: 503, body: Data())

  @Test func exponentialBackoffDoublesAndIsCapped() {
    let policy = RetryPolicy(maxAttempts: 10, baseDelay: .milliseconds(500), maxDelay: .seconds(8), jitter: .none)
    let waits = (1...7).map { policy.backoff(beforeRetry: $0, random: .constant(0.3)) }
    let expected: [Duration] = [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8), .seconds(8)]
    #expect(waits == expected, "without jitter the waits are 0.5, 1, 2, 4, then capped at 8 s; got \(waits)")
    let huge = policy.backoff(beforeRetry: 500, random: .constant(0.3))
    #expect(huge == .seconds(8), "a huge retry number must not overflow: it is capped, got \(huge)")
  }

  @Test func jitterUsesTheInjectedRandomSource() {
    let full = RetryPolicy(maxAttempts: 5, baseDelay: .seconds(1), maxDelay: .seconds(30), jitter: .full)
    #expect(full.backoff(beforeRetry: 3, random: .constant(0.5)) == .seconds(2), "full jitter is random × delay: 0.5 × 4 s = 2 s")
    #expect(full.backoff(beforeRetry: 3, random: .constant(0)) == .zero, "full jitter can go down to zero")
    let equal = RetryPolicy(maxAttempts: 5, baseDelay: .seconds(1), maxDelay: .seconds(30), jitter: .equal)
    #expect(equal.backoff(beforeRetry: 3, random: .constant(0)) == .seconds(2), "equal jitter never goes below half the delay (2 of 4 s)")
    #expect(equal.backoff(beforeRetry: 3, random: .constant(0.5)) == .seconds(3), "equal jitter is d/2 + random × d/2: 2 + 0.5 × 2 = 3 s")
    let random = RandomSource(SeededRandom(seed: 42))
    let spread = Set((0..<50).map { _ in full.backoff(beforeRetry: 4, random: random) })
    #expect(spread.count > 40, "a real random source must spread the waits (that is the point of jitter), got \(spread.count) distinct of 50")
    #expect(spread.allSatisfy { $0 >= .zero && $0 <= .seconds(8) }, "full jitter stays within 0…delay")
  }

  @Test func onlyIdempotentRequestsMayBeRetried() {
    let policy = RetryPolicy()
    for method in [HTTPMethod.get, .head, .put, .delete, .options] {
      #expect(policy.mayRetry(method: method, idempotencyKey: nil), "\(method.rawValue) is idempotent: sending it twice is safe")
    }
    #expect(!policy.mayRetry(method: .post, idempotencyKey: nil), "a POST sent twice may create two orders: no retry without a key")
    #expect(!policy.mayRetry(method: .patch, idempotencyKey: nil), "PATCH is not idempotent")
    #expect(policy.mayRetry(method: .post, idempotencyKey: "k"), "with an idempotency key the server deduplicates: a POST may be retried")
  }

  @Test func onlyTransientFailuresAreRetryable() {
    let policy = RetryPolicy()
    for status in [408, 429, 500, 502, 503, 504] {
      #expect(policy.isRetryable(.http(status: status, body: Data())), "\(status) is transient")
    }
    for status in [400, 403, 404, 409, 422, 501] {
      #expect(!policy.isRetryable(.http(status: status, body: Data())), "\(status) will fail the same way again")
    }
    #expect(policy.isRetryable(.timeout), "a timeout is transient")
    #expect(policy.isRetryable(.transport(.networkConnectionLost)), "a dropped connection is transient")
    #expect(!policy.isRetryable(.unauthorized), "401 is for the token refresh, not for the retry loop")
    #expect(!policy.isRetryable(.decoding("x")), "a body that does not decode will not decode next time")
    #expect(!policy.isRetryable(.cancelled), "a cancelled request must stay cancelled")
  }

  @Test("Retry-After: the three HTTP-date formats of RFC 9110 §5.6.7 name the same instant")
  func retryAfterInEveryDateFormat() {
    let now = Date(timeIntervalSince1970: 784_111_777 - 37)  // Sun, 06 Nov 1994 08:49:00 GMT
    for (format, value) in [
      ("IMF-fixdate", "Sun, 06 Nov 1994 08:49:37 GMT"),
      ("the obsolete RFC 850 form", "Sunday, 06-Nov-94 08:49:37 GMT"),
      ("asctime, whose one-digit day is padded with a space", "Sun Nov  6 08:49:37 1994"),
    ] {
      let wait = RetryPolicy.retryAfter(value, now: now)
      #expect(
        wait == .seconds(37), "\(format) (\(value)) is an HTTP-date a recipient must accept: 37 s after now, got \(String(describing: wait))")
    }
    let lateNow = Date(timeIntervalSince1970: 1_767_225_600)  // Thu, 01 Jan 2026 00:00:00 GMT
    #expect(
      RetryPolicy.retryAfter("Friday, 01-Jan-27 00:00:00 GMT", now: lateNow) == .seconds(365 * 86_400),
      "a two-digit year means the nearest year not more than 50 years ahead: 27 is 2027 in 2026")
    #expect(
      RetryPolicy.retryAfter("Sunday, 06-Nov-94 08:49:37 GMT", now: lateNow) == .zero,
      "94 would be more than 50 years ahead in 2026, so it is 1994: a past date, no wait")
    #expect(RetryPolicy.retryAfter("Thu, 29 Feb 2024 00:00:10 GMT", now: Date(timeIntervalSince1970: 1_709_164_800)) == .seconds(10), "2024 is a leap year")
  }

  @Test("Retry-After: hostile values give no delay or a capped one, never a trap")
  func retryAfterHostileValues() {
    let now = Date(timeIntervalSince1970: 1_445_412_480)
    for value in [
      "", "   ", "soon", "-5", "+5", "1.5", "1e3", "0x10", "120 s", "Sun, 06 Nov 1994 08:49:37",
      "sun, 06 nov 1994 08:49:37 GMT", "Sun, 32 Oct 2015 07:28:30 GMT", "Thu, 29 Feb 2015 07:28:30 GMT",
      "Wed, 21 Oct 2015 24:00:00 GMT", "Wed, 21 Oct 2015 07:60:00 GMT", "Wed, 21 Oct 15 07:28:30 GMT",
      "Wed, 21 Oct 2015 07:28:30 GMT and more", "Sun Nov 6 08:49:37 1994", "Sunday, 06-Nov-1994 08:49:37 GMT",
    ] {
      #expect(RetryPolicy.retryAfter(value, now: now) == nil, "\"\(value)\" is not a valid Retry-After (RFC 9110 §10.2.3): ignore it")
    }
    let policy = RetryPolicy(maxRetryAfter: .seconds(60))
    for huge in ["99999999999999999999999999", "9223372036854775807", "Fri, 31 Dec 9999 23:59:59 GMT"] {
      let wait = policy.delay(after: .http(status: 503, body: Data(), retryAfter: huge), beforeRetry: 1, random: .constant(0), now: now)
      #expect(wait == .seconds(60), "Retry-After \(huge) is a valid but huge wait: capped at maxRetryAfter (60 s), got \(wait)")
    }
    #expect(RetryPolicy.retryAfter("0", now: now) == .zero, "0 seconds is valid: retry at once")
    #expect(RetryPolicy.retryAfter("007", now: now) == .seconds(7), "delay-seconds is digits: leading zeros are fine")
  }

  @Test func retryAfterInSecondsOrHTTPDate() {
    let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
    #expect(RetryPolicy.retryAfter("120", now: now) == .seconds(120), "a number is seconds")
    #expect(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == .seconds(30), "an HTTP-date is measured from now")
    #expect(RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:27:00 GMT", now: now) == .zero, "a date in the past means no wait")
    #expect(RetryPolicy.retryAfter("soon", now: now) == nil, "garbage is ignored")
    let policy = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(10), jitter: .none, maxRetryAfter: .seconds(60))
    let asked = policy.delay(after: .http(status: 503, body: Data(), retryAfter: "7"), beforeRetry: 1, random: .constant(0), now: now)
    #expect(asked == .seconds(7), "the server's Retry-After wins over the backoff, got \(asked)")
    let capped = policy.delay(after: .http(status: 429, body: Data(), retryAfter: "3600"), beforeRetry: 1, random: .constant(0), now: now)
    #expect(capped == .seconds(60), "a Retry-After of an hour is capped at maxRetryAfter, got \(capped)")
  }

  @Test("no wait after the final attempt")
  func noWaitAfterTheLastAttempt() async {
    let clock = ManualClock()
    let policy = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(10), jitter: .none)
    let attempts = Counter()
    let done = Counter()
    let task = Task {
      defer { done.increment() }
      return try await policy.run(method: .get, clock: clock, random: .constant(0)) { _ -> Int in
        attempts.increment()
        throw NetworkError.http(status: 503, body: Data())
      }
    }
    for _ in 0..<2 {
      guard await clock.waitForSleepers(1, giveUp: { done.value == 1 }) else { break }
      await clock.advance(by: .seconds(10))
    }
    let finished = await eventually { done.value == 1 }
    #expect(finished, "after the last attempt failed the loop must throw at once, not sleep: it is still waiting")
    await wakeSleepers(on: clock, of: task, until: done, .tasks)  // a loop that sleeps again still ends
    let error = await failure(of: task)
    #expect(error == .http(status: 503, body: Data()), "the last failure should reach the caller, got \(String(describing: error))")
    #expect(attempts.value == 3, "maxAttempts 3 means exactly 3 attempts, got \(attempts.value)")
    #expect(clock.sleepHistory == [.seconds(1), .seconds(2)], "3 attempts need exactly 2 waits (1 s, 2 s), got \(clock.sleepHistory)")
  }

  @Test func aPOSTIsNotRetriedUnlessItHasAKey() async {
    let clock = ManualClock()
    let policy = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(10), jitter: .none)
    let attempts = Counter()
    let posted = Counter()
    let post = Task {
      defer { posted.increment() }
      return try await policy.run(method: .post, clock: clock, random: .constant(0)) { _ -> Int in
        attempts.increment()
        throw NetworkError.http(status: 503, body: Data())
      }
    }
    // A wrong loop sleeps before retrying the POST: move time so the test ends and reports it.
    await wakeSleepers(on: clock, of: post, until: posted, .tasks)
    let error = await failure(of: post)
    #expect(error == .http(status: 503, body: Data()), "the POST's failure should reach the caller")
    #expect(attempts.value == 1, "a POST without an idempotency key must be sent once, it was sent \(attempts.value) times")
    #expect(clock.sleepHistory.isEmpty, "nothing to wait for when there is no retry")

    let keyed = Counter()
    let done = Counter()
    let task = Task {
      defer { done.increment() }
      return try await policy.run(method: .post, idempotencyKey: "order-1", clock: clock, random: .constant(0)) { attempt -> Int in
        keyed.increment()
        if attempt == 1 { throw NetworkError.http(status: 503, body: Data()) }
        return attempt
      }
    }
    if await clock.waitForSleepers(1, giveUp: { done.value == 1 }) { await clock.advance(by: .seconds(1)) }
    await wakeSleepers(on: clock, of: task, until: done, .tasks)
    #expect((try? await task.value) == 2, "a POST with an idempotency key may be retried and succeed on attempt 2")
  }

  @Test func cancellationDuringTheWaitStopsAtOnce() async {
    let clock = ManualClock()
    let policy = RetryPolicy(maxAttempts: 5, baseDelay: .seconds(30), maxDelay: .seconds(30), jitter: .none)
    let attempts = Counter()
    let done = Counter()
    let task = Task {
      defer { done.increment() }
      return try await policy.run(method: .get, clock: clock, random: .constant(0)) { _ -> Int in
        attempts.increment()
        throw NetworkError.timeout
      }
    }
    let slept = await clock.waitForSleepers(1) { done.value == 1 }
    #expect(slept, "after a timeout the loop should wait on the injected clock before retrying")
    task.cancel()
    let error = await failure(of: task)
    #expect(error == .cancelled, "cancelling during the wait should throw .cancelled, got \(String(describing: error))")
    #expect(attempts.value == 1, "no attempt may start after cancellation, saw \(attempts.value)")
  }

  @Test("integration: real 503s with Retry-After are retried on the injected clock")
  func retriesRealServiceUnavailable() async throws {
    try await withServer { server in
      server.chaos.failNext(2, status: 503, retryAfter: 1)
      let clock = ManualClock()
      let session = URLSession(configuration: .ephemeral)
      defer { session.finishTasksAndInvalidate() }
      let policy = RetryPolicy(maxAttempts: 4, baseDelay: .seconds(5), maxDelay: .seconds(30), jitter: .full)
      let url = server.baseURL.appendingPathComponent("v1/feed")
      let done = Counter()
      let task = Task {
        defer { done.increment() }
        return try await policy.run(method: .get, clock: clock, random: .constant(0.5)) { _ -> Int in
          let (response, data) = try await fetch(session, URLRequest(url: url))
          try NetworkError.check(response, body: data)
          return response.statusCode
        }
      }
      // Each attempt runs on URLSession's threads and the server's: the waits for a sleep poll.
      for _ in 0..<2 {
        guard await clock.waitForSleepers(1, .threads, giveUp: { done.value == 1 }) else { break }
        await clock.advance(by: .seconds(1))
      }
      // A loop that ignores Retry-After sleeps longer: let it finish so the test can report it.
      await wakeSleepers(on: clock, of: task, until: done, step: .seconds(100))
      let status = try? await task.value
      #expect(status == 200, "two 503s then a success: the third attempt should return 200")
      #expect(server.requestCount("/v1/feed") == 3, "the server should have seen 3 requests, saw \(server.requestCount("/v1/feed"))")
      #expect(
        clock.sleepHistory == [.seconds(1), .seconds(1)],
        "each wait should be the server's Retry-After (1 s), not the 2.5 s backoff; got \(clock.sleepHistory)")
    }
  }

  @Test("a retry number below 1 waits like the first retry")
  func backoffBelowTheFirstRetry() {
    let policy = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(500), maxDelay: .seconds(8), jitter: .none)
    for retry in [0, -3, Int.min] {
      let wait = policy.backoff(beforeRetry: retry, random: .constant(0.3))
      #expect(wait == .milliseconds(500), "a retry number below 1 counts as 1 (the doc comment says so), so the wait is baseDelay; got \(wait) for \(retry)")
    }
  }

  @Test("Retry-After: spaces and tabs around the value are no part of it (RFC 9110 §5.5)")
  func retryAfterIgnoresSurroundingSpaces() {
    let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
    #expect(RetryPolicy.retryAfter(" 120 ", now: now) == .seconds(120), "\" 120 \" is 120 seconds: the spaces around a field value are not part of it")
    #expect(RetryPolicy.retryAfter("\t7", now: now) == .seconds(7), "a tab before the digits is whitespace too: 7 seconds")
    #expect(
      RetryPolicy.retryAfter("  Wed, 21 Oct 2015 07:28:30 GMT ", now: now) == .seconds(30),
      "a date with spaces around it is still the date: 30 s after now")
    #expect(RetryPolicy.retryAfter("1 20", now: now) == nil, "a space inside the digits is not around the value: ignore the header")
  }

  @Test("Retry-After: a date's wait is exact to the millisecond, not cut to whole seconds")
  func retryAfterDateToTheMillisecond() {
    let now = Date(timeIntervalSince1970: 1_445_412_480.25)  // 07:28:00.250 GMT
    let wait = RetryPolicy.retryAfter("Wed, 21 Oct 2015 07:28:30 GMT", now: now)
    #expect(
      wait == .milliseconds(29_750),
      "07:28:30 is 29.75 s after 07:28:00.250: a wait cut to 29 s retries before the server's time, 30 s waits longer than asked; got \(String(describing: wait))"
    )
  }

  @Test("Retry-After counts with whatever status it came, and is not jittered")
  func retryAfterWithAnyStatus() {
    let now = Date(timeIntervalSince1970: 1_445_412_480)
    let policy = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(10), jitter: .full, maxRetryAfter: .seconds(60))
    for status in [500, 502, 503, 504, 408, 429] {
      let wait = policy.delay(after: .http(status: status, body: Data(), retryAfter: "5"), beforeRetry: 1, random: .constant(0.5), now: now)
      #expect(
        wait == .seconds(5),
        "a \(status) that asks for 5 s gets exactly 5 s: the header counts with any status and the server's time is not jittered; got \(wait)")
    }
    let backoff = policy.delay(after: .http(status: 500, body: Data()), beforeRetry: 1, random: .constant(0.5), now: now)
    #expect(backoff == .milliseconds(500), "without Retry-After the wait is the jittered backoff, 0.5 × 1 s; got \(backoff)")
  }

  @Test("maxAttempts below 1 still makes the one attempt")
  func atLeastOneAttempt() async {
    let clock = ManualClock()
    let policy = RetryPolicy(maxAttempts: 0, baseDelay: .seconds(1), maxDelay: .seconds(10), jitter: .none)
    let attempts = Counter()
    let result = await outcome(on: clock) {
      try await policy.run(method: .get, clock: clock, random: .constant(0)) { _ -> Int in
        attempts.increment()
        throw NetworkError.http(status: 503, body: Data())
      }
    }
    #expect(attempts.value == 1, "a maxAttempts below 1 counts as 1: the request is sent once, not never and not again; sent \(attempts.value) times")
    #expect(
      result.networkError == .http(status: 503, body: Data()), "the one attempt's failure reaches the caller, got \(String(describing: result.networkError))")
    #expect(clock.sleepHistory.isEmpty, "one attempt leaves nothing to wait for, but the loop waited \(clock.sleepHistory)")
  }

  @Test("a task cancelled before run never sends the request")
  func cancelledBeforeTheFirstAttempt() async {
    let clock = ManualClock()
    let policy = RetryPolicy(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(10), jitter: .none)
    let attempts = Counter()
    let result = await outcome(on: clock) {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await policy.run(method: .get, clock: clock, random: .constant(0)) { _ -> Int in
        attempts.increment()
        return 1
      }
    }
    #expect(
      attempts.value == 0,
      "the task was cancelled before run: cancellation before an attempt, the first one included, throws at once; the operation ran \(attempts.value) times"
    )
    #expect(result.networkError == .cancelled, "a cancelled caller gets .cancelled, got \(String(describing: result.networkError))")
  }

  @Test("only the listed transport codes and statuses are retried: offline, encoding and a bad URL are not")
  func onlyTheListedFailuresAreRetried() {
    let policy = RetryPolicy()
    for code in RetryPolicy.transientCodes {
      #expect(policy.isRetryable(.transport(code)), "\(code) is one of the transient codes: it should be retried")
    }
    for code in [URLError.Code.secureConnectionFailed, .badServerResponse, .unsupportedURL, .userAuthenticationRequired] {
      #expect(!policy.isRetryable(.transport(code)), "\(code) is not a transient code: a second try fails the same way")
    }
    #expect(!policy.isRetryable(.offline), "offline waits for the connection to come back, not for a retry timer")
    #expect(!policy.isRetryable(.encoding("x")), "a body that could not be encoded cannot be encoded next time either")
    #expect(!policy.isRetryable(.badURL("x")), "a bad URL stays bad")
  }

  @Test("the doubled delay never passes maxDelay, even when the cap is no power of two of the base")
  func theBackoffNeverPassesTheCap() {
    let policy = RetryPolicy(maxAttempts: 10, baseDelay: .milliseconds(500), maxDelay: .seconds(5), jitter: .none)
    let waits = (1...6).map { policy.backoff(beforeRetry: $0, random: .constant(0.3)) }
    let expected: [Duration] = [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)]
    #expect(waits == expected, "without jitter the waits are 0.5, 1, 2, 4, then capped at 5 s; got \(waits)")
    let full = RetryPolicy(maxAttempts: 10, baseDelay: .milliseconds(500), maxDelay: .seconds(5), jitter: .full)
    let longest = full.backoff(beforeRetry: 8, random: .constant(1))
    #expect(longest == .seconds(5), "full jitter with a draw of 1 is the whole capped delay, 5 s; got \(longest)")
  }

  @Test("RetryPolicy.never sends the request once")
  func neverRetries() async {
    let clock = ManualClock()
    let attempts = Counter()
    let result = await outcome(on: clock) {
      try await RetryPolicy.never.run(method: .get, clock: clock, random: .constant(0)) { _ -> Int in
        attempts.increment()
        throw NetworkError.http(status: 503, body: Data())
      }
    }
    #expect(attempts.value == 1, "RetryPolicy.never is one attempt and no retry; the request was sent \(attempts.value) times")
    #expect(result.networkError == .http(status: 503, body: Data()), "the one failure reaches the caller, got \(String(describing: result.networkError))")
    #expect(clock.sleepHistory.isEmpty, "one attempt leaves nothing to wait for, but the loop waited \(clock.sleepHistory)")
  }
}
