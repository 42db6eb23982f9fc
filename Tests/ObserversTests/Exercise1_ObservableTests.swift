import Dispatch
import Testing
import WorkbookTesting

@testable import Observers

@Suite("Exercise 1 — An observable value with tokens", .timeLimit(.minutes(1)))
struct Exercise1_ObservableTests {
  @Test func theFirstCallCarriesTheCurrentValue() {
    let name = Observable("Ada")
    let seen = Recorder<String>()
    let token = name.observe { seen.append($0) }
    #expect(seen.values == ["Ada"], "observe(initial: true) should call the handler at once with the current value, so a screen can render it")
    name.value = "Grace"
    #expect(name.value == "Grace", "the setter should store the new value")
    #expect(seen.values == ["Ada", "Grace"], "after one write the observer should have the current value and the change, got \(seen.values)")
    token.cancel()
  }

  @Test func withoutInitialOnlyChangesArrive() {
    let count = Observable(0)
    let seen = Recorder<Int>()
    let token = count.observe(initial: false) { seen.append($0) }
    #expect(seen.values.isEmpty, "observe(initial: false) must not call the handler before the first change")
    count.value = 1
    count.value = 2
    #expect(seen.values == [1, 2], "each write is one change, delivered once and in order; got \(seen.values)")
    token.cancel()
  }

  @Test func everyObserverGetsEveryChangeOnceInOrder() {
    let count = Observable(0)
    let recorders = (0..<3).map { _ in Recorder<Int>() }
    let tokens = recorders.map { recorder in count.observe(initial: false) { recorder.append($0) } }
    for next in 1...5 { count.value = next }
    for (index, recorder) in recorders.enumerated() {
      #expect(recorder.values == [1, 2, 3, 4, 5], "observer \(index) should get 1...5 exactly once each, in order; got \(recorder.values)")
    }
    #expect(count.observerCount == 3, "three observers are registered")
    withExtendedLifetime(tokens) {}
  }

  @Test func observersHearAChangeInTheOrderTheyRegistered() {
    let count = Observable(0)
    let calls = Recorder<String>()
    let tokens = ["first", "second", "third"].map { name in
      count.observe(initial: false) { calls.append("\(name) got \($0)") }
    }
    count.value = 1
    count.value = 2
    #expect(
      calls.values == ["first got 1", "second got 1", "third got 1", "first got 2", "second got 2", "third got 2"],
      "each change goes to the observers in the order they registered, and the next change only after that; got \(calls.values)"
    )
    withExtendedLifetime(tokens) {}
  }

  @Test func writingTheSameValueTwiceIsTwoChanges() {
    let flag = Observable(true)
    let seen = Recorder<Bool>()
    let token = flag.observe(initial: false) { seen.append($0) }
    flag.value = true
    flag.value = true
    #expect(seen.values == [true, true], "Value need not be Equatable, so every write is a change: two writes, two calls")
    token.cancel()
  }

  @Test func cancellingTheTokenStopsDelivery() {
    let count = Observable(0)
    let seen = Recorder<Int>()
    let token = count.observe(initial: false) { seen.append($0) }
    count.value = 1
    token.cancel()
    count.value = 2
    #expect(seen.values == [1], "after cancel() the observer must not be called again; got \(seen.values)")
    #expect(count.observerCount == 0, "cancel() should remove the observer, or the closure (and all it captures) leaks")
    #expect(token.isCancelled, "the token should report that it was cancelled")
    token.cancel()
    #expect(count.observerCount == 0, "cancelling twice is harmless")
  }

  @Test("releasing the token cancels the observation, like AnyCancellable")
  func releasingTheTokenCancels() {
    let count = Observable(0)
    let seen = Recorder<Int>()
    do {
      let token = count.observe(initial: false) { seen.append($0) }
      count.value = 1
      withExtendedLifetime(token) {}
    }
    count.value = 2
    #expect(seen.values == [1], "the token was released: its deinit cancels, so the change to 2 must not arrive; got \(seen.values)")
    #expect(count.observerCount == 0, "a released token should leave no observer behind")
  }

  @Test("a screen that captures itself weakly is freed, and its observation ends with it")
  func aScreenIsFreedWithItsToken() {
    final class Screen: @unchecked Sendable {
      var title = ""
      var tokens: Set<ObserverToken> = []
      init(_ model: Observable<String>) {
        model.observe { [weak self] in self?.title = $0 }.store(in: &tokens)
      }
    }
    let model = Observable("Inbox")
    weak var weakScreen: Screen?
    do {
      let screen = Screen(model)
      weakScreen = screen
      #expect(screen.title == "Inbox", "the screen should render the current value at once")
      #expect(model.observerCount == 1, "the screen registered one observer")
    }
    #expect(weakScreen == nil, "the screen should be freed: the observable holds the closure, the closure holds the screen only weakly")
    #expect(model.observerCount == 0, "the screen's tokens went with it, so its observer should be gone")
  }

  @Test func theTokenDoesNotKeepTheObservableAlive() {
    weak var weakModel: Observable<Int>?
    var token: ObserverToken?
    do {
      let model = Observable(1)
      weakModel = model
      token = model.observe { _ in }
    }
    #expect(weakModel == nil, "a token should refer to its observable weakly: holding a token must not keep the model alive")
    token?.cancel()
  }

  @Test func aThrowingUpdateChangesNothing() {
    struct Invalid: Error {}
    let count = Observable(1)
    let seen = Recorder<Int>()
    let token = count.observe(initial: false) { seen.append($0) }
    #expect(throws: Invalid.self, "the transform's error should reach the caller") {
      try count.update { value in
        value = 99
        throw Invalid()
      }
    }
    #expect(count.value == 1, "a transform that throws must leave the value as it was")
    #expect(seen.values.isEmpty, "nothing changed, so nobody should be told")
    token.cancel()
  }

  @Test("an increment from another thread, at any moment the lock is free, is kept")
  func anIncrementInEveryGapIsKept() {
    // Scenario n lets another thread add 1 right after the n-th time this thread's increment
    // releases the lock, until there is no n-th time. An update that reads the value in one
    // critical section and writes it in another has a gap where the other increment is lost.
    for moment in 1...100 {
      let intruder = Intruder(at: moment)
      let count = Observable(0, afterUnlock: intruder.afterUnlock)
      intruder.arm { count.update { $0 += 1 } }
      count.update { $0 += 1 }
      intruder.disarm()
      guard intruder.intruded else {
        #expect(count.value == 1, "one increment from 0 should leave 1, not \(count.value)")
        return
      }
      guard !intruder.gotStuck else {
        Issue.record(
          "an increment from another thread, made while this one was outside the lock, never finished: does update hold a lock of its own while it delivers?")
        return
      }
      let value = count.value
      guard value == 2 else {
        Issue.record(
          "another thread added 1 right after this update's unlock number \(moment), and the value is \(value), not 2: read, transform and write the value inside one withLock, or two writers start from the same old value"
        )
        return
      }
    }
  }

  @Test("1,000 concurrent increments: none lost, each delivered once")
  func concurrentIncrementsAreNotLost() {
    let count = Observable(0)
    let seen = Recorder<Int>()
    let token = count.observe(initial: false) { seen.append($0) }
    // Every writer returns, and so does whoever delivers for them, before concurrentPerform does.
    DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
      count.update { $0 += 1 }
    }
    #expect(count.value == 1_000, "update reads and writes under one lock, so 1,000 increments end at 1,000, not \(count.value)")
    #expect(seen.count == 1_000, "1,000 changes should reach the observer 1,000 times, not \(seen.count)")
    #expect(Set(seen.values) == Set(1...1_000), "every intermediate value 1...1,000 should be delivered exactly once")
    token.cancel()
  }

  @Test("a cancellation runs once: not again for a cancel from another thread while it runs, a second cancel, or the release")
  func aCancellationRunsOnce() {
    let runs = Recorder<Int>()
    let slot = WeakTokenSlot()
    do {
      let token = ObserverToken {
        runs.append(1)
        guard runs.count == 1 else { return }
        // Another thread cancels the token while this cancellation runs; wait for its call to return.
        let returned = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
          slot.token?.cancel()
          returned.signal()
        }
        returned.wait()
      }
      slot.token = token
      token.cancel()
      #expect(
        runs.count == 1,
        "a cancel() from another thread while the cancellation was running ran it again: \(runs.count) runs. Take the action out of the token, under its lock, before running it"
      )
      token.cancel()
      #expect(runs.count == 1, "a second cancel() ran the cancellation again: \(runs.count) runs")
    }
    #expect(runs.count == 1, "releasing a token already cancelled ran the cancellation again: \(runs.count) runs")
  }
}

/// Lets a token's own cancellation reach the token without keeping it alive.
final class WeakTokenSlot: @unchecked Sendable {
  // @unchecked: written once, before the token can be cancelled; read only after that.
  weak var token: ObserverToken?
}
