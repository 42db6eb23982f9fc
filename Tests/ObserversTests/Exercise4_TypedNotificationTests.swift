import Foundation
import Testing
import WorkbookTesting

@testable import Observers

struct UserDidLogIn: TypedNotification, Equatable {
  let userID: String
}

struct UserDidLogOut: TypedNotification, Equatable {
  let reason: String
}

struct BadgeChanged: TypedNotification, Equatable {
  static let name = Notification.Name("BadgeChanged")
  let count: Int
}

/// Two payload types whose short names are the same, as in two features of one app.
enum Billing {
  struct Updated: TypedNotification {}
}

enum Profile {
  struct Updated: TypedNotification {}
}

@Suite("Exercise 4 — Typed notifications", .timeLimit(.minutes(1)))
struct Exercise4_TypedNotificationTests {
  // Each test has its own center, so tests running in parallel never hear one another.
  let center = NotificationCenter()

  @Test func theObserverGetsThePayloadTyped() {
    let logins = Recorder<UserDidLogIn>()
    let token = center.observe(UserDidLogIn.self) { logins.append($0) }
    center.post(UserDidLogIn(userID: "u-42"))
    #expect(logins.values == [UserDidLogIn(userID: "u-42")], "the observer should get the posted payload, typed, once; got \(logins.values)")
    token.cancel()
  }

  @Test func payloadTypesDoNotCross() {
    let logins = Recorder<UserDidLogIn>()
    let logouts = Recorder<UserDidLogOut>()
    let tokens = [
      center.observe(UserDidLogIn.self) { logins.append($0) },
      center.observe(UserDidLogOut.self) { logouts.append($0) },
    ]
    center.post(UserDidLogOut(reason: "expired"))
    #expect(logins.values.isEmpty, "a logout must not reach login observers: each payload type has its own name")
    #expect(logouts.values == [UserDidLogOut(reason: "expired")], "the logout observer gets the logout")
    withExtendedLifetime(tokens) {}
  }

  @Test func theObserverRunsBeforePostReturnsOnThePostingThread() {
    // Each call records whether it ran on the thread that posted. A center given a queue for the
    // observer also waits for it before `post` returns, so the count alone cannot tell the two
    // apart: the thread can. (Both threads are alive while the observer runs, so two different
    // threads never share an identity.)
    let poster = ObjectIdentifier(Thread.current)
    let onThePoster = Recorder<Bool>()
    let token = center.observe(UserDidLogIn.self) { _ in onThePoster.append(ObjectIdentifier(Thread.current) == poster) }
    center.post(UserDidLogIn(userID: "a"))
    let calls = onThePoster.values
    #expect(
      calls.count == 1, "NotificationCenter delivers synchronously: the observer should have run once by the time post returns, and ran \(calls.count) times")
    #expect(
      calls.allSatisfy { $0 },
      "the observer ran on another thread than the one that posted: observe with `queue: nil`, so the center calls it on the posting thread (a poster that relies on that, such as one updating state it owns, would otherwise race with its own observer)"
    )
    token.cancel()
  }

  @Test func cancellingTheTokenEndsTheObservation() {
    let logins = Recorder<UserDidLogIn>()
    let token = center.observe(UserDidLogIn.self) { logins.append($0) }
    center.post(UserDidLogIn(userID: "first"))
    token.cancel()
    center.post(UserDidLogIn(userID: "second"))
    #expect(logins.values.map(\.userID) == ["first"], "after cancel() the observer must be removed from the center; got \(logins.values)")
  }

  @Test func releasingTheTokenEndsTheObservation() {
    let logins = Recorder<UserDidLogIn>()
    do {
      let token = center.observe(UserDidLogIn.self) { logins.append($0) }
      center.post(UserDidLogIn(userID: "first"))
      withExtendedLifetime(token) {}
    }
    center.post(UserDidLogIn(userID: "second"))
    #expect(logins.values.map(\.userID) == ["first"], "a released token cancels: the second post must not arrive; got \(logins.values)")
  }

  // The two tests below post what a force-cast traps on, so their posts run in a child process:
  // a trap there fails the test that made it, not the whole run. The child exits 0 when the
  // observer heard exactly the one BadgeChanged posted, 1 when it heard anything else.

  @Test("a notification under the name without a payload, or with the wrong one, is skipped")
  func aMissingOrWrongPayloadIsSkipped() async {
    await #expect(
      processExitsWith: .success,
      "a process that observed BadgeChanged, then posted under its name nothing, a payload under another key and one BadgeChanged(count: 5), should exit 0 (the observer heard only the typed post); it did not (1: it heard something else; a signal: it trapped, as a force-unwrap of the missing payload would)"
    ) {
      let center = NotificationCenter()
      let badges = Recorder<BadgeChanged>()
      let token = center.observe(BadgeChanged.self) { badges.append($0) }
      center.post(name: BadgeChanged.name, object: nil)
      center.post(name: BadgeChanged.name, object: nil, userInfo: ["count": 3])
      center.post(BadgeChanged(count: 5))
      token.cancel()
      if badges.values != [BadgeChanged(count: 5)] { exit(1) }
    }
  }

  @Test("a payload of another type under the payload key is skipped, not force-cast")
  func aPayloadOfAnotherTypeIsSkipped() async {
    await #expect(
      processExitsWith: .success,
      "a process that observed BadgeChanged, then posted under its name a UserDidLogIn, an Int and one BadgeChanged(count: 5), should exit 0 (the observer heard only the BadgeChanged); it did not (1: it heard something else; a signal: it trapped, as an `as!` would)"
    ) {
      // Older code, or another payload type that chose the same name, posts something else there.
      let center = NotificationCenter()
      let badges = Recorder<BadgeChanged>()
      let token = center.observe(BadgeChanged.self) { badges.append($0) }
      center.post(name: BadgeChanged.name, object: nil, userInfo: [typedPayloadKey: UserDidLogIn(userID: "u")])
      center.post(name: BadgeChanged.name, object: nil, userInfo: [typedPayloadKey: 3])
      center.post(BadgeChanged(count: 5))
      token.cancel()
      if badges.values != [BadgeChanged(count: 5)] { exit(1) }
    }
  }

  @Test func aTypedPostReachesAPlainObserverOfTheName() {
    let names = Recorder<String>()
    let observer = center.addObserver(forName: BadgeChanged.name, object: nil, queue: nil) { names.append($0.name.rawValue) }
    center.post(BadgeChanged(count: 1))
    center.removeObserver(observer)
    #expect(names.values == ["BadgeChanged"], "a typed post is an ordinary notification under the type's name, so older code can still listen")
  }

  @Test func payloadTypesWithTheSameShortNameHaveNamesOfTheirOwn() {
    #expect(
      Billing.Updated.name != Profile.Updated.name,
      "Billing.Updated and Profile.Updated both post as \(Billing.Updated.name.rawValue): derive the default name from the type's full name, `String(reflecting:)`"
    )
    let heard = Recorder<String>()
    let observer = center.addObserver(forName: Billing.Updated.name, object: nil, queue: nil) { heard.append($0.name.rawValue) }
    center.post(Profile.Updated())
    center.removeObserver(observer)
    #expect(heard.values.isEmpty, "a plain observer of Billing.Updated heard a post of Profile.Updated: \(heard.values)")
  }
}
