import Foundation

/// A value behind an `NSLock`, for the test vocabulary's own bookkeeping.
///
/// Not `Mutex`: on Linux the thread sanitizer cannot see `Mutex`'s lock (it lives in runtime code
/// built without the sanitizer) and reports every access as a race. An `NSLock` it sees, so the
/// tests' seams stay under its full scrutiny, with no suppression.
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
