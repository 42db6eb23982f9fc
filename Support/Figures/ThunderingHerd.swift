import WorkbookTesting

/// The thundering herd: many clients fail during an outage and retry on a backoff schedule.
///
/// Every client sends its first request in the first 100 ms; while the server is down each
/// attempt fails and the client waits `delay(retry)` before the next one, up to `maxAttempts`.
/// The result counts requests per 100 ms bucket: without jitter the retries arrive in synchronized
/// waves that hit the recovering server all at once.
struct ThunderingHerd {
  var clients = 1_000
  var outage = 4.0
  var maxAttempts = 8
  var horizon = 20.0
  var bucket = 0.1

  /// Requests per bucket, for a backoff given as "seconds to wait before retry `n`".
  func requestsPerBucket(seed: UInt64, delay: (_ retry: Int, _ random: inout SeededRandom) -> Double) -> [Double] {
    var random = SeededRandom(seed: seed)
    var counts = [Double](repeating: 0, count: Int(horizon / bucket))
    for _ in 0..<clients {
      var time = random.unit() * 0.1
      for attempt in 1...maxAttempts {
        let index = Int(time / bucket)
        if index < counts.count { counts[index] += 1 }
        if time >= outage { break }  // the server is back: this attempt succeeds
        if attempt == maxAttempts { break }
        time += delay(attempt, &random)
      }
    }
    return counts
  }
}
