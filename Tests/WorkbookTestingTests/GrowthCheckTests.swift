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

  /// A search through an array of the size asked for: the cost grows with the size. `searches`
  /// counts the searches made at sizes above 100.
  static func linearSearch(_ size: Int, searches: Counter) -> GrowthCheck.Workload {
    let elements = Array(0..<size)
    let probes = (0..<200).map { size - 1 - ($0 % 10) }
    return .ready { timer in
      // A round stops early once it is over its budget, so how many were found says nothing.
      await timer.time("contains", calls: probes.count) { index in
        if size > 100 { searches.increment() }
        _ = elements.contains(probes[index])
      }
    }
  }

  @Test("a hash lookup passes: its cost stays flat from 100 to 100,000 elements")
  func flatCostPasses() async {
    let verdict = await GrowthCheck(sizes: [10_000, 100_000], unit: "elements").run { Self.hashedLookup($0) }
    #expect(verdict.failure == nil, "a set lookup is O(1); the check should pass it: \(verdict.report)")
    #expect(verdict.report.count == 3, "one line for the baseline and one per size: \(verdict.report)")
  }

  @Test("a linear search fails, names the operation and the size, and says how much it grew")
  func growingCostFails() async throws {
    let searches = Counter()
    // 100,000 elements: a search costs about 1,000× one of 100, far from the threshold even on a
    // loaded machine (at 10,000 the call's own overhead can bring 100× down near 20×).
    let verdict = await GrowthCheck(sizes: [100_000], unit: "elements").run { Self.linearSearch($0, searches: searches) }
    let failure = try #require(verdict.failure, "a search of 100,000 elements costs about 1,000× one of 100; the check should fail it")
    #expect(failure.hasPrefix("At 100000 elements, contains costs"), "the message names the size that grew and the operation: \(failure)")
    let message = try #require(verdict.message(advice: "Use a set."))
    #expect(message.contains("Use a set.") && message.contains("100 elements: contains"), "the advice and the measurements follow: \(message)")
    // Each round stops at its budget (20× the baseline's cost for its 200 calls, checked every 8
    // calls), so a search 1,000× dearer ends its round after 8 calls, not 200: failing takes
    // about as long as passing. 3 attempts of up to 7 rounds would make 4,200 searches in full.
    #expect(
      searches.value <= 3 * 7 * 16,
      "a round over its budget should stop after a few calls, not finish its 200: \(searches.value) searches at 100,000")
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
