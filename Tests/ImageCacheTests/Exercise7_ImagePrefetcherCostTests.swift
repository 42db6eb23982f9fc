import Foundation
import Testing
import WorkbookTesting

@testable import ImageCache

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The cost table promises `prefetch` in O(k) for k URLs, whatever is already queued: a set
/// answers "already queued?" in O(1). `GrowthCheck` times a prefetch of 20 new URLs with 100 URLs
/// waiting, then 1,000, 10,000 and 20,000, and fails when it costs more than 20× what it cost with
/// 100: asking the queue itself (`queue.contains(url)`) compares each URL with every waiting one.
/// Twenty URLs a call share one hop to the actor, which a debug build on a busy machine makes
/// cost about 55 µs at every size, so the search is most of what a wrong answer's call costs (one
/// URL a call measured only 21× at 10,000). The queue is filled through the same check, so its
/// largest size stays at 20,000: with a search, filling 100,000 took minutes, and wrong code must
/// fail about as fast as right code passes.
@Suite("Exercise 7 — A polite prefetcher (cost)", .timeLimit(.minutes(1)))
struct Exercise7_ImagePrefetcherCostTests {
  @Test("prefetching new URLs costs the same with 100 URLs waiting and with 20,000")
  func prefetchCostsTheSameWhateverIsQueued() async {
    var prefetchers: [ImagePrefetcher] = []
    let verdict = await GrowthCheck(sizes: [1_000, 10_000, 20_000], unit: "URLs waiting").run { waiting in
      let (prefetcher, workload) = await Self.prefetchWorkload(waiting: waiting)
      prefetchers.append(prefetcher)
      return workload
    }
    for prefetcher in prefetchers { await prefetcher.stop() }
    if let failure = verdict.message(possibleCauses: [
      "\"is this URL queued already?\" answered by the queue itself (`queue.contains(url)`), which walks every "
        + "waiting URL, where a `Set` of the waiting URLs beside the array answers with one hash lookup",
      "a prefetch that copies or rebuilds the queue",
    ]) {
      Issue.record("\(failure)")
    }
  }

  /// A prefetcher with one load running (its fetch never ends: it sleeps on a clock nobody moves)
  /// and `waiting` URLs queued behind it, and a round of 20 prefetches of 20 new URLs each.
  static func prefetchWorkload(waiting: Int) async -> (ImagePrefetcher, GrowthCheck.Workload) {
    let clock = ManualClock()
    let fetch: ImageFetch = { _ in
      try await clock.sleep(for: .seconds(3_600))
      throw URLError(.timedOut)
    }
    let prefetcher = ImagePrefetcher(loader: ImageLoader(fetch: fetch, diskCache: nil), maxConcurrent: 1)
    func url(_ number: Int) -> URL { URL(string: "https://images.example.com/row/\(number).png")! }
    await prefetcher.prefetch((0...waiting).map(url))
    guard await prefetcher.pendingCount == waiting, await prefetcher.runningCount == 1 else {
      return (
        prefetcher,
        .broken(
          "prefetch of \(waiting + 1) URLs with maxConcurrent 1 should run 1 and queue \(waiting); "
            + "the prefetcher's own tests say what is missing")
      )
    }
    var next = waiting + 1
    return (
      prefetcher,
      .ready { timer in
        let batches = (0..<20).map { batch in (next + batch * 20..<next + (batch + 1) * 20).map(url) }
        next += 400
        await timer.time("prefetch of 20 new URLs", calls: batches.count) { await prefetcher.prefetch(batches[$0]) }
      }
    )
  }
}
