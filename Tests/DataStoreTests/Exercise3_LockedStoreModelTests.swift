import Testing
import WorkbookTesting

@testable import DataStore

@Suite("Exercise 3 — A lock-based store with transactions (against a model)", .timeLimit(.minutes(1)))
struct Exercise3_LockedStoreModelTests {
  @Test("transactions that set, remove and add, some throwing part-way, agree with a Dictionary after every step")
  func modelBased() async {
    let check = ModelCheck<DictionaryStep, [Int: Int], LockedStore<Int, Int>>(
      "LockedStore against a Dictionary", steps: 50, replay: "make chapter-1 EXERCISE=3",
      generate: { DictionaryStep.random([.set, .remove, .get, .transaction], using: &$0) },
      model: { [:] }, system: { LockedStore<Int, Int>() },
      step: { step, model, store, check in
        switch step {
        case .set(let value, let key):
          store.set(value, for: key)
          model[key] = value
        case .remove(let key):
          check.same("what \(step) returned", model: model.removeValue(forKey: key), component: store.remove(key))
        case .get(let key):
          check.same("what \(step) returned", model: model[key], component: store.get(key))
        case .transaction(let changes, let throwingAfter):
          // The model's transaction: on a copy, kept whole when the body returns, dropped when it throws.
          var draft = model
          let expected = Result { try DictionaryStep.run(changes, throwingAfter: throwingAfter, on: &draft) }
          if case .success = expected { model = draft }
          let outcome = Result { try store.transaction { try DictionaryStep.run(changes, throwingAfter: throwingAfter, on: &$0) } }
          check.same("what the transaction returned or threw", model: Self.describe(expected), component: Self.describe(outcome))
        case .removeAll, .replaceAll, .update:
          break
        }
        check.same("count", model: model.count, component: store.count)
        check.same("snapshot()", model: model, component: store.snapshot())
      })
    if let failure = await check.run() { Issue.record("\(failure)") }
  }

  static func describe(_ result: Result<Int, any Error>) -> String {
    switch result {
    case .success(let count): "returned \(count) (the count the body saw)"
    case .failure(let error): "threw \(error)"
    }
  }
}
