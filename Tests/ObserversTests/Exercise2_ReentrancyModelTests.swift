import Testing
import WorkbookTesting

@testable import Observers

/// What the app does to an observable, one step at a time: register observers that may write or
/// cancel themselves while they are being told, write, update, and end observations.
enum ObservableStep: CustomStringConvertible {
  case observe(initial: Bool, reaction: Reaction)
  case set(Int)
  case increment
  case failingUpdate
  case cancel(observer: Int)
  /// The app drops its token without cancelling it.
  case release(observer: Int)

  /// What an observer does the first time it is told about a change (not at its first call).
  enum Reaction: Equatable, CustomStringConvertible {
    case nothing
    case writes(Int)
    case cancelsItself
    /// Cancels the token of observer number `n`, if the app still holds it.
    case cancels(observer: Int)

    var description: String {
      switch self {
      case .nothing: "records the value"
      case .writes(let value): "records the value, and on its first change writes \(value)"
      case .cancelsItself: "records the value, and on its first change cancels its own token"
      case .cancels(let other): "records the value, and on its first change cancels observer #\(other)'s token"
      }
    }
  }

  var description: String {
    switch self {
    case .observe(let initial, let reaction): "observe(initial: \(initial)): an observer that \(reaction)"
    case .set(let value): "value = \(value)"
    case .increment: "update { $0 += 1 }"
    case .failingUpdate: "update { $0 += 1; throw }"
    case .cancel(let observer): "cancel observer #\(observer)'s token"
    case .release(let observer): "release observer #\(observer)'s token (dropped, never cancelled)"
    }
  }

  static func random(using random: inout SeededRandom) -> ObservableStep {
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<25:
      let reaction = random.pick([
        Reaction.nothing, .nothing, .writes(Int.random(in: 100..<200, using: &random)), .cancelsItself,
        .cancels(observer: Int.random(in: 1...6, using: &random)),
      ])
      return .observe(initial: random.chance(50), reaction: reaction)
    case 25..<55: return .set(Int.random(in: 0..<100, using: &random))
    case 55..<70: return .increment
    case 70..<78: return .failingUpdate
    case 78..<90: return .cancel(observer: Int.random(in: 1...6, using: &random))
    default: return .release(observer: Int.random(in: 1...6, using: &random))
    }
  }
}

/// The observable as its doc comments describe it, for one thread: changes queue up, the first
/// caller delivers them oldest first, each to the observers registered before the change and not
/// ended by the time it comes to them, in registration order; a write made during a delivery
/// waits for it to finish.
struct ObservableModel {
  struct Observer {
    let number: Int
    let registeredAt: Int
    let reaction: ObservableStep.Reaction
    var active = true
    var reacted = false
  }

  var value = 0
  var version = 0
  var observers: [Observer] = []
  var queue: [(version: Int, value: Int, onlyTo: Int?)] = []
  var delivering = false
  /// The observers whose tokens the app still holds (a released token cannot be cancelled).
  var held: Set<Int> = []
  /// Every call of every observer, in order: (observer number, value).
  var calls: [Call] = []

  mutating func write(_ newValue: Int) {
    version += 1
    value = newValue
    queue.append((version, newValue, nil))
    deliver()
  }

  mutating func observe(initial: Bool, reaction: ObservableStep.Reaction) {
    observers.append(Observer(number: observers.count + 1, registeredAt: version, reaction: reaction))
    held.insert(observers.count)
    if initial { queue.append((version, value, observers.count)) }
    deliver()
  }

  mutating func end(_ number: Int) {
    if let index = observers.firstIndex(where: { $0.number == number }) { observers[index].active = false }
  }

  private mutating func deliver() {
    guard !delivering else { return }
    delivering = true
    while !queue.isEmpty {
      let delivery = queue.removeFirst()
      for index in observers.indices where observers[index].active {
        if let only = delivery.onlyTo {
          if observers[index].number == only { calls.append(Call(observer: only, value: delivery.value)) }
          continue
        }
        guard observers[index].registeredAt < delivery.version else { continue }
        calls.append(Call(observer: observers[index].number, value: delivery.value))
        guard !observers[index].reacted else { continue }
        observers[index].reacted = true
        switch observers[index].reaction {
        case .nothing: break
        case .writes(let newValue):
          version += 1
          value = newValue
          queue.append((version, newValue, nil))
        case .cancelsItself: observers[index].active = false
        case .cancels(let other): if held.contains(other) { end(other) }
        }
      }
    }
    delivering = false
  }
}

struct Call: Equatable, Sendable, CustomStringConvertible {
  var observer: Int
  var value: Int
  var description: String { "#\(observer) got \(value)" }
}

/// The observable under test, the tokens the app holds, and every call its observers made.
final class ObservableWorld: @unchecked Sendable {
  let observable = Observable(0)
  var tokens: [Int: ObserverToken] = [:]
  let calls = Recorder<Call>()
  var registered = 0

  /// Lets an observer reach its own token, which exists only once `observe` has returned.
  final class TokenSlot: @unchecked Sendable {
    weak var token: ObserverToken?
  }

  func observe(initial: Bool, reaction: ObservableStep.Reaction) {
    registered += 1
    let number = registered
    let slot = TokenSlot()
    let reacted = Recorder<Bool>()
    let told = Recorder<Int>()
    let observable = observable
    let calls = calls
    let token = observable.observe(initial: initial) { [weak world = self] value in
      calls.append(Call(observer: number, value: value))
      told.append(value)
      if initial && told.count == 1 { return }  // the first call is no change
      guard reacted.count == 0 else { return }
      reacted.append(true)
      switch reaction {
      case .nothing: break
      case .writes(let newValue): observable.value = newValue
      case .cancelsItself: slot.token?.cancel()
      case .cancels(let other): world?.tokens[other]?.cancel()
      }
    }
    slot.token = token
    tokens[number] = token
  }
}

@Suite("Exercise 2 — Re-entrancy: one delivery at a time (against a model)", .timeLimit(.minutes(1)))
struct Exercise2_ReentrancyModelTests {
  @Test("observers that write or cancel themselves while told, writes, failing updates and ended tokens agree with a model")
  func agreesWithAModel() async {
    let check = ModelCheck<ObservableStep, ObservableModel, ObservableWorld>(
      "Observable against its model", steps: 40, replay: "make chapter-2 EXERCISE=2",
      generate: { ObservableStep.random(using: &$0) },
      model: { ObservableModel() }, system: { ObservableWorld() },
      step: { step, model, world, check in
        switch step {
        case .observe(let initial, let reaction):
          world.observe(initial: initial, reaction: reaction)
          model.observe(initial: initial, reaction: reaction)
        case .set(let value):
          world.observable.value = value
          model.write(value)
        case .increment:
          world.observable.update { $0 += 1 }
          model.write(model.value + 1)
        case .failingUpdate:
          struct Refused: Error {}
          _ = try? world.observable.update { value throws in
            value += 1
            throw Refused()
          }
        case .cancel(let number):
          world.tokens[number]?.cancel()
          model.end(number)
        case .release(let number):
          world.tokens[number] = nil
          model.held.remove(number)
          model.end(number)
        }
        check.same("value", model: model.value, component: world.observable.value)
        check.same("observerCount", model: model.observers.filter(\.active).count, component: world.observable.observerCount)
        check.same("every call of every observer, in order", model: model.calls, component: world.calls.values)
      })
    if let failure = await check.run() { Issue.record("\(failure)") }
  }
}
