import Dispatch
import Foundation
import Testing
import WorkbookTesting

@testable import DataStore

@Suite("Exercise 3 — A lock-based store with transactions", .timeLimit(.minutes(1)))
struct Exercise3_LockedStoreTests {
  struct Insufficient: Error {}

  @Test func basicOperations() {
    let store = LockedStore<String, Int>()
    store.set(1, for: "a")
    store.set(2, for: "b")
    #expect(store.get("a") == 1, "get should return what set stored")
    #expect(store.count == 2, "two keys were set: count should be 2")
    #expect(store.remove("a") == 1, "remove should return the removed value")
    #expect(store.get("a") == nil, "after remove, get should return nil")
    #expect(store.snapshot() == ["b": 2], "snapshot should hold exactly the remaining values")
  }

  @Test func transactionChangesSeveralKeysAndReturnsItsResult() {
    let store = LockedStore(["alice": 100, "bob": 0])
    let moved = store.transaction { accounts -> Int in
      accounts["alice", default: 0] -= 30
      accounts["bob", default: 0] += 30
      return 30
    }
    #expect(moved == 30, "transaction should return what its body returns")
    #expect(store.snapshot() == ["alice": 70, "bob": 30], "both changes of the transaction should be stored")
  }

  @Test func aThrowingTransactionChangesNothing() {
    let store = LockedStore(["alice": 10, "bob": 0])
    #expect(throws: Insufficient.self, "the body's error should reach the caller") {
      try store.transaction { accounts in
        accounts["bob", default: 0] += 50
        if accounts["alice", default: 0] < 50 { throw Insufficient() }
        accounts["alice", default: 0] -= 50
      }
    }
    #expect(
      store.snapshot() == ["alice": 10, "bob": 0],
      "the body threw after crediting bob: a transaction is all or nothing, so bob must still have 0")
  }

  @Test("a transaction made at any moment the lock is free still counts")
  func aTransactionInEveryGapCounts() {
    // Scenario n steps in right after the n-th time the first transaction releases the lock, and
    // runs a second transaction there, as another thread could. A transaction that reads in one
    // critical section and writes back in another (or reads before taking the lock) has such a
    // gap, and the second transaction's increment is lost in it. The scenarios stop once the
    // first transaction no longer releases the lock that many times.
    for moment in 1...20 {
      let intruder = Intruder(at: moment)
      let store = LockedStore<String, Int>(["count": 0], afterUnlock: intruder.afterUnlock)
      intruder.arm { store.transaction { $0["count", default: 0] += 1 } }
      store.transaction { contents in contents["count", default: 0] += 1 }
      intruder.disarm()
      let count = store.get("count")
      guard intruder.intruded else {
        #expect(count == 1, "one transaction added 1, so the count should be 1, not \(count.map(String.init) ?? "nil")")
        return
      }
      guard count == 2 else {
        Issue.record(
          "a second transaction ran right after the first one's unlock number \(moment), and the count is \(count.map(String.init) ?? "nil"), not 2: the first transaction read its copy in one critical section and wrote it back in another, erasing the second. Read, change and write back inside one withLock"
        )
        return
      }
    }
  }

  @Test("concurrent transfers keep the total")
  func concurrentTransfersKeepTheTotal() async {
    let store = LockedStore(Dictionary(uniqueKeysWithValues: (0..<10).map { ($0, 1_000) }))
    DispatchQueue.concurrentPerform(iterations: 2_000) { index in
      let from = index % 10
      let to = (index * 7 + 3) % 10
      store.transaction { accounts in
        accounts[from, default: 0] -= 1
        accounts[to, default: 0] += 1
      }
    }
    let total = store.snapshot().values.reduce(0, +)
    #expect(total == 10_000, "2,000 transfers moved money between accounts, so the total must stay 10,000, not \(total)")
  }

  @Test("concurrent transactions each see the others' writes: 2,000 increments make 2,000")
  func concurrentTransactionsAreAtomic() {
    // Ten thousand other keys make each transaction's copy slow enough (tens of microseconds)
    // that transactions which copy outside the lock overlap. Two threads of their own, not the
    // shared pool: while other tests run, the pool may give every iteration to one thread.
    let store = LockedStore(Dictionary(uniqueKeysWithValues: (0..<10_000).map { ("key \($0)", $0) }))
    let done = DispatchGroup()
    for _ in 0..<2 {
      done.enter()
      Thread {
        for _ in 0..<1_000 { store.transaction { contents in contents["count", default: 0] += 1 } }
        done.leave()
      }.start()
    }
    done.wait()
    let count = store.get("count") ?? 0
    #expect(
      count == 2_000,
      "2,000 transactions each added 1, so the count must be 2,000, not \(count): a transaction that reads its copy before taking the lock, or writes it back in a second step, lets two transactions start from the same old value"
    )
  }

  @Test("a snapshot taken while a transfer lands at any moment the lock is free sees it whole or not at all")
  func aSnapshotSeesATransferWholeOrNotAtAll() {
    // Scenario n moves the one coin from alice to bob right after the n-th time the snapshot
    // releases the lock. A snapshot copied in more than one critical section has such a gap, and
    // the copy then holds one account from before the transfer and the other from after it.
    for moment in 1...20 {
      let intruder = Intruder(at: moment)
      let store = LockedStore(["alice": 1, "bob": 0], afterUnlock: intruder.afterUnlock)
      intruder.arm {
        store.transaction { accounts in
          accounts["alice", default: 0] -= 1
          accounts["bob", default: 0] += 1
        }
      }
      let snapshot = store.snapshot()
      intruder.disarm()
      let total = snapshot.values.reduce(0, +)
      guard total == 1 else {
        Issue.record(
          "a transfer ran right after the snapshot's unlock number \(moment), and the snapshot \(snapshot) holds \(total) coins, not 1: it copied the accounts in separate critical sections. Return the contents from one withLock"
        )
        return
      }
      guard intruder.intruded else { return }
    }
  }
}
