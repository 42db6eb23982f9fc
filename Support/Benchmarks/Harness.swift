import Dispatch
import Foundation

/// A tiny benchmark harness: each case runs a few times, the median is kept, and every table
/// reports each case as a ratio against a baseline measured in the same process, in the same run.
///
/// Ratios, not absolute times, are what the chapters quote: they hold across machines, while
/// nanoseconds per operation do not.
struct Bench {
  /// How many times each case runs; the median is reported.
  var repetitions = 5

  /// The median wall-clock time of `body`, after one warm-up run.
  func median(_ body: () -> Void) -> Duration {
    body()
    let clock = ContinuousClock()
    var samples: [Duration] = []
    for _ in 0..<repetitions {
      samples.append(clock.measure(body))
    }
    return samples.sorted()[samples.count / 2]
  }

  /// The median time of each of `bodies`, measured in rounds: every round runs each body once,
  /// in order, after one warm-up round. A slow moment of the machine (the other core busy, a
  /// frequency change) then hits every body of that round, not just the one measured at the time,
  /// so ratios between bodies are steadier than with one body's repetitions after another's.
  ///
  /// `rounds` overrides `repetitions`, for cases too long to run that often.
  func interleavedMedians(_ bodies: [() -> Void], rounds: Int? = nil) -> [Duration] {
    for body in bodies { body() }
    let clock = ContinuousClock()
    var samples = Array(repeating: [Duration](), count: bodies.count)
    for _ in 0..<(rounds ?? repetitions) {
      for (index, body) in bodies.enumerated() {
        samples[index].append(clock.measure(body))
      }
    }
    return samples.map { $0.sorted()[$0.count / 2] }
  }

  /// The median of an async `body`.
  func median(_ body: () async -> Void) async -> Duration {
    await body()
    let clock = ContinuousClock()
    var samples: [Duration] = []
    for _ in 0..<repetitions {
      let start = clock.now
      await body()
      samples.append(start.duration(to: clock.now))
    }
    return samples.sorted()[samples.count / 2]
  }
}

/// One row of a results table.
struct Row {
  let label: String
  let time: Duration
  let operations: Int

  var nanosecondsPerOperation: Double {
    let (seconds, attoseconds) = time.components
    return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(max(operations, 1))
  }
}

/// Prints rows with their cost per operation and their ratio to `baseline`.
func printTable(_ title: String, baseline: Row, rows: [Row], note: String? = nil) {
  print("\n\(title)")
  if let note { print("  \(note)") }
  let width = max(28, (rows + [baseline]).map(\.label.count).max() ?? 0)
  print("  " + pad("case", width) + "  " + pad("ns/op", 10) + "  vs " + baseline.label)
  for row in [baseline] + rows {
    let ratio = row.nanosecondsPerOperation / baseline.nanosecondsPerOperation
    print("  " + pad(row.label, width) + "  " + pad(String(format: "%.1f", row.nanosecondsPerOperation), 10) + "  " + String(format: "%.2f×", ratio))
  }
}

func pad(_ text: String, _ width: Int) -> String {
  text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

/// Keeps the optimizer from deleting work whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}
