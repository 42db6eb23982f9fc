import Foundation

/// A read refused because the file's data protection keeps it encrypted right now: the device has
/// not been unlocked since it booted (the default class, "complete until first user
/// authentication"), or is locked (class "complete"). The bytes are there and fine; they read
/// once the user unlocks. A store that takes this for "no file" or "damaged file" signs the user
/// out at a launch nobody saw (prewarming, a push, a background fetch after a reboot).
public struct ProtectedDataUnavailable: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file that could not be read.
  public let url: URL

  public init(url: URL) {
    self.url = url
  }

  public var description: String {
    "\(url.lastPathComponent) is protected until the device is unlocked"
  }

  /// Whether `error`, thrown by a Foundation read, is how such a refusal arrives: `open` fails
  /// with `EPERM`, which Foundation reports as `CocoaError.fileReadNoPermission` (257) with the
  /// `POSIXError` under `NSUnderlyingErrorKey` (swift-foundation's `CocoaError+FilePath.swift`).
  /// Apple does not document the errno; `EPERM` is what apps report from locked devices. `EACCES`
  /// (a permission bit) maps to the same Cocoa code and is not this.
  public static func isRefusal(_ error: any Error) -> Bool {
    let cocoa = error as NSError
    guard cocoa.domain == NSCocoaErrorDomain, cocoa.code == CocoaError.fileReadNoPermission.rawValue,
      let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError
    else { return false }
    return underlying.domain == NSPOSIXErrorDomain && underlying.code == Int(POSIXError.Code.EPERM.rawValue)
  }
}
