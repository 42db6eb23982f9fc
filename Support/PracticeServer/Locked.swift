import Foundation

/// A value behind an `NSLock`.
///
/// The server keeps its shared state in these rather than in a `Mutex`: on Linux the thread
/// sanitizer cannot see inside `Mutex` (it locks in runtime code built without the sanitizer), so
/// every correctly locked access would be reported and the file would have to be suppressed. It
/// does see `NSLock`, so `SANITIZE=1` checks the server's own locking instead of trusting it.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
