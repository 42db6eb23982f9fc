import Foundation
import Testing
import Workbook
import WorkbookTesting

@testable import Networking

/// How the refresh endpoint answers the refresh in flight.
enum RefreshAnswer: CustomStringConvertible {
  /// A new pair whose access token lives this many seconds.
  case grant(expiresIn: Int)
  case offline
  case serverError
  /// A 400 that is not `invalid_grant`: says nothing about the refresh token.
  case otherBadRequest
  /// A 400 `invalid_grant`: the refresh token is dead.
  case invalidGrant
  case unauthorized

  var description: String {
    switch self {
    case .grant(let seconds): "a new pair, expires_in \(seconds)"
    case .offline: "offline"
    case .serverError: "503"
    case .otherBadRequest: "400 invalid_request"
    case .invalidGrant: "400 invalid_grant"
    case .unauthorized: "401"
    }
  }

  /// What the refresh function throws, or nil for a grant.
  var error: (any Error)? {
    switch self {
    case .grant: nil
    case .offline: URLError(.notConnectedToInternet)
    case .serverError: NetworkError.http(status: 503, body: Data())
    case .otherBadRequest: NetworkError.http(status: 400, body: Data(#"{"error": "invalid_request"}"#.utf8))
    case .invalidGrant: NetworkError.http(status: 400, body: Data(#"{"error": "invalid_grant"}"#.utf8))
    case .unauthorized: NetworkError.unauthorized
    }
  }

  /// Whether the answer says the refresh token is dead.
  var signsOut: Bool {
    switch self {
    case .invalidGrant, .unauthorized: true
    default: false
    }
  }

  /// How a caller that gets this failure reports it.
  var failure: String {
    switch self {
    case .grant: "no failure"
    case .offline: "offline"
    case .serverError: "http 503"
    case .otherBadRequest: "http 400"
    case .invalidGrant, .unauthorized: "unauthorized"
    }
  }
}

/// Which token a 401 came back for.
enum RejectedToken: CustomStringConvertible {
  case current
  case older
  case none

  var description: String {
    switch self {
    case .current: "the current token"
    case .older: "an older token"
    case .none: "no token"
    }
  }
}

/// One thing a caller, the server or the device does to a token store (margin 60 s).
enum TokenStep: CustomStringConvertible {
  /// A caller asks `validAccessToken()`.
  case callerAsks
  /// A caller's request came back 401: `refreshedAccessToken(after:)`.
  case callerGot401(RejectedToken)
  /// The refresh endpoint answers the refresh in flight, if there is one.
  case refreshAnswers(RefreshAnswer)
  /// The task of one caller still waiting is cancelled (the pick modulo how many wait), when
  /// another caller still waits for the same refresh.
  case callerCancelled(pick: Int)
  /// The device's clock moves, backwards too (set by hand).
  case clockMoves(seconds: Int)
  /// `set` with a new login's token that expires this many seconds from now.
  case signIn(expiresIn: Int)
  case signOut

  var description: String {
    switch self {
    case .callerAsks: "a caller asks validAccessToken()"
    case .callerGot401(let rejected): "a caller's request with \(rejected) got a 401: refreshedAccessToken(after:)"
    case .refreshAnswers(let answer): "the refresh endpoint answers: \(answer)"
    case .callerCancelled(let pick):
      "the task of waiting caller number \(pick) (modulo how many wait) is cancelled, if another still waits"
    case .clockMoves(let seconds): "the device's clock moves \(seconds) s"
    case .signIn(let seconds): "set(a new login's token, expiring in \(seconds) s)"
    case .signOut: "set(nil)"
    }
  }
}

/// The token store as a state machine: signed out, a token well before its expiry, inside the
/// refresh margin (soft expiry), past `expiresAt` (hard expiry), with at most one refresh in
/// flight and the callers that wait for it.
struct TokenModel {
  struct Token: Equatable {
    var access: String
    var refresh: String
    var expiresAt: Int
  }

  enum Kind {
    case valid
    case after401
  }

  struct Waiter {
    var caller: Int
    var kind: Kind
    var cancelled = false
  }

  static let margin = 60

  var now = 0
  var token: Token? = Token(access: "a0", refresh: "r0", expiresAt: 120)
  var refreshing = false
  var waiters: [Waiter] = []
  /// The refresh token of every refresh started, in order.
  var refreshesSent: [String] = []
  var persisted: [String] = []
  var grants = 0
  var logins = 0
  var callers = 0
  /// What each caller that is done got; a cancelled caller may get `cancelled` instead.
  var results: [Int: String] = [:]
  /// Callers whose task was cancelled while they waited: each may return `cancelled` at once or
  /// wait for the shared result (the doc comment leaves the choice).
  var cancelled: Set<Int> = []

  func describe(_ token: Token?) -> String { token.map { "\($0.access) until \($0.expiresAt)" } ?? "signed out" }

  mutating func join(_ caller: Int, _ kind: Kind) {
    if !refreshing, let token {
      refreshing = true
      refreshesSent.append(token.refresh)
    }
    waiters.append(Waiter(caller: caller, kind: kind))
  }

  mutating func ask() -> Int {
    callers += 1
    guard let token else {
      results[callers] = "nil"
      return callers
    }
    if token.expiresAt - now > Self.margin {
      results[callers] = token.access
    } else {
      join(callers, .valid)
    }
    return callers
  }

  mutating func got401(for rejected: String?) -> Int {
    callers += 1
    guard let token else {
      results[callers] = "unauthorized"
      return callers
    }
    if token.access != rejected, !refreshing {
      results[callers] = token.access
    } else {
      join(callers, .after401)
    }
    return callers
  }

  /// Every waiter gets `result(kind)`.
  mutating func resolveWaiters(_ result: (Kind) -> String) {
    for waiter in waiters { results[waiter.caller] = result(waiter.kind) }
    waiters = []
    refreshing = false
  }

  mutating func answer(_ answer: RefreshAnswer) {
    guard refreshing else { return }
    if case .grant(let seconds) = answer {
      grants += 1
      let fresh = Token(access: "a\(grants)", refresh: "r\(grants)", expiresAt: now + seconds)
      token = fresh
      persisted.append(fresh.access)
      resolveWaiters { _ in fresh.access }
    } else if answer.signsOut {
      token = nil
      persisted.append("nil")
      resolveWaiters { _ in "unauthorized" }
    } else {
      let kept = token
      let now = now
      resolveWaiters { kind in
        if kind == .valid, let kept, kept.expiresAt > now { return kept.access }
        return answer.failure
      }
    }
  }

  mutating func set(_ new: Token?) {
    token = new
    persisted.append(new?.access ?? "nil")
    resolveWaiters { _ in new?.access ?? "unauthorized" }
  }
}

/// The refresh endpoint: each call waits until the test answers it, and ends at once when its
/// task is cancelled, as a request on `URLSession` does.
final class RefreshDesk: Sendable {
  private struct Call {
    let id: Int
    let continuation: CheckedContinuation<TokenGrant, any Error>
  }

  private let state = Locked<(calls: [String], pending: [Call], next: Int)>(([], [], 0))

  /// The refresh token of every call, in order.
  var calls: [String] { state.withLock { $0.calls } }
  var pending: Int { state.withLock { $0.pending.count } }

  func refresh(_ refreshToken: String) async throws -> TokenGrant {
    let id = state.withLock { state -> Int in
      state.next += 1
      state.calls.append(refreshToken)
      return state.next
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let cancelled = state.withLock { state -> Bool in
          if Task.isCancelled { return true }
          state.pending.append(Call(id: id, continuation: continuation))
          return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      let call = state.withLock { state -> Call? in
        guard let index = state.pending.firstIndex(where: { $0.id == id }) else { return nil }
        return state.pending.remove(at: index)
      }
      call?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Answers the newest call still waiting; false when none waits.
  @discardableResult
  func answer(_ result: Result<TokenGrant, any Error>) -> Bool {
    guard let call = state.withLock({ $0.pending.popLast() }) else { return false }
    call.continuation.resume(with: result)
    return true
  }

  /// Ends every call still waiting.
  func failAll() {
    let calls = state.withLock { state -> [Call] in
      defer { state.pending = [] }
      return state.pending
    }
    for call in calls { call.continuation.resume(throwing: CancellationError()) }
  }
}

/// The store under test, its device clock, its refresh endpoint, what it persisted, and its callers.
final class TokenWorld: Sendable {
  static let epoch = Date(timeIntervalSince1970: 1_000_000)
  let clock = Locked(0)
  let desk = RefreshDesk()
  let persisted = Locked<[String]>([])
  let store: TokenStore
  let callers = Locked<[Int: Task<Void, Never>]>([:])
  let results = Locked<[Int: String]>([:])

  init() {
    Quiescence.install()
    let (clock, desk, persisted) = (clock, desk, persisted)
    store = TokenStore(
      token: AuthToken(accessToken: "a0", refreshToken: "r0", expiresAt: Self.epoch + 120), refreshMargin: 60,
      now: { Self.epoch + TimeInterval(clock.withLock { $0 }) },
      persist: { token in persisted.withLock { $0.append(token?.accessToken ?? "nil") } },
      refresh: { try await desk.refresh($0) })
  }

  static func describe(_ error: NetworkError) -> String {
    switch error {
    case .unauthorized: "unauthorized"
    case .offline: "offline"
    case .cancelled: "cancelled"
    case .http(let status, _, _): "http \(status)"
    default: "\(error)"
    }
  }

  /// Starts caller `id` running `call`, which records what it got.
  func start(_ id: Int, _ call: @escaping @Sendable (TokenStore) async throws(NetworkError) -> String?) {
    let (store, results) = (store, results)
    let task = Task {
      let result: String
      do {
        result = try await call(store) ?? "nil"
      } catch {
        result = Self.describe(NetworkError(mapping: error))
      }
      results.withLock { $0[id] = result }
    }
    callers.withLock { $0[id] = task }
  }
}

@Suite("Exercise 4 — Single-flight token refresh (against a model)", .timeLimit(.minutes(1)))
struct Exercise4_TokenStoreModelTests {
  @Test(
    "callers before, inside and past the refresh margin, 401s for current, older and no tokens, refreshes that succeed, fail, go offline or sign out, cancelled waiters, clock jumps, sign-ins and sign-outs agree with a state machine"
  )
  func agreesWithAStateMachine() async {
    let check = ModelCheck<TokenStep, TokenModel, TokenWorld>(
      "TokenStore (margin 60 s) against its state machine", seeds: 1...40, steps: 24,
      replay: "make chapter-3 EXERCISE=4",
      generate: { random in
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<26: return .callerAsks
        case 26..<36: return .callerGot401(random.pick([.current, .older, .none]))
        case 36..<58:
          return .refreshAnswers(
            random.pick([
              .grant(expiresIn: random.pick([30, 60, 61, 120, 3600])), .grant(expiresIn: 120), .offline, .serverError,
              .otherBadRequest, .invalidGrant, .unauthorized,
            ]))
        case 58..<66: return .callerCancelled(pick: Int.random(in: 0..<8, using: &random))
        case 66..<88: return .clockMoves(seconds: random.pick([1, 30, 59, 60, 61, 120, -60, -3600]))
        case 88..<95: return .signIn(expiresIn: random.pick([30, 60, 61, 3600]))
        default: return .signOut
        }
      },
      model: { TokenModel() }, system: { TokenWorld() },
      step: { step, model, world, check in
        switch step {
        case .callerAsks:
          let id = model.ask()
          world.start(id) { store throws(NetworkError) in try await store.validAccessToken() }
        case .callerGot401(let rejected):
          let sent: String? =
            switch rejected {
            case .current: model.token?.access
            case .older: "a-older"
            case .none: nil
            }
          let id = model.got401(for: sent)
          world.start(id) { store throws(NetworkError) in try await store.refreshedAccessToken(after: sent) }
        case .refreshAnswers(let answer):
          let grants = model.grants
          model.answer(answer)
          if let error = answer.error {
            world.desk.answer(.failure(error))
          } else if case .grant(let seconds) = answer {
            world.desk.answer(
              .success(TokenGrant(accessToken: "a\(grants + 1)", refreshToken: "r\(grants + 1)", expiresIn: TimeInterval(seconds))))
          }
        case .callerCancelled(let pick):
          // Another caller must still wait: the promise is about the refresh the others wait for.
          // With none left, whether the refresh's late result is taken is the solution's choice.
          let waiting = model.waiters.indices.filter { !model.waiters[$0].cancelled }
          guard waiting.count > 1 else { break }
          let index = waiting[pick % waiting.count]
          model.waiters[index].cancelled = true
          model.cancelled.insert(model.waiters[index].caller)
          world.callers.withLock { $0[model.waiters[index].caller] }?.cancel()
        case .clockMoves(let seconds):
          model.now += seconds
          world.clock.withLock { $0 += seconds }
        case .signIn(let seconds):
          model.logins += 1
          let token = TokenModel.Token(access: "login\(model.logins)", refresh: "lr\(model.logins)", expiresAt: model.now + seconds)
          model.set(token)
          await world.store.set(
            AuthToken(
              accessToken: token.access, refreshToken: token.refresh, expiresAt: TokenWorld.epoch + TimeInterval(token.expiresAt)))
        case .signOut:
          model.set(nil)
          await world.store.set(nil)
        }
        await Quiescence.settle()
        // Callers: the done ones got what the model says; a cancelled one may have got `cancelled`.
        let results = world.results.withLock { $0 }
        let stillWaiting = Set(model.waiters.map(\.caller))
        for caller in 1..<(model.callers + 1) {
          let got = results[caller]
          let mayBeCancelled = model.cancelled.contains(caller) && got == "cancelled"
          if stillWaiting.contains(caller) {
            if let got, !mayBeCancelled {
              check.fail("caller \(caller) should still wait for the refresh in flight, but it got \(Agreement.show(got))")
            }
          } else if let expected = model.results[caller], !mayBeCancelled {
            check.same("what caller \(caller) got", model: expected, component: got ?? "nothing yet (it still waits)")
          }
        }
        check.same("the refresh tokens sent to the refresh endpoint, in order", model: model.refreshesSent, component: world.desk.calls)
        check.same("whether a refresh is in flight", model: model.refreshing, component: world.desk.pending > 0)
        check.same("the tokens persisted, in order", model: model.persisted, component: world.persisted.withLock { $0 })
        let current = await world.store.current
        check.same(
          "current", model: model.describe(model.token),
          component: model.describe(
            current.map {
              TokenModel.Token(
                access: $0.accessToken, refresh: $0.refreshToken, expiresAt: Int($0.expiresAt.timeIntervalSince(TokenWorld.epoch)))
            }))
      },
      tearDown: { world in
        world.desk.failAll()
        await Quiescence.settle()
      })
    if let failure = await check.run() { Issue.record("\(failure)") }
  }
}
