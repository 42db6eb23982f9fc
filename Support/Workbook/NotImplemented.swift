/// Thrown by the starter code in `Sources/` where an exercise still has to be written.
///
/// The grader reports it as "not implemented yet" instead of a failure, so a learner can tell
/// the exercises they have not started from the ones they got wrong. Throwing keeps the test
/// process alive, which a `fatalError()` would not.
///
/// A starter declared `throws(SomeError)` cannot throw this type. It throws one of its own error's
/// cases that carries text, with this error's `description` as the text:
/// `throw .encoding(NotImplemented("NetworkManager.send").description)`. The text starts with
/// `marker`, which the grader finds in the test's message, so the exercise still reads as not
/// started rather than as that case going wrong.
public struct NotImplemented: Error, CustomStringConvertible, Sendable {
  /// The words that open every "not implemented" message. The grader looks for them: keep them.
  public static let marker = "not implemented yet"

  /// What is missing, as `Type.member`.
  public let what: String

  public init(_ what: String = #function) {
    self.what = what
  }

  public var description: String { "\(Self.marker): \(what)" }
}
