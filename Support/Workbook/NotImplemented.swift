/// Thrown by the starter code in `Sources/` where an exercise still has to be written.
///
/// The grader reports it as "not implemented yet" instead of a failure, so a learner can tell
/// the exercises they have not started from the ones they got wrong. Throwing keeps the test
/// process alive, which a `fatalError()` would not.
public struct NotImplemented: Error, CustomStringConvertible, Sendable {
  /// What is missing, as `Type.member`.
  public let what: String

  public init(_ what: String = #function) {
    self.what = what
  }

  public var description: String { "not implemented yet: \(what)" }
}
