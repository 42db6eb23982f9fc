// Exercise 4 — Typed notifications (intermediate)
//
// `NotificationCenter` is the app-wide broadcast: any part of the app posts, any part listens,
// neither knows the other. Its price is a stringly-typed `userInfo`: every observer repeats a key
// and a cast, and a typo or a changed type fails silently. Wrap it: a payload type says its own
// name, `post` takes the payload, and `observe` hands the observer the payload, typed. The one key
// and the one cast live here, once.
//
// The observation ends with its token (cancelled or released), like every observation in this
// chapter. A notification posted under the name without a payload (by older code, say), or with
// a payload of another type under the key, is ignored.
import Foundation

// Given — the protocol a payload adopts, the one `userInfo` key, and the registration wrapper.
/// A notification with a typed payload: the type is the contract between poster and observers.
public nonisolated protocol TypedNotification: Sendable {
  /// The name it is posted under. The default is derived from the type's full name, unique per type.
  static var name: Notification.Name { get }
}

nonisolated extension TypedNotification {
  public static var name: Notification.Name {
    Notification.Name("workbook.typed." + String(reflecting: Self.self))
  }
}

/// The one place the payload's `userInfo` key is spelled.
nonisolated let typedPayloadKey = "workbook.typed.payload"

/// The observer object `NotificationCenter` returns. It is only ever handed back to the center,
/// which is thread-safe, so sharing it between threads is safe although the type does not say so.
nonisolated struct CenterRegistration: @unchecked Sendable {
  let observer: any NSObjectProtocol
}

nonisolated extension NotificationCenter {
  /// Posts `payload` under its type's name. Observers run synchronously on the posting thread.
  public func post<Payload: TypedNotification>(_ payload: Payload) {
    // TODO: post under `Payload.name` with the payload in `userInfo` (this empty body posts nothing).
  }

  /// Calls `handler` with every `Payload` posted, on the posting thread, until the token is
  /// cancelled or released. Notifications under that name without a payload, or whose payload is
  /// of another type (another payload that chose the same name, older code), are skipped: never
  /// force-cast.
  public func observe<Payload: TypedNotification>(
    _ type: Payload.Type, _ handler: @escaping @Sendable (Payload) -> Void
  ) -> ObserverToken {
    // TODO: add an observer that casts the payload, and a token that removes it.
    // Placeholder: it registers nothing.
    ObserverToken {}
  }
}
