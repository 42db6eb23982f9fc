import Foundation
import Networking
import Sync

/// What the simulation's network saw each device send, held to what an engine owes the server and
/// the user's battery and data: a cost the screens never show. Pages are asked for at the app's
/// size and from the token it holds, starting over once a sync after a 410; a batch is no bigger
/// than the app's batch size (both held to what the server takes), and no note's oldest edit is
/// passed over for a newer one; an edit the server answered for good is not sent again, nor one
/// made on top of an applied edit with that edit's old base, nor any edit after a push refused as
/// older than the tombstone horizon until the resync that follows has its last page; no note goes
/// out in more rounds than
/// `SyncEngine.maximumPushRounds`; a push is retried exactly as chapter 3's policy says, waiting
/// on the engine's clock. What a device learned from a reply it forgets when it relaunches or its
/// disk refuses a write (it may then rightly ask again).
struct WireLedger {
  /// Each device's batch size and page size, held to what the server takes.
  let sizes: [String: (batch: Int, page: Int)]
  let maxAttempts: Int

  /// Every change token a page that reached a device carried.
  private var tokens = Set<String>()
  /// Per device, the ids the server answered for good in a reply the device got: applied, gone,
  /// or refused because a delete won.
  private var settled: [String: Set<String>] = [:]
  /// The devices that have saved a change token (a sync of theirs returned) and got no 410 since.
  private var holdsToken = Set<String>()

  /// Per device, for each note, the base its edits were sent on when the server applied one, and
  /// the version that edit made: a later edit of the note is made on top of the applied one.
  private var applied: [String: [String: (base: Int, version: Int)]] = [:]

  init(sizes: [String: (batch: Int, page: Int)], maxAttempts: Int) {
    self.sizes = sizes
    self.maxAttempts = maxAttempts
  }

  /// The device relaunched or its disk refused a write: what it learned from replies may be lost.
  mutating func forget(_ device: String) {
    settled[device] = nil
    applied[device] = nil
  }

  /// A sync of `device` returned: its pull saved a token.
  mutating func synced(_ device: String) { holdsToken.insert(device) }

  /// Whether chapter 3's policy retries what this exchange met: a 503, a timeout, or a dropped
  /// connection where `URLSession` reports it as transient (see `ChaosNetwork.droppedConnection`).
  private static func retryable(_ exchange: ChaosNetwork.Exchange) -> Bool {
    guard exchange.fault != nil else { return false }
    guard let status = exchange.status else {
      return RetryPolicy.transientCodes.contains(exchange.code ?? ChaosNetwork.droppedConnection)
    }
    return RetryPolicy.retryableStatuses.contains(status)
  }

  private static func met(_ exchange: ChaosNetwork.Exchange) -> String {
    guard let fault = exchange.fault else { return "no network (offline)" }
    guard let status = exchange.status else { return "\(fault.rawValue), \(ChaosNetwork.name(exchange.code ?? ChaosNetwork.droppedConnection))" }
    return status == 200 ? "the server's answer (200)" : "a \(status)"
  }

  /// The requests one step of `device` made, checked in order; `failed`: the step's sync threw;
  /// `sleeps`: how many waits on the engine's clock the step made.
  ///
  /// Returns what broke, and the number of notes-file writes the replies allow (one per result,
  /// per page and per 410).
  mutating func check(
    _ exchanges: [ChaosNetwork.Exchange], of device: String, failed: Bool, sleeps: Int, step: Int
  ) -> (problems: [String], writesAllowed: Int, heldBack: Set<String>) {
    var problems: [String] = []
    var writesAllowed = 0
    var retries = 0
    var attempts = 0
    var previous: ChaosNetwork.Exchange?
    var sentNotes = Set<String>()
    var startsOver = 0
    // A push was refused as older than the tombstone horizon and no pull has brought a last page since.
    var resyncOwed = false
    // How many pushes carried each note's edits in this sync, a resend of the same push not
    // counted: a round carries a note once.
    var rounds: [String: Int] = [:]
    // What this step learns from replies counts for later steps only when its sync returned: a push
    // that fails drops the results of its earlier batches too, and sends them again next time.
    var settled = settled[device, default: []]
    var applied = applied[device, default: [:]]
    defer {
      if !failed { (self.settled[device], self.applied[device]) = (settled, applied) }
    }
    let (batchSize, pageSize) = sizes[device] ?? (1, 1)
    for exchange in exchanges {
      defer { previous = exchange }
      if exchange.isPull {
        attempts = 0
        let query = exchange.request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }?.queryItems ?? []
        let limit = query.first { $0.name == "limit" }?.value
        if limit != String(pageSize) {
          problems.append(
            "step \(step): \(device) asked for a page with limit=\(limit ?? "(none)"); its page size, held to the server's 1 to 500, is \(pageSize)")
        }
        if let since = query.first(where: { $0.name == "since" })?.value {
          if !tokens.contains(since) {
            problems.append("step \(step): \(device) pulled since=\"\(since)\", a token no page the server sent ever carried")
          }
        } else if previous?.isPull == true, previous?.status == 410 {
          startsOver += 1
          if startsOver == 2 {
            problems.append(
              "step \(step): \(device)'s sync started its pull over from the beginning twice, after two 410s: a pull starts over once, and another 410 in it ends the sync with .tokenExpired (a server that keeps forgetting would keep the device asking without end)"
            )
          }
        } else if holdsToken.contains(device) {
          problems.append(
            "step \(step): \(device) pulled from the beginning (no since=) although it had saved a change token and got no 410 since: every note is downloaded again"
          )
        }
        if exchange.status == 410 {
          // The device starts its copy over, whether or not this sync returns: an edit made before
          // the first page comes back is made on v0 of a note it held.
          holdsToken.remove(device)
          applied = [:]
          self.applied[device] = nil
          writesAllowed += 1
        } else if exchange.status == 200, let reply = exchange.reply, let page = try? SyncJSON.decoder().decode(ChangePage.self, from: reply) {
          tokens.insert(page.next)
          writesAllowed += 1
          if !page.more { resyncOwed = false }
        }
        continue
      }
      guard exchange.isPush, let body = exchange.request.httpBody else { continue }
      if resyncOwed {
        problems.append(
          "step \(step): \(device) pushed again after its push was refused as older than the server's tombstone horizon (410), before a pull brought its last page: an edit it sends before the copy is whole may be of a note deleted elsewhere and collected, and bring it back"
        )
        resyncOwed = false
      }
      if let earlier = previous, earlier.isPush, earlier.request.httpBody == body {
        attempts += 1
        retries += 1
        if !Self.retryable(earlier) {
          problems.append(
            "step \(step): \(device) sent the same push again after it met \(Self.met(earlier)), which chapter 3's policy does not retry")
        }
      } else {
        attempts = 1
      }
      if attempts > maxAttempts {
        problems.append("step \(step): \(device) sent one push \(attempts) times in a row; the policy allows \(maxAttempts) attempts")
      }
      guard let push = try? SyncJSON.decoder().decode(PushBody.self, from: body) else { continue }
      if attempts == 1 {
        for note in Set(push.mutations.map(\.note)) { rounds[note, default: 0] += 1 }
      }
      if push.mutations.count > batchSize {
        problems.append(
          "step \(step): \(device) sent \(push.mutations.count) edits in one push; its batch size, held to the server's 1 to 100, is \(batchSize)")
      }
      for mutation in push.mutations where settled.contains(mutation.id) {
        problems.append(
          "step \(step): \(device) sent its edit of \(mutation.note)@\(mutation.base) again after the server had answered it for good (applied, gone, lost to a delete, or refused) in a reply \(device) got"
        )
      }
      // A round sends each note's oldest edit, oldest first: none is passed over for a newer one.
      if let outbox = exchange.outbox {
        let position = Dictionary(outbox.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let newest = push.mutations.compactMap { position[$0.id] }.max() ?? -1
        let inPush = Set(push.mutations.map(\.note))
        var heads = Set<String>()
        for (index, edit) in outbox.enumerated() where heads.insert(edit.note).inserted && index < newest {
          guard !sentNotes.contains(edit.note), !inPush.contains(edit.note) else { continue }
          problems.append(
            "step \(step): \(device) pushed its edit of \(outbox[newest].note) while its outbox held an older edit of \(edit.note), the oldest of that note, that this sync had not sent: a round sends each note's oldest edit, oldest first"
          )
        }
        sentNotes.formUnion(inPush)
      }
      for mutation in push.mutations where !settled.contains(mutation.id) {
        if let earlier = applied[mutation.note], earlier.base == mutation.base {
          problems.append(
            "step \(step): \(device) sent an edit of \(mutation.note) on v\(mutation.base) after the server had applied its earlier edit on v\(mutation.base), making v\(earlier.version), in a reply \(device) got: an edit made on top of the applied one is now on v\(earlier.version), and sent on v\(mutation.base) it meets a 412 for the device's own change"
          )
        }
      }
      if exchange.status == 410 {
        // Refused whole: the device's token predates the tombstone horizon. It starts its copy
        // over from the beginning (one write of its notes) and pushes nothing until that copy is whole.
        holdsToken.remove(device)
        applied = [:]
        self.applied[device] = nil
        writesAllowed += 1
        resyncOwed = true
        continue
      }
      guard exchange.status == 200, let reply = exchange.reply, let results = try? SyncJSON.decoder().decode(PushReply.self, from: reply).results
      else { continue }
      writesAllowed += results.count
      for result in results {
        if result.status == 200 || result.status == 410 || (result.status == 412 && result.record.deleted)
          || PushResult.refusedForGood.contains(result.status)
        {
          settled.insert(result.id)
        }
        if result.status == 200, let sent = push.mutations.first(where: { $0.id == result.id }) {
          applied[sent.note] = (sent.base, result.record.version)
        }
      }
    }
    if failed, let last = exchanges.last, last.isPush, Self.retryable(last), attempts < maxAttempts {
      problems.append(
        "step \(step): \(device)'s sync gave up after \(attempts) attempt\(attempts == 1 ? "" : "s") of a push that met \(Self.met(last)), which the policy retries up to \(maxAttempts) attempts"
      )
    }
    if sleeps < retries {
      problems.append(
        "step \(step): \(device) retried a push \(retries) times but waited on the engine's clock \(sleeps) times: a retry that does not wait on the clock it was given waits on the wall clock, or not at all"
      )
    }
    let most = SyncEngine.maximumPushRounds
    for (note, count) in rounds.sorted(by: { $0.key < $1.key }) where count > most {
      problems.append(
        "step \(step): \(device)'s sync pushed edits of \(note) in \(count) rounds: a sync makes at most SyncEngine.maximumPushRounds (\(most)) rounds, or a note another writer keeps changing holds it forever"
      )
    }
    // A note pushed in every round the sync may make may rightly keep edits for the next sync.
    return (problems, writesAllowed, Set(rounds.filter { $0.value >= most }.keys))
  }
}
