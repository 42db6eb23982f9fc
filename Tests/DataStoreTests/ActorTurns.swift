/// Starts one task per call, each queued on `actor` from inside one of its turns, in order.
///
/// A task made here shares the actor's isolation, so it is put in the actor's queue at once, and
/// none can start before this function returns and ends the turn. The calls then run one after
/// another, each waiting behind the one before: exactly the moment when a method that suspends
/// halfway lets the next caller in. Nothing is left to the scheduler.
///
/// Each call gets the actor as an `isolated` parameter, so it runs without leaving the actor.
/// Inside it, call the code under test through another reference to the same actor, with
/// `await`: the compiler then accepts both a synchronous method and one that suspends, and at run
/// time the call stays on the actor.
func queueBehindOneTurn<A: Actor>(
  of actor: isolated A, _ calls: [@Sendable (isolated A) async -> Void]
) -> [Task<Void, Never>] {
  calls.map { call in Task { await call(actor) } }
}
