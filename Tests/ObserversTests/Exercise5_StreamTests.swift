import Testing
import WorkbookTesting

@testable import Observers

@Suite("Exercise 5 — An AsyncStream of values", .timeLimit(.minutes(1)))
struct Exercise5_StreamTests {
  @Test func theStreamStartsWithTheCurrentValueThenEveryChange() async {
    let count = Observable(0)
    let consumer = Task { [stream = count.values(buffering: .unbounded)] in
      var received: [Int] = []
      for await value in stream {
        received.append(value)
        if received.count == 4 { break }
      }
      return received
    }
    for next in 1...3 { count.value = next }
    let received = await consumer.value
    #expect(received == [0, 1, 2, 3], "the current value first, then each change in order; got \(received)")
  }

  @Test("the default policy keeps only the newest value for a busy consumer")
  func newestOnlyByDefault() async {
    let count = Observable(0)
    let stream = count.values
    for next in 1...100 { count.value = next }
    var iterator = stream.makeAsyncIterator()
    let first = await iterator.next()
    #expect(first == 100, "nobody read while 0...100 were written: with .bufferingNewest(1) the consumer gets the latest, 100, not \(String(describing: first))")
    count.value = 101
    let second = await iterator.next()
    #expect(second == 101, "then the next change")
  }

  @Test("cancelling the consumer finishes the stream and removes its observer")
  func cancellingTheConsumerFinishesAndCleansUp() async {
    let count = Observable(0)
    let received = Recorder<Int>()
    let finished = Recorder<Bool>()
    let consumer = Task { [stream = count.values] in
      for await value in stream { received.append(value) }
      finished.append(true)
    }
    await eventually { received.count >= 1 }
    #expect(count.observerCount == 1, "the stream registered one observer")
    consumer.cancel()
    let ended = await eventually { finished.count == 1 }
    #expect(ended, "after cancel() the for-await loop must end: the stream finishes on cancellation")
    let cleaned = await eventually { count.observerCount == 0 }
    #expect(cleaned, "the stream ended, so its observer must be removed (onTermination); \(count.observerCount) still registered: a leak per screen")
    count.value = 1
  }

  @Test("three consumers each get every value, and leave no observer behind")
  func severalConsumersEachGetEveryValue() async {
    let count = Observable(0)
    let consumers = (0..<3).map { _ in
      Task { [stream = count.values(buffering: .unbounded)] in
        var received: [Int] = []
        for await value in stream {
          received.append(value)
          if value == 20 { break }
        }
        return received
      }
    }
    #expect(count.observerCount == 3, "each consumer has a stream and an observer of its own")
    for next in 1...20 { count.value = next }
    for (index, consumer) in consumers.enumerated() {
      let received = await consumer.value
      #expect(received == Array(0...20), "consumer \(index) should get 0...20 in order; got \(received)")
    }
    let cleaned = await eventually { count.observerCount == 0 }
    #expect(cleaned, "every consumer stopped iterating and dropped its stream, so no observer may remain; \(count.observerCount) left")
  }

  @Test func aStreamDroppedUnreadRemovesItsObserver() async {
    let count = Observable(0)
    do {
      let stream = count.values
      withExtendedLifetime(stream) {}
    }
    let cleaned = await eventually { count.observerCount == 0 }
    #expect(cleaned, "a stream nobody iterates ends when it is dropped, and its observer must go with it")
  }
}
