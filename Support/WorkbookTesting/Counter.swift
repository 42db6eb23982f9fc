import Synchronization

/// A thread-safe counter that tests share with the code under test, to count calls such as
/// "how many times did the factory run" from any task or thread.
public final class Counter: Sendable {
  private let storage = Atomic<Int>(0)

  public init() {}

  /// Adds one and returns the new count.
  @discardableResult
  public func increment() -> Int {
    storage.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
  }

  public var value: Int { storage.load(ordering: .sequentiallyConsistent) }
}
