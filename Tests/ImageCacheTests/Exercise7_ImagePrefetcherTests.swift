import Foundation
import Testing
import WorkbookTesting

@testable import ImageCache

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Exercise 7 — A polite prefetcher", .timeLimit(.minutes(1)))
struct Exercise7_ImagePrefetcherTests {
  /// A fake network: every fetch sleeps one second on `clock`, and the fetches running at once,
  /// their priorities and their cancellations are recorded. An `NSLock` guards the record.
  final class Network: @unchecked Sendable {
    let clock = ManualClock()
    let fetches = Counter()
    let cancellations = Counter()
    private let lock = NSLock()
    private var active = 0
    private var mostActive = 0
    private var seenPriorities: [TaskPriority] = []
    private var seenURLs: [URL] = []

    var maximumConcurrency: Int { lock.withLock { mostActive } }
    var priorities: [TaskPriority] { lock.withLock { seenPriorities } }
    /// The URLs fetched, in the order their fetches started.
    var fetchedURLs: [URL] { lock.withLock { seenURLs } }

    func fetch() -> ImageFetch {
      { [self] url in
        fetches.increment()
        lock.withLock {
          active += 1
          mostActive = max(mostActive, active)
          seenPriorities.append(Task.currentPriority)
          seenURLs.append(url)
        }
        defer { lock.withLock { active -= 1 } }
        do {
          try await clock.sleep(for: .seconds(1))
        } catch {
          cancellations.increment()
          throw error
        }
        return (SampleImages.png(width: 3, height: 3), StubURLProtocol.response(for: URLRequest(url: url)))
      }
    }
  }

  func urls(_ count: Int, _ prefix: String = "row") -> [URL] {
    (0..<count).map { URL(string: "https://images.example.com/\(prefix)/\($0).png")! }
  }

  /// Waits for `count` fetches to sleep on the network clock, giving up if the prefetcher has
  /// nothing running or queued (as the starter never has).
  @discardableResult
  func waitForFetches(_ count: Int, _ network: Network, _ prefetcher: ImagePrefetcher) async -> Bool {
    await eventually(giveUp: {
      let (running, pending) = (await prefetcher.runningCount, await prefetcher.pendingCount)
      return running == 0 && pending == 0 && network.clock.sleepers < count
    }) {
      network.clock.sleepers >= count
    }
  }

  @Test("at most 2 loads at a time by default, and every URL is loaded in the end")
  func boundedConcurrency() async throws {
    let network = Network()
    let loader = ImageLoader(fetch: network.fetch(), diskCache: nil)
    let prefetcher = ImagePrefetcher(loader: loader)
    #expect(prefetcher.maxConcurrent == 2, "the default concurrency should be 2")
    let list = urls(10)
    await prefetcher.prefetch(list)
    for round in 1...5 {
      // Everything is parked: every load that was going to start has started.
      await settle()
      let running = network.clock.sleepers
      #expect(running == 2, "round \(round) of 5: with URLs still queued, exactly 2 fetches should run; \(running) are running")
      guard running == 2 else { break }
      await network.clock.advance(by: .seconds(1))  // both finish, and their slots go to the next two
    }
    let completed = await prefetcher.completedCount
    #expect(completed == 10, "all 10 URLs should be prefetched, 2 at a time; completed \(completed)")
    #expect(network.maximumConcurrency == 2, "never more than 2 fetches at once (and 2 when there is work); saw \(network.maximumConcurrency)")
    for url in list {
      #expect(loader.memoryCache.contains(url), "a prefetched image should be in the memory cache")
    }
  }

  @Test("prefetches run at low priority")
  func lowPriority() async throws {
    let network = Network()
    let loader = ImageLoader(fetch: network.fetch(), diskCache: nil)
    let prefetcher = ImagePrefetcher(loader: loader)
    await prefetcher.prefetch(urls(2))
    await waitForFetches(2, network, prefetcher)
    await network.clock.advance(by: .seconds(1))
    let priorities = network.priorities
    #expect(!priorities.isEmpty && priorities.allSatisfy { $0 <= .low }, "prefetch work must not compete with visible cells: priorities \(priorities)")
  }

  @Test("URLs already cached are skipped without a request")
  func skipsCached() async throws {
    let network = Network()
    let loader = ImageLoader(fetch: network.fetch(), diskCache: nil)
    let list = urls(3)
    loader.memoryCache.setValue(DecodedImage(format: .png, width: 1, height: 1, bytes: Data()), forKey: list[0])
    let prefetcher = ImagePrefetcher(loader: loader)
    await prefetcher.prefetch(list)
    await waitForFetches(2, network, prefetcher)
    await network.clock.advance(by: .seconds(1))
    #expect(network.fetches.value == 2, "the cached URL should not be fetched; fetches: \(network.fetches.value)")
    #expect(await prefetcher.skippedCount == 1, "one URL was already cached and should count as skipped")
    let completed = await prefetcher.completedCount
    #expect(completed == 2, "two prefetches ran to the end; a skipped URL is not also completed, got \(completed)")
  }

  @Test("a URL asked for twice is queued once")
  func aURLIsQueuedOnce() async throws {
    let network = Network()
    let loader = ImageLoader(fetch: network.fetch(), diskCache: nil)
    let prefetcher = ImagePrefetcher(loader: loader, maxConcurrent: 1)
    let list = urls(2)
    await prefetcher.prefetch(list)
    await prefetcher.prefetch(list)
    let (running, pending) = (await prefetcher.runningCount, await prefetcher.pendingCount)
    #expect(
      running + pending == 2,
      "2 URLs asked for twice are 2 prefetches: a URL already queued or running is not queued again; \(running) running, \(pending) queued")
    await prefetcher.stop()
  }

  @Test("a URL already loading does not take a prefetch slot")
  func skipsInFlight() async throws {
    let network = Network()
    let loader = ImageLoader(fetch: network.fetch(), diskCache: nil)
    let list = urls(3)
    let visible = Task { try await loader.image(for: list[0]) }
    await network.clock.waitForSleepers(1)
    let prefetcher = ImagePrefetcher(loader: loader)
    await prefetcher.prefetch(list)
    let both = await waitForFetches(3, network, prefetcher)
    #expect(both, "the visible load plus 2 prefetches should run: a URL already loading must be skipped, not occupy a slot")
    #expect(await prefetcher.skippedCount == 1, "the in-flight URL counts as skipped")
    await network.clock.advance(by: .seconds(1))
    _ = try await visible.value
    #expect(network.fetches.value == 3, "three URLs, three fetches")
  }

  @Test("stop cancels the running loads and drops the queue")
  func stopCancelsEverything() async throws {
    let network = Network()
    let loader = ImageLoader(fetch: network.fetch(), diskCache: nil)
    let prefetcher = ImagePrefetcher(loader: loader)
    await prefetcher.prefetch(urls(5))
    await waitForFetches(2, network, prefetcher)
    await prefetcher.stop()
    await settle()  // the cancelled loads have reported back
    #expect(network.cancellations.value == 2, "stop should cancel both running fetches; cancelled \(network.cancellations.value)")
    let (running, pending) = (await prefetcher.runningCount, await prefetcher.pendingCount)
    #expect(pending == 0 && running == 0, "after stop nothing is queued or running: \(pending) queued, \(running) running")
    #expect(network.fetches.value == 2, "no queued URL may start after stop, not even when a cancelled load reports back; fetches \(network.fetches.value)")
    await network.clock.run()
    #expect(network.fetches.value == 2, "no queued URL may start after stop; fetches \(network.fetches.value)")
  }

  @Test("releasing the prefetcher cancels its loads")
  func releaseCancels() async throws {
    let network = Network()
    let loader = ImageLoader(fetch: network.fetch(), diskCache: nil)
    var prefetcher: ImagePrefetcher? = ImagePrefetcher(loader: loader)
    await prefetcher?.prefetch(urls(4))
    if let prefetcher { await waitForFetches(2, network, prefetcher) }
    prefetcher = nil
    let cancelled = await eventually { network.cancellations.value == 2 }
    #expect(cancelled, "a released prefetcher must cancel its loads (and its tasks must not keep it alive); cancelled \(network.cancellations.value)")
  }

  @Test("stopping the prefetcher does not cancel a visible load of the same URL")
  func visibleLoadSurvivesStop() async throws {
    let network = Network()
    let loader = ImageLoader(fetch: network.fetch(), diskCache: nil)
    let url = urls(1)[0]
    let prefetcher = ImagePrefetcher(loader: loader)
    await prefetcher.prefetch([url])
    await waitForFetches(1, network, prefetcher)
    // The visible cell joins the prefetch's flight for the same URL, then the prefetcher stops.
    let visible = await joined(1, on: loader.coalescer, key: url, alreadyWaiting: 1) { _ in try await loader.image(for: url) }
    await prefetcher.stop()
    await settle()
    #expect(await loader.coalescer.waiterCount(for: url) == 1, "after stop only the visible cell waits for the image")
    #expect(network.cancellations.value == 0, "the fetch had a visible waiter and must not be cancelled")
    await network.clock.run()
    // A waiter that is never resumed would hold this test forever: read its image only once it
    // has returned.
    let answered = await eventually { visible.allFinished }
    #expect(answered, "after the fetch finished, the visible cell is still waiting for its image")
    guard answered else { return }
    let image = try await visible.tasks[0].value
    #expect(image.width == 3, "the visible cell still gets its image")
    #expect(network.cancellations.value == 0, "the fetch had a visible waiter and must not be cancelled")
  }

  @Test("cancelPrefetching cancels one URL and frees its slot for the next")
  func cancelOne() async throws {
    let network = Network()
    let loader = ImageLoader(fetch: network.fetch(), diskCache: nil)
    let list = urls(3)
    let prefetcher = ImagePrefetcher(loader: loader)
    await prefetcher.prefetch(list)
    await waitForFetches(2, network, prefetcher)
    await prefetcher.cancelPrefetching([list[0]])
    await settle()
    #expect(network.cancellations.value == 1, "the URL scrolled away from should be cancelled")
    #expect(
      network.fetches.value == 3 && network.clock.sleepers == 2,
      "its slot should go to the next queued URL, and only that slot: \(network.fetches.value) fetches started, \(network.clock.sleepers) running")
    await network.clock.run()
  }

  @Test(
    "a cancelled prefetch that reports back late leaves the newer run of its URL alone",
    arguments: ["cancelPrefetching", "stop"])
  func aLateFinishLeavesTheNewerRunAlone(cancelledBy: String) async throws {
    let network = Network()
    let loader = ImageLoader(fetch: network.fetch(), diskCache: nil)
    let hold = Gate()
    let loads = Counter()
    // The first load is held after it ends, before its task reports back to the prefetcher.
    let prefetcher = ImagePrefetcher(
      loader: loader, maxConcurrent: 1,
      loadEnded: { _ in
        if loads.increment() == 1 { await hold.pass() }
      })
    let list = urls(2)
    await prefetcher.prefetch([list[0]])
    let started = await waitForFetches(1, network, prefetcher)
    #expect(started, "prefetching a URL should start its load")
    guard started else { return }
    if cancelledBy == "stop" { await prefetcher.stop() } else { await prefetcher.cancelPrefetching([list[0]]) }
    let held = await hold.arrivals(1)
    #expect(held, "each prefetch task should await loadEnded(url) once its load is over, before it reports back: the test holds the cancelled load there")
    guard held else {
      await network.clock.run()
      return
    }
    await settle()
    // The same URL is prefetched again while the cancelled run has not reported back yet.
    await prefetcher.prefetch([list[0]])
    await waitForFetches(1, network, prefetcher)
    await prefetcher.prefetch([list[1]])  // waits for the one slot
    hold.open()
    await settle()  // the cancelled run has reported back now
    let (running, pending) = (await prefetcher.runningCount, await prefetcher.pendingCount)
    #expect(
      running == 1 && pending == 1 && network.clock.sleepers == 1,
      "the cancelled run reported after its URL started again: it must leave that newer run alone (compare the run's id), so 1 runs and 1 waits; \(running) running, \(pending) queued, \(network.clock.sleepers) fetches running"
    )
    #expect(await prefetcher.completedCount == 0, "a cancelled run that reports late is not a completed prefetch")
    await prefetcher.stop()
    await settle()
    #expect(network.cancellations.value == 2, "stop must still reach the newer run; \(network.cancellations.value) of 2 fetches were cancelled")
    await network.clock.run()
  }

  @Test(
    "a prefetch cancelled after its load finished, before it reported back, is not counted",
    arguments: ["cancelPrefetching", "stop"])
  func aLoadThatFinishedBeforeTheCancelIsNotCounted(cancelledBy: String) async throws {
    let network = Network()
    let loader = ImageLoader(fetch: network.fetch(), diskCache: nil)
    let hold = Gate()
    // The load is held after it ends, before its task reports back to the prefetcher.
    let prefetcher = ImagePrefetcher(loader: loader, maxConcurrent: 1, loadEnded: { _ in await hold.pass() })
    let url = urls(1)[0]
    await prefetcher.prefetch([url])
    let started = await waitForFetches(1, network, prefetcher)
    #expect(started, "prefetching a URL should start its load")
    guard started else { return }
    await network.clock.advance(by: .seconds(1))  // the fetch returns its image: the load is over
    let held = await hold.arrivals(1)
    #expect(held, "each prefetch task should await loadEnded(url) once its load is over, before it reports back: the test holds the finished load there")
    guard held else { return }
    #expect(network.cancellations.value == 0, "the load had finished before the cancel")
    if cancelledBy == "stop" { await prefetcher.stop() } else { await prefetcher.cancelPrefetching([url]) }
    hold.open()
    await settle()  // the cancelled prefetch has reported back now
    #expect(
      await prefetcher.completedCount == 0,
      "the prefetch was cancelled (by \(cancelledBy)) before it reported back: a cancelled prefetch is not completed, even when its load had finished")
    #expect(await prefetcher.skippedCount == 0, "nor is it skipped")
    let (running, pending) = (await prefetcher.runningCount, await prefetcher.pendingCount)
    #expect(running == 0 && pending == 0, "nothing runs or waits after the cancel: \(running) running, \(pending) queued")
  }

  @Test("a URL queued before stop is never loaded after it, even when a prefetch arrives as the cancelled loads end")
  func stopDropsTheQueueAtOnce() async throws {
    let network = Network()
    let loader = ImageLoader(fetch: network.fetch(), diskCache: nil)
    let hold = Gate()
    // Every load is held after it ends (cancelled or not), before its task reports back.
    let prefetcher = ImagePrefetcher(loader: loader, loadEnded: { _ in await hold.pass() })
    await prefetcher.prefetch(urls(5))
    let started = await waitForFetches(2, network, prefetcher)
    #expect(started, "prefetching 5 URLs should start 2 loads")
    guard started else { return }
    // stop is called from a task of its own: the test goes on even if stop waits for something.
    let stopping = Task { await prefetcher.stop() }
    let cancelled = await eventually { network.cancellations.value == 2 }
    let held = await hold.arrivals(2)
    #expect(cancelled && held, "stop should cancel both running loads, which then end and are held before they report back")
    // A new row asks for its image while the cancelled loads have not reported back.
    let fresh = urls(1, "fresh")[0]
    await prefetcher.prefetch([fresh])
    await settle()
    #expect(
      network.fetches.value == 3,
      "after stop only the URL prefetched since may load (2 cancelled + 1 new = 3 fetches); \(network.fetches.value) fetches started: a URL queued before stop was loaded after it"
    )
    hold.open()
    await stopping.value
    await settle()
    #expect(network.fetches.value == 3, "no URL queued before stop may load after it; \(network.fetches.value) fetches started")
    await prefetcher.stop()
    await network.clock.run()
  }
}

extension Exercise7_ImagePrefetcherTests {
  @Test("after stop, URLs that were running or queued are prefetched again when asked")
  func urlsFromBeforeStopCanBePrefetchedAgain() async throws {
    let network = Network()
    let loader = ImageLoader(fetch: network.fetch(), diskCache: nil)
    let prefetcher = ImagePrefetcher(loader: loader, maxConcurrent: 1)
    let list = urls(2)
    await prefetcher.prefetch(list)  // the first runs, the second waits for the slot
    let started = await waitForFetches(1, network, prefetcher)
    #expect(started, "prefetching 2 URLs one at a time should start the first")
    guard started else { return }
    await prefetcher.stop()
    await settle()  // the cancelled load has reported back
    // The user scrolls back: the same two rows are about to appear again.
    await prefetcher.prefetch(list)
    let (running, pending) = (await prefetcher.runningCount, await prefetcher.pendingCount)
    #expect(
      running == 1 && pending == 1,
      "after stop, the 2 URLs asked for again are 2 prefetches, 1 running and 1 queued, but \(running) run and \(pending) are queued: stop must forget which URLs were queued as well as the queue, or a URL that had been queued is skipped for ever"
    )
    for _ in 0..<2 {
      await waitForFetches(1, network, prefetcher)
      await network.clock.advance(by: .seconds(1))
    }
    await settle()
    let completed = await prefetcher.completedCount
    #expect(completed == 2, "both URLs should load after being asked for again; completed \(completed)")
    await prefetcher.stop()
    await network.clock.run()
  }
}

extension Exercise7_ImagePrefetcherTests {
  @Test("the queue is first in, first out: the rows passed first load first")
  func rowsPassedFirstLoadFirst() async throws {
    let network = Network()
    let loader = ImageLoader(fetch: network.fetch(), diskCache: nil)
    let prefetcher = ImagePrefetcher(loader: loader, maxConcurrent: 1)
    let list = urls(4)  // nearest the screen first
    await prefetcher.prefetch(list)
    for _ in list {
      await waitForFetches(1, network, prefetcher)
      await network.clock.advance(by: .seconds(1))
    }
    await settle()
    let order = network.fetchedURLs.map(\.lastPathComponent)
    #expect(
      order == list.map(\.lastPathComponent),
      "one load at a time, the rows should load in the order they were passed, nearest first; they loaded in the order \(order)")
  }
}
