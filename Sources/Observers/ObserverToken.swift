// Given: the token every observation in this chapter returns. Nothing to write here.
import Synchronization

/// Keeps one observation alive. `cancel()` ends it; so does releasing the token (its `deinit`
/// cancels), which ties an observation to the lifetime of the screen that holds the token.
///
/// Cancelling twice, or from several threads at once, runs the cancellation once.
public nonisolated final class ObserverToken: Sendable, Hashable {
  private let onCancel: Mutex<(@Sendable () -> Void)?>

  /// A token that runs `onCancel` once, on the first `cancel()` or when it is released.
  public init(onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = Mutex(onCancel)
  }

  deinit {
    cancel()
  }

  /// True once the token has been cancelled.
  public var isCancelled: Bool {
    onCancel.withLock { $0 == nil }
  }

  /// Ends the observation.
  public func cancel() {
    // The cancellation runs outside the token's lock, so it may take other locks (the
    // observable's, say) and read `isCancelled`.
    let action = onCancel.withLock { action -> (@Sendable () -> Void)? in
      defer { action = nil }
      return action
    }
    action?()
  }

  /// Keeps the token in `tokens`, the usual home for a screen's observations.
  public func store(in tokens: inout Set<ObserverToken>) {
    tokens.insert(self)
  }

  public static func == (lhs: ObserverToken, rhs: ObserverToken) -> Bool { lhs === rhs }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
