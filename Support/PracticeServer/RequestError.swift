/// A request the server refuses before any route sees it, with the status that says why.
///
/// The listener answers it as `{"error": message}`, adds `Connection: close` and closes the
/// connection: after a framing error nobody can tell where the next request would start
/// (RFC 9112 §9.6), so reading on would risk answering bytes smuggled inside this one.
struct RequestError: Error, Equatable {
  var status: Int
  var message: String

  init(_ status: Int, _ message: String) {
    self.status = status
    self.message = message
  }
}
