import Testing
import WorkbookTesting

@Suite("WorkbookTesting — gates and crowds", .timeLimit(.minutes(1)))
struct GateAndCrowdTests {
  @Test("a gate holds callers until it is opened, and counts them")
  func gateHoldsCallers() async throws {
    let gate = Gate()
    let crowd = Crowd(3) { index in
      await gate.pass()
      return index
    }
    #expect(await gate.arrivals(3))
    #expect(crowd.finished == 0)
    gate.open()
    #expect(try await crowd.values() == [0, 1, 2])
    await gate.pass()  // an open gate lets later callers straight through
    #expect(gate.arrived == 4)
  }

  @Test("release lets callers through one at a time, and keeps a pass for a late one")
  func releaseOne() async throws {
    let gate = Gate()
    let through = Counter()
    let crowd = Crowd(2) { _ in
      await gate.pass()
      through.increment()
    }
    #expect(await gate.arrivals(2))
    gate.release(1)
    await settle()
    #expect(through.value == 1)
    gate.release(2)
    _ = try await crowd.values()
    #expect(through.value == 2)
    await gate.pass()  // takes the pass left over
  }

  @Test("arrivals gives up at once when the crowd has finished without arriving")
  func arrivalsGiveUp() async {
    let gate = Gate()
    let crowd = Crowd(2) { _ in 1 }
    #expect(!(await gate.arrivals(2, giveUp: { crowd.allFinished })))
    _ = await crowd.results()
  }
}
