import Foundation
import Testing

@testable import WorkbookTesting

@Suite("WorkbookTesting — the growth check's own thread", .timeLimit(.minutes(1)))
struct DedicatedThreadExecutorTests {
  /// The thread each step ran on, in order.
  final class Threads: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [ObjectIdentifier] = []
    func record() { lock.withLock { seen.append(ObjectIdentifier(Thread.current)) } }
    var distinct: Int { lock.withLock { Set(seen).count } }
    var count: Int { lock.withLock { seen.count } }
  }

  actor Counter {
    var value = 0
    func add(_ threads: Threads) {
      threads.record()
      value += 1
    }
  }

  @Test("a task and the actors it calls run on the executor's one thread, in turn")
  func everyHopRunsOnOneThread() async {
    let executor = DedicatedThreadExecutor(name: "test")
    defer { executor.finish() }
    let threads = Threads()
    let counter = Counter()
    await withTaskExecutorPreference(executor) {
      for _ in 0..<50 {
        threads.record()
        await counter.add(threads)
      }
    }
    #expect(await counter.value == 50)
    #expect(threads.count == 100)
    #expect(threads.distinct == 1, "the task and the actor ran on \(threads.distinct) threads; a hop should stay on the executor's own")
  }

  @Test("a job that arrives after finish still runs, on the shared pool")
  func aJobAfterFinishStillRuns() async {
    let executor = DedicatedThreadExecutor(name: "test")
    executor.finish()
    let ran = await Task(executorPreference: executor) { 42 }.value
    #expect(ran == 42, "a task started on a finished executor should still run to its end")
  }
}
