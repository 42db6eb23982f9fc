import Testing
import WorkbookTesting

@Suite("WorkbookTesting — knowing when nothing is left to run", .timeLimit(.minutes(1)))
struct QuiescenceTests {
  @Test func theRuntimeHookIsInstalled() {
    Quiescence.install()
    #expect(Quiescence.isAvailable, "the Swift runtime's enqueue hook should be found on this toolchain")
  }

  @Test("settle returns only after every task has run as far as it can")
  func settleWaitsForEveryTask() async {
    Quiescence.install()  // before the tasks: jobs queued before the hook are not counted
    let done = Counter()
    for _ in 0..<200 {
      Task {
        for _ in 0..<10 { await Task.yield() }
        done.increment()
      }
    }
    await settle()
    #expect(done.value == 200, "settle returned while \(200 - done.value) tasks could still run")
  }

  @Test("settle returns while a task is parked on a manual clock, a gate or a continuation")
  func settleReturnsWhileTasksAreParked() async {
    let clock = ManualClock()
    let gate = Gate()
    let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
    let walker = Task { await gate.pass() }
    await settle()
    #expect(clock.sleepers == 1)
    #expect(gate.waiting == 1)
    sleeper.cancel()
    gate.open()
    _ = await sleeper.result
    await walker.value
  }

  @Test("settle waits for work on the main actor, whose jobs pass by the runtime's hook")
  func settleWaitsForTheMainActor() async {
    Quiescence.install()
    let done = Counter()
    for _ in 0..<20 {
      // Main-actor work that hops off and back, and main-actor work that queues more of itself.
      Task { @MainActor in
        await Task.detached { await Task.yield() }.value
        _ = await Task { @MainActor in done.increment() }.value
        done.increment()
      }
    }
    await settle()
    #expect(done.value == 40, "settle returned while \(40 - done.value) pieces of main-actor work could still run")
  }

  @Test("tests that settle at the same time do not keep each other from settling")
  func concurrentSettlesEnd() async {
    Quiescence.install()
    // An hour's safety net: if settling tasks counted each other as work, none would end before
    // the suite's time limit.
    let settled = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<8 { group.addTask { await Quiescence.settle(before: .now.advanced(by: .seconds(3_600))) } }
      return await group.reduce(true) { $0 && $1 }
    }
    #expect(settled, "every settle should end, and end by settling rather than at its deadline")
  }

  @Test("a settle that never comes ends at its deadline")
  func settleHasADeadline() async {
    Quiescence.install()  // before the task: jobs queued before the hook are not counted
    let spinning = Task {
      while !Task.isCancelled { await Task.yield() }
    }
    let settled = await Quiescence.settle(before: .now.advanced(by: .milliseconds(50)))
    #expect(!settled, "a task that never stops running means the process never settles")
    spinning.cancel()
  }

  @Test("eventually(.tasks) fails as soon as everything is parked, without waiting out its safety net")
  func eventuallyFailsFastOnParkedCode() async {
    let clock = ManualClock()
    let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
    // A safety net of an hour: the wait can only end within the suite's one-minute time limit by
    // seeing that everything is parked, however busy the machine is.
    let twoSleepers = await eventually(within: .seconds(3_600)) { clock.sleepers == 2 }
    #expect(!twoSleepers, "one task sleeps; a second never comes")
    sleeper.cancel()
    _ = await sleeper.result
  }

  @Test("eventually(.tasks) sees a condition that tasks make true")
  func eventuallySeesProgress() async {
    Quiescence.install()  // before the task: jobs queued before the hook are not counted
    let counter = Counter()
    Task {
      for _ in 0..<10 {
        await Task.yield()
        counter.increment()
      }
    }
    // An hour's safety net: the wait ends when the count is reached or when nothing is left to
    // run, never because a busy machine was slow to run the task's ten hops.
    #expect(await eventually(within: .seconds(3_600)) { counter.value == 10 })
  }

  @Test("eventually gives up at once when told the work is over")
  func eventuallyGivesUp() async {
    // An hour's safety net: only giving up can end the wait within the suite's time limit.
    let met = await eventually(.threads, within: .seconds(3_600), giveUp: { true }) { false }
    #expect(!met)
  }
}
