/// Many callers started at once, as a tap, a scroll and a prefetch would: the crowd-of-callers
/// fixture of the concurrency tests.
///
/// Each caller is a task of its own running `body` with its index. The crowd counts the callers
/// that have finished, so a wait for the code under test can give up at once when every caller
/// is already done (as an unfinished starter's are: they throw `NotImplemented` straight away).
public final class Crowd<Value: Sendable>: Sendable {
  /// The callers' tasks, in the order they were started.
  public let tasks: [Task<Value, any Error>]
  private let done: Counter

  /// Starts `count` callers.
  public init(_ count: Int, _ body: @escaping @Sendable (Int) async throws -> Value) {
    Quiescence.install()
    let done = Counter()
    self.done = done
    tasks = (0..<count).map { index in
      Task {
        defer { done.increment() }
        return try await body(index)
      }
    }
  }

  /// How many callers there are.
  public var count: Int { tasks.count }

  /// How many callers have returned or thrown.
  public var finished: Int { done.value }

  /// Whether every caller has returned or thrown.
  public var allFinished: Bool { done.value == tasks.count }

  /// Every caller's result, in order, once all have finished.
  public func results() async -> [Result<Value, any Error>] {
    var results: [Result<Value, any Error>] = []
    for task in tasks { results.append(await task.result) }
    return results
  }

  /// Every caller's value, in order; throws the first error a caller threw.
  public func values() async throws -> [Value] {
    var values: [Value] = []
    for task in tasks { values.append(try await task.value) }
    return values
  }

  /// Cancels every caller.
  public func cancelAll() {
    for task in tasks { task.cancel() }
  }
}
