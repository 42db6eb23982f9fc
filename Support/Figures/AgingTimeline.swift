#if canImport(Downloads)
  import Downloads
  import WorkbookTesting

  /// Chapter 5: three download slots kept busy by a steady stream of high-priority transfers
  /// (three new ones every second, each taking one second), and ten low-priority transfers
  /// queued at time zero. The simulation drives the chapter's `PriorityQueue` on virtual time.
  struct AgingTimeline {
    var slots = 3
    var lowJobs = 10
    var highPerSecond = 3
    var highStreamEnds = 60
    var horizon = 80
    var step = 0.1

    enum Job {
      case high
      case low
    }

    /// Low-priority transfers finished by each step, for an aging bound (nil: no aging).
    func lowFinished(agingBound: Duration?) -> [(x: Double, y: Double)] {
      let clock = ManualClock()
      var queue = PriorityQueue<Job, ManualClock>(clock: clock, agingBound: agingBound)
      for _ in 0..<lowJobs { queue.enqueue(.low, priority: .low) }
      var running: [(job: Job, endsAt: Int)] = []  // in steps
      var finishedLow = 0
      var points: [(x: Double, y: Double)] = []
      let stepsPerSecond = Int((1 / step).rounded())
      for tick in 0...(horizon * stepsPerSecond) {
        if tick > 0 { clock.advance(by: .milliseconds(Int(step * 1_000))) }
        for finished in running where finished.endsAt == tick {
          if case .low = finished.job { finishedLow += 1 }
        }
        running.removeAll { $0.endsAt == tick }
        if tick % stepsPerSecond == 0 && tick < highStreamEnds * stepsPerSecond {
          for _ in 0..<highPerSecond { queue.enqueue(.high, priority: .high) }
        }
        while running.count < slots, let job = queue.dequeue() {
          running.append((job, tick + stepsPerSecond))
        }
        points.append((Double(tick) * step, Double(finishedLow)))
      }
      return points
    }
  }

  /// The figure: low-priority transfers finished over time, without aging and with a 10 s bound.
  func agingFigure() -> Figure {
    let timeline = AgingTimeline()
    let chart = LineChart(
      title: "10 low-priority downloads behind a saturating high-priority stream",
      xLabel: "time, s", yLabel: "low-priority downloads finished",
      series: [
        .init(name: "no aging", color: "#d62728", points: timeline.lowFinished(agingBound: nil)),
        .init(name: "aging, 10 s bound", color: "#1f77b4", points: timeline.lowFinished(agingBound: .seconds(10))),
      ], yMaximum: Double(timeline.lowJobs), xMaximum: Double(timeline.horizon))
    return Figure(chapter: "05-downloads", name: "aging-timeline", chart: chart)
  }
#endif
