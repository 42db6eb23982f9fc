import Foundation
import Testing
import WorkbookTesting

@testable import ImageCache

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The cost table promises `prefetch` in O(k) for k URLs, whatever is already queued: a set
/// answers "already queued?" in O(1). `GrowthCheck` times the prefetch of one new URL with 100
/// URLs waiting, then 1,000, 10,000 and 100,000, and fails when it costs more than 20× what it
/// cost with 100: asking the queue itself (`queue.contains(url)`) compares the URL with every
/// waiting one. (A prefetch is a hop to the actor, which a loaded machine makes slow at every
/// size; 100,000 keeps a search of the queue far above that.)
@Suite("Exercise 7 — A polite prefetcher (cost)", .timeLimit(.minutes(1)))
struct Exercise7_ImagePrefetcherCostTests {
  @Test("prefetching a new URL costs the same with 100 URLs waiting and with 100,000")
  func prefetchCostsTheSameWhateverIsQueued() async {
    var prefetchers: [ImagePrefetcher] = []
    let verdict = await GrowthCheck(sizes: [1_000, 10_000, 100_000], unit: "URLs waiting").run { waiting in
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
  /// and `waiting` URLs queued behind it, and a round of 200 prefetches of one new URL each.
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
        let fresh = (next..<(next + 200)).map(url)
        next += 200
        await timer.time("prefetch of a new URL", calls: fresh.count) { await prefetcher.prefetch([fresh[$0]]) }
      }
    )
  }
}
