// Exercise 4 — Stream to disk, chunk by chunk (intermediate)
//
// A download can be larger than the memory an app may use, so the body never lives in memory
// whole: each chunk is written to the file before the next one is pulled from the transport.
// Write `StreamToDisk.write`: write every chunk, report the running total after each write,
// stop promptly when the task is cancelled, and notice a body that ends too early.
import Foundation
import Workbook

/// Writes a transfer body to an open file, one chunk at a time.
public nonisolated enum StreamToDisk {
  /// Writes every chunk of `body` to `handle`, which is positioned after `offset` bytes already on
  /// disk, and returns the number of bytes on disk at the end.
  ///
  /// After each chunk has been written, `progress` receives the total on disk so far (`offset`
  /// plus what this call wrote): a strictly increasing sequence. An empty chunk is not the end of
  /// the body (only `nil` is): it writes nothing and reports nothing. `progress` is not called
  /// before the first chunk (the caller reports `offset` itself). Memory stays at one chunk: a
  /// chunk is written before the next one is pulled.
  ///
  /// Between chunks the task's cancellation is checked, because a transport may keep delivering
  /// after its reader was cancelled: a cancelled task throws `CancellationError` and pulls no
  /// further chunk. Whether a chunk already pulled when the cancel is seen is written first is
  /// your choice.
  ///
  /// When `expectedTotal` is known and the body ends at any other total, throws
  /// `DownloadError.truncated(received:expected:)` with the total counted from the file's start
  /// (`offset` included, as `expectedTotal` is): short, as a dropped connection leaves it, or
  /// longer than the server announced, which is no more the file than a short one. The check
  /// runs when the body ends, so an over-long body is read and written to its end first, and
  /// `received` is everything on disk: 120 for 100 announced and 120 sent.
  ///
  /// Each chunk is written through `files` (the real disk unless a test passes one that fails). A
  /// write that fails, as on a full disk (`ENOSPC`), ends the call with the write's own error,
  /// unchanged: it is no truncated body (the server sent the bytes; the disk did not take them),
  /// progress never counts a byte of the failed chunk, and no further chunk is pulled.
  public static func write(
    _ body: TransferBody, to handle: FileHandle, startingAt offset: Int64, expectedTotal: Int64?,
    files: any FileSystem = RealFileSystem(), progress: (Int64) -> Void
  ) async throws -> Int64 {
    // TODO: write each chunk at the next offset, report progress, check the total at the end.
    throw NotImplemented("StreamToDisk.write")
  }
}
