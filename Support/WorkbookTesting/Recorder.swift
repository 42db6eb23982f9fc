import Foundation

/// Collects values from any thread: what observers received, what requests a stub was sent.
/// An `NSLock` rather than a `Mutex`, so the thread sanitizer sees the lock and checks the tests'
/// own bookkeeping too.
public final class Recorder<Element: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [Element] = []

  public init() {}

  public func append(_ element: Element) {
    lock.withLock { storage.append(element) }
  }

  /// Everything appended so far, in order.
  public var values: [Element] { lock.withLock { storage } }
  public var count: Int { lock.withLock { storage.count } }
}
