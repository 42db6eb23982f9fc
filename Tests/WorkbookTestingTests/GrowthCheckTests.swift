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
  /// counts the searches made at sizes above 1,000.
  static func linearSearch(_ size: Int, searches: Counter) -> GrowthCheck.Workload {
    let elements = Array(0..<size)
    let probes = (0..<200).map { size - 1 - ($0 % 10) }
    return .ready { timer in
      // A round stops early once it is over its budget, so how many were found says nothing.
      await timer.time("contains", calls: probes.count) { index in
        if size > 1_000 { searches.increment() }
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
    // loaded machine (at 10,000 the call's own overhead can bring 100× down near 20×). At 200 a
    // search costs about twice one of 100: the check's third size, well within 20×.
    let verdict = await GrowthCheck(sizes: [200, 100_000], unit: "elements").run {
      Self.linearSearch($0, searches: searches)
    }
    let failure = try #require(verdict.failure, "a search of 100,000 elements costs about 1,000× one of 100; the check should fail it")
    #expect(failure.hasPrefix("At 100000 elements, contains cost"), "the message names the size that grew and the operation: \(failure)")
    let message = try #require(verdict.message(possibleCauses: ["a search of the array"]))
    #expect(
      message.contains("Possible causes: a search of the array; a machine so busy") && message.contains("100 elements: contains"),
      "the causes, as possibilities, and the measurements follow: \(message)")
    // Each round stops at its budget (20× the baseline's cost for its 200 calls, checked every 8
    // calls), so a search 1,000× dearer ends its round after 8 calls, not 200: failing takes
    // about as long as passing. 3 attempts of up to 7 rounds would make 4,200 searches in full.
    #expect(
      searches.value <= 3 * 7 * 16,
      "a round over its budget should stop after a few calls, not finish its 200: \(searches.value) searches at 100,000")
  }

  @Test("a baseline slowed once (a cold first run, a busy moment) does not let a growing cost pass")
  func aSlowBaselineDoesNotHideGrowth() async throws {
    let searches = Counter()
    let baselines = Counter()
    // The first baseline searches 20,000 elements a call, a fifth of the largest size: were it the
    // baseline, 100,000 would pass at about 5×. Every later baseline searches its 100.
    let slow = Array(0..<20_000)
    let verdict = await GrowthCheck(sizes: [200, 100_000], unit: "elements").run { size in
      guard size == 100 else { return Self.linearSearch(size, searches: searches) }
      guard baselines.increment() == 1 else { return Self.linearSearch(size, searches: searches) }
      return .ready { timer in
        await timer.time("contains", calls: 200) { _ in _ = slow.contains(-1) }
      }
    }
    let failure = try #require(
      verdict.failure, "the check passed a search of 100,000 elements against its slowed first baseline: \(verdict.report)")
    #expect(failure.hasPrefix("At 100000 elements, contains cost"), "\(failure)")
  }

  @Test("a structure that cannot hold its elements is reported with its own words, before any timing")
  func brokenSetupIsReported() async {
    let verdict = await GrowthCheck(sizes: [1_000, 10_000], unit: "entries").run { size in
      size == 100 ? Self.hashedLookup(size) : .broken("1000 sets should leave 1000 entries")
    }
    #expect(verdict.failure == "1000 sets should leave 1000 entries")
    #expect(
      verdict.message(possibleCauses: ["a search"]) == "1000 sets should leave 1000 entries",
      "advice on cost is for an operation that grew; a structure that was not built needs its own tests' advice")
  }

  @Test("sizes whose calls report other work are refused with a message for the maintainer, before any ratio")
  func unequalWorkIsRefused() async throws {
    // The scrolls of a short feed run past its end and find no rows, while a long feed's find ten.
    let verdict = await GrowthCheck(sizes: [1_000, 10_000], unit: "posts").run { size in
      .ready { timer in
        await timer.timeWork("a scroll", calls: 50) { _ in size == 100 ? 0 : 10 }
      }
    }
    let failure = try #require(verdict.failure, "a scroll that covered 0 rows at 100 posts and 10 at 1,000 is not the same work")
    #expect(!verdict.grew, "unequal work says nothing about growth")
    #expect(
      failure.contains("unequal work") && failure.contains("a fault of the test")
        && failure.contains("a scroll: 50 calls a round, 0.0 units of work each at 100 posts, 50 calls a round, 10.0 units of work each at 1000 posts"),
      "the message says it is the test's fault and shows the work of both sizes: \(failure)")
  }

  @Test("sizes that ask for other numbers of calls are refused")
  func unequalCallsAreRefused() async throws {
    let verdict = await GrowthCheck(sizes: [1_000, 10_000], unit: "elements").run { size in
      .ready { timer in await timer.time("contains", calls: min(size, 200)) { _ in } }
    }
    let failure = try #require(verdict.failure, "100 calls at 100 elements against 200 at 1,000 is not the same work")
    #expect(failure.contains("contains: 100 calls a round at 100 elements, 200 calls a round at 1000 elements"), "\(failure)")
  }

  @Test("a check with fewer than three sizes, or sizes out of order, is refused", arguments: [[1_000], [10_000, 1_000], [50, 1_000]])
  func tooFewSizesAreRefused(sizes: [Int]) async throws {
    let verdict = await GrowthCheck(sizes: sizes, unit: "elements").run { Self.hashedLookup($0) }
    let failure = try #require(verdict.failure, "\(sizes) after a baseline of 100 is not three growing sizes")
    #expect(failure.contains("set up wrong") && !verdict.grew, "\(failure)")
  }

  @Test("a baseline too cheap to time is taken at the floor, so a flat cost cannot turn into a large ratio")
  func aNearZeroBaselineIsFloored() async {
    // Calls that cost next to nothing at the baseline and a few dozen nanoseconds at every larger
    // size: flat from 1,000 on, but dozens of times "the baseline" without a floor.
    let values = Array(0..<16)
    func workload(_ size: Int) -> GrowthCheck.Workload {
      .ready { timer in
        await timer.time("a call", calls: 200) { _ in
          if size > 100 { blackHole(values.reduce(0, &+)) }
        }
      }
    }
    let floored = await GrowthCheck(sizes: [1_000, 10_000], unit: "elements", floor: 2_000).run { workload($0) }
    #expect(floored.failure == nil, "with a floor of 2 µs a call, a few dozen nanoseconds do not grow: \(floored.report)")
  }
}

@inline(never) func blackHole(_ value: Int) { _ = value }
