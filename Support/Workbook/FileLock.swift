import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// An exclusive lock that other processes take too: `flock(2)` on a lock file in a folder they
/// share (on iOS, an App Group container). An actor or a `Mutex` orders the tasks of one process;
/// an app and its extension are two processes, and only the kernel orders them.
///
/// The lock belongs to the open file, not to a thread, so it may be held across an `await` (a
/// `Mutex` may not), and the kernel releases it when the file is closed, including when the
/// process dies: a crashed extension never leaves the app waiting. It is advisory: it orders only
/// the code that takes it.
///
/// On iOS, a process suspended while it holds a file lock is terminated (0xdead10cc): hold it only
/// across a short piece of work, and from an app, inside `beginBackgroundTask`, so the app is not
/// suspended holding it.
public enum FileLock {
  /// Runs `body` while this process holds the exclusive lock on the file at `url` (created, empty,
  /// if missing), and releases it when `body` returns or throws. Waiting for another holder
  /// blocks a thread of its own, never a thread of the Swift concurrency pool.
  public static func withExclusiveLock<T: Sendable>(
    on url: URL, _ body: @Sendable () async throws -> T
  ) async throws -> T {
    let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    // Closing the file releases the lock, on every path out.
    defer { close(descriptor) }
    try await acquire(descriptor)
    return try await body()
  }

  /// `flock(LOCK_EX)` on a thread started for the wait, retried when a signal interrupts it.
  private static func acquire(_ descriptor: Int32) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      let thread = Thread {
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX) } while result != 0 && errno == EINTR
        if result == 0 {
          continuation.resume()
        } else {
          continuation.resume(throwing: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
        }
      }
      thread.name = "file lock wait"
      thread.start()
    }
  }
}
