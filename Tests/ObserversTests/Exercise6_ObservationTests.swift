import Observation
import Testing
import WorkbookTesting

@testable import Observers

@Suite("Exercise 6 — The Observation framework, continuously", .timeLimit(.minutes(1)))
@MainActor
struct Exercise6_ObservationTests {
  /// Consumes `stream` on the main actor into a recorder, and says when the loop has ended.
  func consume<Value: Sendable>(_ stream: AsyncStream<Value>) -> (Recorder<Value>, Recorder<Bool>, Task<Void, Never>) {
    Quiescence.install()  // before the consumer starts, so `settle()` counts it
    let received = Recorder<Value>()
    let finished = Recorder<Bool>()
    let task = Task { @MainActor in
      for await value in stream { received.append(value) }
      finished.append(true)
    }
    return (received, finished, task)
  }

  @Test func theModelIsObservable() {
    let model = ProfileModel(name: "Ada")
    let fired = Recorder<Bool>()
    _ = withObservationTracking {
      model.name
    } onChange: {
      fired.append(true)
    }
    model.name = "Grace"
    #expect(fired.count == 1, "a change to a property read under withObservationTracking must call onChange: is ProfileModel @Observable?")
  }

  @Test("every change arrives, not only the first: tracking is registered again after each one")
  func everyChangeArrives() async {
    let model = ProfileModel(name: "Ada")
    let (received, _, task) = consume(observations { model.name })
    await settle()
    #expect(received.values == ["Ada"], "the stream starts with the current value")
    model.name = "Grace"
    await settle()
    let stale =
      received.values == ["Ada", "Ada"]
      ? ". The old value again: onChange fires in willSet, before the new value is stored, so read after the hop to the main actor, not inside onChange"
      : ""
    #expect(
      received.values == ["Ada", "Grace"], "the first change arrives with the value after the change; got \(received.values)\(stale)")
    model.name = "Linus"
    await settle()
    #expect(
      received.values == ["Ada", "Grace", "Linus"],
      "the second change must arrive too: onChange fires once, so tracking must be registered again after every change; got \(received.values)"
    )
    task.cancel()
  }

  @Test("changes made in one main-actor turn arrive as one value, the last")
  func changesInOneTurnCoalesce() async {
    let model = ProfileModel(name: "Ada", unreadCount: 0)
    let (received, _, task) = consume(observations { "\(model.name): \(model.unreadCount)" })
    await settle()
    model.name = "Grace"
    model.unreadCount = 3
    await settle()
    #expect(
      received.values == ["Ada: 0", "Grace: 3"],
      "two writes in one turn: one new value, read after both, with both changes; got \(received.values)")
    task.cancel()
  }

  @Test func propertiesNotReadAreNotTracked() async {
    let model = ProfileModel(name: "Ada", unreadCount: 0)
    let (received, _, task) = consume(observations { model.name })
    await settle()
    model.unreadCount = 5
    await settle()
    #expect(received.values == ["Ada"], "read() never touched unreadCount, so changing it must not produce a value; got \(received.values)")
    model.name = "Grace"
    await settle()
    #expect(received.values == ["Ada", "Grace"], "a change to name still arrives; got \(received.values)")
    task.cancel()
  }

  @Test("cancelling the consumer finishes the stream, and nothing is read after that")
  func cancellingStopsTracking() async {
    let model = ProfileModel(name: "Ada")
    let reads = Counter()
    let (received, finished, task) = consume(
      observations {
        reads.increment()
        return model.name
      })
    await settle()
    model.name = "Grace"
    await settle()
    #expect(received.values == ["Ada", "Grace"], "two values before the consumer stops; got \(received.values)")
    task.cancel()
    await settle()
    #expect(finished.count == 1, "cancelling the consuming task must end its for-await loop")
    let readsBefore = reads.value
    model.name = "Linus"
    await settle()
    #expect(
      reads.value == readsBefore,
      "the consumer is gone: a later change must not read and re-register again (that is work, and a registration, kept alive forever)")
  }
}
