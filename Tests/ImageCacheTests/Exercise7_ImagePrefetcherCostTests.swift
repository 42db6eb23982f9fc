import Foundation
import Testing
import WorkbookTesting

@testable import ImageCache

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The cost table promises `prefetch` in O(k) for k URLs, whatever is already queued: a set
/// answers "already queued?" in O(1). `GrowthCheck` times prefetches of 20 new URLs with 10 URLs
/// waiting, then 1,000, 10,000 and 20,000, and fails when one costs more than 20× what it cost
/// with 10: asking the queue itself (`queue.contains(url)`) compares each URL with every waiting
/// one. The baseline is 10 URLs, not 100: a comparison of two URLs costs about 100 ns here, so
/// with 100 waiting the search was already four fifths of the baseline, and the search measured
/// only 80× at 10,000 (once, in a busy CI run, under 20× at every size). With 10 waiting, the
/// baseline is mostly the hop to the actor and the hashing that every answer pays. A round makes
/// five such calls and then cancels the 100 URLs it added, so every round starts from the size it
/// is timed at. The queue is filled through the same check, so its largest size stays at 20,000
/// (with a search, filling 100,000 took minutes), and each size is filled once and reused by the
/// check's attempts: wrong code must fail about as fast as right code passes.
@Suite("Exercise 7 — A polite prefetcher (cost)", .timeLimit(.minutes(1)))
struct Exercise7_ImagePrefetcherCostTests {
  @Test("prefetching new URLs costs the same with 10 URLs waiting and with 20,000")
  func prefetchCostsTheSameWhateverIsQueued() async {
    // One prefetcher per size, built once: every round leaves it at its size, and a search
    // fills 10,000 in seconds, which the check's three attempts would otherwise pay three times.
    var built: [Int: ImagePrefetcher] = [:]
    let newURLs = Counter()
    let verdict = await GrowthCheck(baselineSize: 10, sizes: [1_000, 10_000, 20_000], unit: "URLs waiting").run { waiting in
      let (prefetcher, workload) = await Self.prefetchWorkload(waiting: waiting, reusing: built[waiting], newURLs: newURLs)
      built[waiting] = prefetcher
      return workload
    }
    for prefetcher in built.values { await prefetcher.stop() }
    if let failure = verdict.message(possibleCauses: [
      "\"is this URL queued already?\" answered by the queue itself (`queue.contains(url)`), which walks every "
        + "waiting URL, where a `Set` of the waiting URLs beside the array answers with one hash lookup",
      "a prefetch that copies or rebuilds the queue",
    ]) {
      Issue.record("\(failure)")
    }
  }

  /// A prefetcher with one load running (its fetch never ends: it sleeps on a clock nobody moves)
  /// and `waiting` URLs queued behind it (`prefetcher` when given, which earlier rounds left at
  /// that size), and a round of 5 prefetches of 20 new URLs each, whose URLs are cancelled once the
  /// calls are timed. `newURLs` numbers the new URLs, so that no URL is prefetched twice.
  static func prefetchWorkload(
    waiting: Int, reusing prefetcher: ImagePrefetcher?, newURLs: Counter
  ) async -> (ImagePrefetcher, GrowthCheck.Workload) {
    func url(_ number: Int) -> URL { URL(string: "https://images.example.com/row/\(number).png")! }
    let prefetcher = if let prefetcher { prefetcher } else { await Self.prefetcher(waiting: waiting, url: url) }
    guard await prefetcher.pendingCount == waiting, await prefetcher.runningCount == 1 else {
      return (
        prefetcher,
        .broken(
          "prefetch of \(waiting + 1) URLs with maxConcurrent 1 should run 1 and queue \(waiting), and cancelling "
            + "the URLs queued after them should leave \(waiting) queued; the prefetcher's own tests say what is missing")
      )
    }
    return (
      prefetcher,
      .ready { timer in
        let batches = (0..<5).map { _ in (0..<20).map { _ in url(waiting + 1 + newURLs.increment()) } }
        await timer.time("prefetch of 20 new URLs", calls: batches.count) { await prefetcher.prefetch(batches[$0]) }
        await prefetcher.cancelPrefetching(batches.flatMap { $0 })
      }
    )
  }

  private static func prefetcher(waiting: Int, url: (Int) -> URL) async -> ImagePrefetcher {
    let clock = ManualClock()
    let fetch: ImageFetch = { _ in
      try await clock.sleep(for: .seconds(3_600))
      throw URLError(.timedOut)
    }
    let prefetcher = ImagePrefetcher(loader: ImageLoader(fetch: fetch, diskCache: nil), maxConcurrent: 1)
    await prefetcher.prefetch((0...waiting).map(url))
    return prefetcher
  }
}
