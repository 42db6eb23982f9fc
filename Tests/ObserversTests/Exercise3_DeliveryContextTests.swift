import Dispatch
import Foundation
import Testing
import WorkbookTesting

@testable import Observers

@Suite("Exercise 3 — Delivery on a queue or the main actor", .timeLimit(.minutes(1)))
struct Exercise3_DeliveryContextTests {
  /// A serial queue that can tell, from inside a block, that the block runs on it.
  struct TaggedQueue {
    let key = DispatchSpecificKey<String>()
    let queue = DispatchQueue(label: "workbook.observers.ui")

    init() { queue.setSpecific(key: key, value: "ui") }

    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == "ui" }

    /// Returns once every block submitted to the queue before this call has run.
    func flush() { queue.sync {} }
  }

  static let mainKey: DispatchSpecificKey<String> = {
    let key = DispatchSpecificKey<String>()
    DispatchQueue.main.setSpecific(key: key, value: "main")
    return key
  }()

  /// True inside a block of the main queue, the main actor's executor. (On Linux the main queue
  /// may be served by a thread other than the process's first one, so `Thread.isMainThread`
  /// cannot tell; on Apple platforms it is always the main thread.)
  static var isMainQueue: Bool {
    #if canImport(Darwin)
      guard Thread.isMainThread else { return false }
    #endif
    return DispatchQueue.getSpecific(key: mainKey) == "main"
  }

  /// Returns once every block submitted to the main queue before this call has run.
  @MainActor func flushMain() async {
    await withCheckedContinuation { continuation in
      DispatchQueue.main.async { continuation.resume() }
    }
  }

  @Test func everyCallRunsOnTheChosenQueueInOrder() {
    let tagged = TaggedQueue()
    let count = Observable(0)
    let seen = Recorder<Int>()
    let onQueue = Recorder<Bool>()
    let token = count.observe(on: tagged.queue) { [tagged] value in
      onQueue.append(tagged.isCurrent)
      seen.append(value)
    }
    DispatchQueue.concurrentPerform(iterations: 2) { _ in
      for _ in 0..<100 { count.update { $0 += 1 } }
    }
    tagged.flush()
    #expect(seen.values == Array(0...200), "the current value, then 1...200, in order, on the serial queue; got \(seen.count) values")
    #expect(onQueue.values.allSatisfy { $0 }, "every call must run on the queue the observer asked for, not on the writer's thread")
    token.cancel()
  }

  @Test("the writer does not run the observer itself, even for the first call")
  func theWriterDoesNotRunTheObserver() {
    let tagged = TaggedQueue()
    let count = Observable(0)
    let seen = Recorder<Int>()
    tagged.queue.suspend()
    let token = count.observe(on: tagged.queue) { seen.append($0) }
    count.value = 1
    #expect(seen.values.isEmpty, "the queue is suspended, so nothing may have run yet: the writer called the observer on its own thread")
    tagged.queue.resume()
    tagged.flush()
    #expect(seen.values == [0, 1], "once the queue runs, the first call and the change arrive in order; got \(seen.values)")
    token.cancel()
  }

  @Test("values still waiting on the queue are dropped once the token is cancelled")
  func nothingRunsAfterCancel() {
    let tagged = TaggedQueue()
    let count = Observable(0)
    let seen = Recorder<Int>()
    tagged.queue.suspend()
    let token = count.observe(on: tagged.queue, initial: false) { seen.append($0) }
    count.value = 1
    count.value = 2
    token.cancel()
    tagged.queue.resume()
    tagged.flush()
    #expect(
      seen.values.isEmpty,
      "1 and 2 were waiting on the queue when the token was cancelled: they must not run after cancel() returned (the screen may be gone); got \(seen.values)"
    )
    #expect(count.observerCount == 0, "the observer is removed from the observable too")
  }

  @Test func releasingTheTokenEndsAQueueObservation() {
    let tagged = TaggedQueue()
    let count = Observable(0)
    let seen = Recorder<Int>()
    tagged.queue.suspend()
    do {
      let token = count.observe(on: tagged.queue, initial: false) { seen.append($0) }
      count.value = 1
      withExtendedLifetime(token) {}
    }
    tagged.queue.resume()
    tagged.flush()
    #expect(seen.values.isEmpty, "the token was released before the queue ran, so the waiting change must be dropped; got \(seen.values)")
    #expect(count.observerCount == 0, "releasing the token must remove the observer: does the handler capture the token and keep it alive?")
  }

  @Test("main-actor observers run on the main queue, in order, even for writes from elsewhere")
  @MainActor func mainActorDelivery() async {
    _ = Self.mainKey
    let count = Observable(0)
    let seen = Recorder<Int>()
    let onMain = Recorder<Bool>()
    let token = count.observeOnMainActor { value in
      onMain.append(Self.isMainQueue)
      seen.append(value)
    }
    #expect(seen.values.isEmpty, "even the first call hops to the main actor asynchronously, so it has not run yet")
    await Task.detached {
      for next in 1...50 { count.value = next }
    }.value
    await flushMain()
    #expect(seen.values == Array(0...50), "the current value, then 1...50 in order; got \(seen.values)")
    #expect(!onMain.values.isEmpty && onMain.values.allSatisfy { $0 }, "every call must run on the main queue, the main actor's executor")
    token.cancel()
    count.value = 99
    await flushMain()
    #expect(seen.values.last == 50, "nothing after cancel()")
  }

  @Test("a change waiting for the main actor when the token is cancelled is dropped")
  @MainActor func aChangeWaitingForTheMainActorIsDropped() async {
    let count = Observable(0)
    let seen = Recorder<Int>()
    let token = count.observeOnMainActor(initial: false) { seen.append($0) }
    // This test holds the main actor until it suspends, so the hop for this change waits.
    count.value = 1
    token.cancel()
    await flushMain()
    #expect(
      seen.values.isEmpty,
      "1 was waiting for the main actor when the token was cancelled: it must not run after cancel() returned; got \(seen.values)")
    #expect(count.observerCount == 0, "the observer is removed from the observable too")
  }

  @Test("changes that wait for the main actor arrive in order, each with its own value")
  @MainActor func changesWaitingForTheMainActorKeepTheirValues() async {
    let count = Observable(0)
    let seen = Recorder<Int>()
    let token = count.observeOnMainActor { seen.append($0) }
    // This test holds the main actor until it suspends, so the first call and both changes wait.
    count.value = 1
    count.value = 2
    await flushMain()
    #expect(
      seen.values == [0, 1, 2],
      "the first call and the changes to 1 and 2 waited for the main actor: each should arrive with its own value, in order; got \(seen.values)"
    )
    token.cancel()
  }

  @Test("the first call hops even for an observer registered on the queue itself")
  func aFirstCallRegisteredOnTheQueueStillHops() {
    let tagged = TaggedQueue()
    let count = Observable(0)
    let seen = Recorder<Int>()
    var token: ObserverToken?
    var seenDuringRegistration: [Int] = []
    tagged.queue.sync {
      token = count.observe(on: tagged.queue) { seen.append($0) }
      seenDuringRegistration = seen.values
    }
    tagged.flush()
    #expect(
      seenDuringRegistration.isEmpty,
      "observe(on:) was called on its own queue and ran the first call before returning: it must hop like every other call, so the order never depends on where you registered; got \(seenDuringRegistration)"
    )
    #expect(seen.values == [0], "the first call arrives once the queue runs it; got \(seen.values)")
    token?.cancel()
  }
}
