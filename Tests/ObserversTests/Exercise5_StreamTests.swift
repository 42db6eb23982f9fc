import Foundation
import Testing
import WorkbookTesting

@testable import Observers

@Suite("Exercise 5 — An AsyncStream of values", .timeLimit(.minutes(1)))
struct Exercise5_StreamTests {
  /// A consumer that records every value of `stream` and, once the loop ends, that it ended. It
  /// stops on its own after `limit` values. Tests wait on the recorders with `eventually`, which
  /// gives up as soon as every task is parked, so a stream that goes silent fails the test at once
  /// instead of hanging it.
  struct Consumer: Sendable {
    let received = Recorder<Int>()
    let finished = Recorder<Bool>()
    let task: Task<Void, Never>

    init(_ stream: AsyncStream<Int>, limit: Int = .max) {
      let received = received
      let finished = finished
      Quiescence.install()  // before the consumer starts, so `eventually` counts it
      task = Task {
        for await value in stream {
          received.append(value)
          if received.count >= limit { break }
        }
        finished.append(true)
      }
    }
  }

  @Test func theStreamStartsWithTheCurrentValueThenEveryChange() async {
    let count = Observable(0)
    let consumer = Consumer(count.values(buffering: .unbounded))
    for next in 1...3 { count.value = next }
    await eventually { consumer.received.count >= 4 }
    let silent =
      consumer.received.values == [0]
      ? ". Only the first value arrived: the stream, or its observation, ended right after it. Keep the stream open, and keep the observation's token (for example in onTermination) until the stream ends"
      : ""
    #expect(
      consumer.received.values == [0, 1, 2, 3],
      "the current value first, then each change in order; got \(consumer.received.values)\(silent)")
    consumer.task.cancel()
  }

  @Test("the default policy keeps only the newest value for a busy consumer")
  func newestOnlyByDefault() async {
    let count = Observable(0)
    let stream = count.values
    for next in 1...100 { count.value = next }
    let consumer = Consumer(stream)
    await eventually { consumer.received.count >= 1 }
    #expect(
      consumer.received.values.first == 100,
      "nobody read while 0...100 were written: with .bufferingNewest(1) the consumer starts at the latest, 100; got \(consumer.received.values)")
    count.value = 101
    await eventually { consumer.received.count >= 2 }
    #expect(consumer.received.values == [100, 101], "then the next change; got \(consumer.received.values)")
    consumer.task.cancel()
  }

  @Test("cancelling the consumer finishes the stream and removes its observer")
  func cancellingTheConsumerFinishesAndCleansUp() async {
    let count = Observable(0)
    let consumer = Consumer(count.values)
    await eventually { consumer.received.count >= 1 }
    #expect(count.observerCount == 1, "the stream registered one observer, and it must stay registered while the consumer listens")
    consumer.task.cancel()
    let ended = await eventually { consumer.finished.count == 1 }
    #expect(ended, "after cancel() the for-await loop must end: the stream finishes on cancellation")
    let cleaned = await eventually { count.observerCount == 0 }
    #expect(cleaned, "the stream ended, so its observer must be removed (onTermination); \(count.observerCount) still registered: a leak per screen")
    count.value = 1
  }

  @Test("three consumers each get every value, and leave no observer behind")
  func severalConsumersEachGetEveryValue() async {
    let count = Observable(0)
    let consumers = (0..<3).map { _ in Consumer(count.values(buffering: .unbounded), limit: 21) }
    #expect(count.observerCount == 3, "each consumer has a stream and an observer of its own")
    for next in 1...20 { count.value = next }
    await eventually { consumers.allSatisfy { $0.finished.count == 1 } }
    for (index, consumer) in consumers.enumerated() {
      #expect(consumer.received.values == Array(0...20), "consumer \(index) should get 0...20 in order; got \(consumer.received.values)")
    }
    let cleaned = await eventually { count.observerCount == 0 }
    #expect(cleaned, "every consumer stopped iterating and dropped its stream, so no observer may remain; \(count.observerCount) left")
    for consumer in consumers { consumer.task.cancel() }
  }

  /// Holds an observable weakly, so a test can ask from async code whether it is still alive.
  final class WeakReference: @unchecked Sendable {
    private let lock = NSLock()
    private weak var object: Observable<Int>?

    init(_ object: Observable<Int>) { self.object = object }

    var isAlive: Bool { lock.withLock { object != nil } }
  }

  @Test("a stream keeps its observable alive while its consumer listens, and lets it go after")
  func theStreamKeepsTheObservableAlive() async {
    var consumer: Consumer?
    var reference: WeakReference?
    do {
      let count = Observable(0)
      reference = WeakReference(count)
      consumer = Consumer(count.values)
    }
    guard let consumer, let reference else { return }
    await eventually { consumer.received.count >= 1 }
    #expect(
      reference.isAlive,
      "nothing but the stream refers to the observable now, and its consumer still listens: the stream must keep the observable alive (capture it in onTermination), or the consumer waits forever for values nobody can send"
    )
    consumer.task.cancel()
    let released = await eventually { !reference.isAlive }
    #expect(released, "the consumer stopped, so the stream ended and must let the observable go")
  }

  @Test func aStreamDroppedUnreadRemovesItsObserver() async {
    let count = Observable(0)
    do {
      let stream = count.values
      #expect(count.observerCount == 1, "creating the stream registers its observer")
      withExtendedLifetime(stream) {}
    }
    let cleaned = await eventually { count.observerCount == 0 }
    #expect(cleaned, "a stream nobody iterates ends when it is dropped, and its observer must go with it")
  }
}
