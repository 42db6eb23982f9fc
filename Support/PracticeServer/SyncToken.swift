/// A position in the change sequence, as `GET /v1/sync/changes` hands it out and takes it back:
/// `<server>.e<epoch>.s<sequence>`.
///
/// Clients store the text and send it back unread. The server reads it strictly: anything it did
/// not write itself (another server run, an earlier epoch, a sequence number it never reached, a
/// number spelled differently) is refused, so a client with a stale position syncs again from the
/// beginning instead of silently missing changes. The server part is random per `SyncService`:
/// without it, a token kept across a server restart would name a position in a history the new
/// server never had.
///
/// Once the server has collected tombstones, a token also says where the tombstone horizon was when
/// it was handed out, `.h<horizon>`: a token below the horizon is still good if no collection came
/// after it (see `SyncState.holdsEveryDelete(since:)`).
struct SyncToken: Equatable {
  var server: String
  var epoch: Int
  var sequence: Int
  /// The tombstone horizon when the token was handed out (0: none collected, and not written).
  var horizon: Int

  var text: String { "\(server).e\(epoch).s\(sequence)" + (horizon > 0 ? ".h\(horizon)" : "") }

  /// The token `text` spells, or nil when it is not one this format can write.
  init?(_ text: String) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3 || (parts.count == 4 && parts[3].first == "h"), parts[1].first == "e", parts[2].first == "s",
      case .value(let epoch) = DecimalDigits.parse(parts[1].dropFirst()),
      case .value(let sequence) = DecimalDigits.parse(parts[2].dropFirst())
    else { return nil }
    var horizon = 0
    if parts.count == 4 {
      guard case .value(let value) = DecimalDigits.parse(parts[3].dropFirst()) else { return nil }
      horizon = value
    }
    self.init(server: String(parts[0]), epoch: epoch, sequence: sequence, horizon: horizon)
    // One spelling per position: `s007`, `.h0` or an empty server part is not a token this server wrote.
    guard self.text == text, !server.isEmpty else { return nil }
  }

  init(server: String, epoch: Int, sequence: Int, horizon: Int = 0) {
    self.server = server
    self.epoch = epoch
    self.sequence = sequence
    self.horizon = horizon
  }
}
