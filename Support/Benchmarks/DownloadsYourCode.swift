#if canImport(Downloads)
  import Downloads
  import Foundation

  /// `make bench-5`: the learner's priority queue and scheduler next to the answer's, and the
  /// scheduler next to a task group that only limits concurrency to the same three slots.
  extension DownloadsBench {
    static let queueSizes = [1_000, 10_000, 100_000]

    /// Whether the queue hands back what it was given, highest priority first: the starter does not.
    static func queueWorks() -> Bool {
      var queue = PriorityQueue<Int, ContinuousClock>(clock: ContinuousClock(), agingBound: .seconds(30))
      queue.enqueue(1, priority: .low)
      queue.enqueue(2, priority: .high)
      return queue.dequeue() == 2 && queue.dequeue() == 1 && queue.dequeue() == nil
    }

    /// Whether `body` returns within `seconds`; it is cancelled if not.
    static func finishes(within seconds: Int, _ body: @escaping @Sendable () async -> Void) async -> Bool {
      await withTaskGroup(of: Bool.self) { group in
        group.addTask {
          await body()
          return true
        }
        group.addTask {
          try? await Task.sleep(for: .seconds(seconds))
          return false
        }
        let first = await group.next() ?? false
        group.cancelAll()
        return first
      }
    }

    /// One round of every row, printed as `--emit` lines (see `YourCode`).
    static func emitLearnerRound(quick: Bool, withPlatform: Bool) async {
      let clock = ContinuousClock()
      func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
      }
      let works = queueWorks()
      for n in quick ? Array(queueSizes.prefix(2)) : queueSizes {
        guard works else {
          YourCode.emit("queue.\(n)", .notImplemented)
          continue
        }
        // n enqueues at the three levels in turn, then n dequeues; twice, keeping the faster.
        var best = YourCode.Outcome.tooSlow(.infinity)
        for _ in 0..<2 {
          var queue = PriorityQueue<Int, ContinuousClock>(clock: ContinuousClock(), agingBound: .seconds(30))
          let levels: [DownloadPriority] = [.low, .normal, .high]
          let start = clock.now
          var outcome = YourCode.Outcome.nanoseconds(0)
          for index in 0..<n { queue.enqueue(index, priority: levels[index % 3]) }
          var taken = 0
          while queue.dequeue() != nil {
            taken += 1
            if taken & 255 == 0, nanoseconds(start.duration(to: clock.now)) > 2e9 {
              outcome = .tooSlow(nanoseconds(start.duration(to: clock.now)) / Double(n + taken))
              break
            }
          }
          if outcome.value != nil {
            let perElement = nanoseconds(start.duration(to: clock.now)) / Double(2 * n)
            outcome = taken == n ? .nanoseconds(perElement) : .wrong("\(taken) dequeued of \(n) enqueued")
          }
          best = YourCode.faster(best, outcome)
          if best.value == nil { break }
        }
        YourCode.emit("queue.\(n)", best)
      }

      let jobs = quick ? 2_000 : 10_000
      if withPlatform {
        let start = clock.now
        await taskGroup(count: jobs) { _ in }
        YourCode.emit("taskgroup.\(jobs)", .nanoseconds(nanoseconds(start.duration(to: clock.now)) / Double(jobs)))
      }
      // The starter's scheduler never runs a job: give one job two seconds before timing any.
      guard await finishes(within: 2, { await scheduler(count: 1) { _ in } }) else {
        YourCode.emit("scheduler.\(jobs)", .notImplemented)
        return
      }
      let start = clock.now
      let finished = await finishes(within: 10) { await scheduler(count: jobs) { _ in } }
      let elapsed = nanoseconds(start.duration(to: clock.now))
      YourCode.emit("scheduler.\(jobs)", finished ? .nanoseconds(elapsed / Double(jobs)) : .tooSlow(elapsed / Double(jobs)))
    }

    /// The table of `make bench-5` and its verdict.
    static func printComparison(yours: YourCode.Collected, answer: YourCode.Collected) {
      let jobs = answer.order.first { $0.hasPrefix("scheduler.") }.map { String($0.dropFirst("scheduler.".count)) } ?? "?"
      var rows: [YourCode.Comparison] = queueSizes.compactMap { n in
        answer.outcomes["queue.\(n)"] == nil
          ? nil : YourCode.Comparison(label: "queue, n = \(n)", operation: "priority queue", id: "queue.\(n)")
      }
      rows.append(
        YourCode.Comparison(
          label: "scheduler, \(jobs) jobs", operation: "scheduler", id: "scheduler.\(jobs)", platform: "taskgroup.\(jobs)"))
      YourCode.printComparison(
        yours: yours, answer: answer, rows: rows, platformName: "task group",
        note: "ns per element (an enqueue and a dequeue) for the queue; ns per empty job, 3 at a time, for the scheduler",
        exercise: { $0 == "priority queue" ? 1 : 3 }, chapter: 5)
    }
  }
#endif
