import Testing
import WorkbookTesting

@Suite("WorkbookTesting — the manual clock", .timeLimit(.minutes(1)))
struct ManualClockTests {
  @Test("sleepers wake in deadline order, and only when time reaches their deadline")
  func wakesInDeadlineOrder() async throws {
    let clock = ManualClock()
    let woke = Recorder<Int>()
    let tasks = [3, 1, 2].map { seconds in
      Task {
        try await clock.sleep(for: .seconds(seconds))
        woke.append(seconds)
      }
    }
    #expect(await clock.waitForSleepers(3))
    await clock.advance(by: .milliseconds(999))
    #expect(woke.values.isEmpty, "nothing is due before one second")
    for second in 1...3 {
      await clock.advance(by: second == 1 ? .milliseconds(1) : .seconds(1))
      #expect(woke.values == Array(1...second), "at \(second) s the sleepers due by then should have woken, in order")
    }
    for task in tasks { try await task.value }
  }

  @Test("run plays out every sleep, including sleeps that woken tasks start")
  func runPlaysOutEverySleep() async throws {
    let clock = ManualClock()
    let task = Task {
      for _ in 0..<5 { try await clock.sleep(for: .seconds(10)) }
    }
    let elapsed = await clock.run()
    try await task.value
    #expect(elapsed == .seconds(50))
    #expect(clock.sleepHistory == Array(repeating: .seconds(10), count: 5))
  }

  @Test("a cancelled sleeper throws CancellationError at once and leaves the clock")
  func cancellation() async {
    let clock = ManualClock()
    let task = Task { try await clock.sleep(for: .seconds(1)) }
    #expect(await clock.waitForSleepers(1))
    task.cancel()
    let result = await task.result
    #expect(throws: CancellationError.self) { try result.get() }
    #expect(clock.sleepers == 0)
  }

  @Test("waitForSleepers says no when the sleepers never come")
  func waitForSleepersFailsFast() async {
    let clock = ManualClock()
    #expect(!(await clock.waitForSleepers(1)), "no task sleeps on this clock")
  }
}
