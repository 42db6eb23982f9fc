import Testing
import WorkbookTesting

@testable import DataStore

@Suite("Exercise 2 — Atomic update (against a model)", .timeLimit(.minutes(1)))
struct Exercise2_UpdateModelTests {
  @Test("updates that add, remove, insert or throw, mixed with every other call, agree with a Dictionary after every step")
  func updatesAgreeWithADictionary() async {
    let check = ModelCheck<DictionaryStep, [Int: Int], DataStore<Int, Int>>(
      "DataStore against a Dictionary", steps: 50, replay: "make chapter-1 EXERCISE=2",
      generate: { DictionaryStep.random([.set, .remove, .get, .removeAll, .replaceAll, .update], using: &$0) },
      model: { [:] }, system: { DataStore<Int, Int>() },
      step: { step, model, store, check in
        switch step {
        case .set(let value, let key):
          await store.set(value, for: key)
          model[key] = value
        case .remove(let key):
          check.same("what \(step) returned", model: model.removeValue(forKey: key), component: await store.remove(key))
        case .get(let key):
          check.same("what \(step) returned", model: model[key], component: await store.get(key))
        case .removeAll:
          await store.removeAll()
          model.removeAll()
        case .replaceAll(let values):
          await store.replaceAll(with: values)
          model = values
        case .update(let key, let transform):
          let expected = Result { try transform(model[key]) }
          if case .success(let value) = expected { model[key] = value }
          let outcome: Result<Int?, any Error>
          do {
            outcome = .success(try await store.update(key) { try transform($0) })
          } catch {
            outcome = .failure(error)
          }
          check.same("what \(step) returned or threw", model: Self.describe(expected), component: Self.describe(outcome))
        case .transaction:
          break
        }
        check.same("count", model: model.count, component: await store.count)
        check.same("snapshot()", model: model, component: await store.snapshot())
      })
    if let failure = await check.run() { Issue.record("\(failure)") }
  }

  static func describe(_ result: Result<Int?, any Error>) -> String {
    switch result {
    case .success(let value): "returned \(Agreement.show(value))"
    case .failure(let error): "threw \(error)"
    }
  }
}
