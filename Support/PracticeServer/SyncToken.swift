/// A position in the change sequence, as `GET /v1/sync/changes` hands it out and takes it back:
/// `<server>.e<epoch>.s<sequence>`.
///
/// Clients store the text and send it back unread. The server reads it strictly: anything it did
/// not write itself (another server run, an earlier epoch, a sequence number it never reached, a
/// number spelled differently) is refused, so a client with a stale position syncs again from the
/// beginning instead of silently missing changes. The server part is random per `SyncService`:
/// without it, a token kept across a server restart would name a position in a history the new
/// server never had.
struct SyncToken: Equatable {
  var server: String
  var epoch: Int
  var sequence: Int

  var text: String { "\(server).e\(epoch).s\(sequence)" }

  /// The token `text` spells, or nil when it is not one this format can write.
  init?(_ text: String) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[1].first == "e", parts[2].first == "s",
      case .value(let epoch) = DecimalDigits.parse(parts[1].dropFirst()),
      case .value(let sequence) = DecimalDigits.parse(parts[2].dropFirst())
    else { return nil }
    self.init(server: String(parts[0]), epoch: epoch, sequence: sequence)
    // One spelling per position: `s007` or an empty server part is not a token this server wrote.
    guard self.text == text, !server.isEmpty else { return nil }
  }

  init(server: String, epoch: Int, sequence: Int) {
    self.server = server
    self.epoch = epoch
    self.sequence = sequence
  }
}
