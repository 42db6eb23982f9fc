import Testing
import WorkbookTesting

@Suite("WorkbookTesting — the growth check", .timeLimit(.minutes(1)))
struct GrowthCheckTests {
  /// A lookup in a set of the size asked for: the same cost at every size.
  static func hashedLookup(_ size: Int) -> GrowthCheck.Workload {
    let elements = Set(0..<size)
    let probes = (0..<200).map { ($0 &* 7_919) % size }
    return .ready { timer in
      // A round stops early once it is over its budget, so how many were found says nothing.
      await timer.time("contains", calls: probes.count) { index in _ = elements.contains(probes[index]) }
    }
  }

  /// A search through an array of the size asked for: the cost grows with the size.
  static func linearSearch(_ size: Int) -> GrowthCheck.Workload {
    let elements = Array(0..<size)
    let probes = (0..<200).map { size - 1 - ($0 % 10) }
    return .ready { timer in
      // A round stops early once it is over its budget, so how many were found says nothing.
      await timer.time("contains", calls: probes.count) { index in _ = elements.contains(probes[index]) }
    }
  }

  @Test("a hash lookup passes: its cost stays flat from 100 to 100,000 elements")
  func flatCostPasses() async {
    let verdict = await GrowthCheck(sizes: [10_000, 100_000], unit: "elements").run(Self.hashedLookup)
    #expect(verdict.failure == nil, "a set lookup is O(1); the check should pass it: \(verdict.report)")
    #expect(verdict.report.count == 3, "one line for the baseline and one per size: \(verdict.report)")
  }

  @Test("a linear search fails, names the operation and the size, and says how much it grew")
  func growingCostFails() async throws {
    let clock = ContinuousClock()
    let started = clock.now
    let verdict = await GrowthCheck(sizes: [10_000, 100_000], unit: "elements").run(Self.linearSearch)
    let failure = try #require(verdict.failure, "a search of 10,000 elements costs about 100× one of 100; the check should fail it")
    #expect(failure.hasPrefix("At 10000 elements, contains costs"), "the message names the first size that grew and the operation: \(failure)")
    let message = try #require(verdict.message(advice: "Use a set."))
    #expect(message.contains("Use a set.") && message.contains("100 elements: contains"), "the advice and the measurements follow: \(message)")
    // Each round stops at its budget, so failing takes about as long as passing: far under a second.
    #expect(started.duration(to: clock.now) < .seconds(10), "a failing size stops at its budget instead of finishing every round")
  }

  @Test("a structure that cannot hold its elements is reported with its own words, before any timing")
  func brokenSetupIsReported() async {
    let verdict = await GrowthCheck(sizes: [1_000], unit: "entries").run { size in
      size == 100 ? Self.hashedLookup(size) : .broken("1000 sets should leave 1000 entries")
    }
    #expect(verdict.failure == "1000 sets should leave 1000 entries")
    #expect(
      verdict.message(advice: "Use a set.") == "1000 sets should leave 1000 entries",
      "advice on cost is for an operation that grew; a structure that was not built needs its own tests' advice")
  }
}
