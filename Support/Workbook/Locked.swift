import Foundation

/// A value behind an `NSLock`, for the workbook's own support code: the practice server's state
/// and the test vocabulary's bookkeeping.
///
/// Not `Mutex`: on Linux the thread sanitizer cannot see `Mutex`'s lock (it lives in runtime code
/// built without the sanitizer) and reports every correctly locked access as a race. An `NSLock`
/// it sees, so `make sanitize` checks this code's locking instead of trusting it, with no
/// suppression.
public final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  public init(_ value: Value) { self.value = value }

  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
