import Foundation
import Testing
import WorkbookTesting

@testable import Downloads

@Suite("Exercise 5 — Atomic completion", .timeLimit(.minutes(1)))
struct Exercise5_PartialFileTests {
  @Test("the destination appears only when the file is whole, and nothing else is left")
  func destinationAppearsOnlyWhenWhole() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let hold = Hold(at: .chunk(2))
      let size: Int64 = 40_000
      let url = fileURL("photo.jpg", size: size)
      let transport = hold.transport(chunkSize: 4096)
      transport.serve(url, .init(size: size))
      let destination = directory.file("photo.jpg")
      let handle = Downloader(transport: transport).start(url, to: destination)
      try await hold.waitUntilHeld(handle)
      #expect(
        !FileManager.default.fileExists(atPath: destination.path),
        "half way through, the destination must not exist: write to a temporary file and rename it when complete")
      #expect(directory.contents().count == 1, "one temporary file should hold the partial bytes: \(directory.contents())")
      await hold.release()
      let result = try await handle.result()
      #expect(result == destination, "the download returns its destination")
      #expect(try Data(contentsOf: destination) == ScriptedTransport.content(size: size), "the whole file, byte for byte")
      #expect(directory.contents() == ["photo.jpg"], "only the destination is left: \(directory.contents())")
    }
  }

  @Test("the returned URL still holds the file after the download returned")
  func returnedFileStays() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let url = fileURL("keep.bin", size: 9_000)
      let transport = ScriptedTransport(chunkSize: 4096)
      transport.serve(url, .init(size: 9_000))
      let result = try await Downloader(transport: transport).download(url, to: directory.file("keep.bin"))
      // Whatever cleanup the download left behind has run by now.
      await settle()
      #expect(
        FileManager.default.fileExists(atPath: result.path),
        "the URL a download returns must still exist afterwards: return the destination, not a temporary file that is cleaned up")
      #expect((try? Data(contentsOf: result)) == ScriptedTransport.content(size: 9_000), "and it holds the file")
    }
  }

  @Test("replace: the old file stays readable until the new one is complete, then it is replaced")
  func replaceKeepsTheOldFileUntilTheEnd() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let hold = Hold(at: .chunk(2))
      let url = fileURL("report.pdf", size: 30_000)
      let transport = hold.transport(chunkSize: 4096)
      transport.serve(url, .init(size: 30_000))
      let destination = directory.file("report.pdf")
      try Data("old version".utf8).write(to: destination)
      let handle = Downloader(transport: transport, existingFile: .replace).start(url, to: destination)
      try await hold.waitUntilHeld(handle)
      #expect(
        try Data(contentsOf: destination) == Data("old version".utf8),
        "while the new file downloads, the old one must stay intact at the destination")
      await hold.release()
      _ = try await handle.result()
      #expect(try Data(contentsOf: destination) == ScriptedTransport.content(size: 30_000), "then the new file replaces it")
      #expect(directory.contents() == ["report.pdf"], "no temporary file is left: \(directory.contents())")
    }
  }

  @Test("fail: an existing destination is kept, the download throws, and nothing is left behind")
  func failPolicyKeepsTheExistingFile() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let url = fileURL("notes.txt", size: 20_000)
      let transport = ScriptedTransport(chunkSize: 4096)
      transport.serve(url, .init(size: 20_000))
      let destination = directory.file("notes.txt")
      try Data("mine".utf8).write(to: destination)
      await #expect(throws: DownloadError.destinationExists(destination), "policy .fail must refuse to overwrite") {
        try await Downloader(transport: transport, existingFile: .fail).download(url, to: destination)
      }
      #expect(try Data(contentsOf: destination) == Data("mine".utf8), "the existing file must be untouched")
      #expect(directory.contents() == ["notes.txt"], "the temporary file must be removed: \(directory.contents())")
    }
  }

  @Test("cancellation removes the temporary file")
  func cancellationCleansUp() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let hold = Hold(at: .chunk(2))
      let url = fileURL("movie.mp4", size: 50_000)
      let transport = hold.transport(chunkSize: 4096)
      transport.serve(url, .init(size: 50_000))
      let handle = Downloader(transport: transport).start(url, to: directory.file("movie.mp4"))
      try await hold.waitUntilHeld(handle)
      handle.cancel()
      await #expect(throws: CancellationError.self, "a cancelled download throws CancellationError") {
        try await handle.result()
      }
      #expect(directory.contents().isEmpty, "a cancelled download leaves nothing behind: \(directory.contents())")
    }
  }

  @Test("failure removes the temporary file")
  func failureCleansUp() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let url = fileURL("broken.zip", size: 50_000)
      let transport = ScriptedTransport(chunkSize: 4096)
      transport.serve(url, .init(size: 50_000, endsEarlyAt: 20_000))
      await #expect(throws: DownloadError.self, "a body that ends early fails the download") {
        try await Downloader(transport: transport).download(url, to: directory.file("broken.zip"))
      }
      #expect(directory.contents().isEmpty, "a failed download leaves nothing behind: \(directory.contents())")
    }
  }

  @Test("two downloads to the same destination never share a temporary file")
  func temporaryFilesAreUnique() throws {
    let directory = try TemporaryDirectory("downloads")
    defer { directory.remove() }
    let destination = directory.file("same.bin")
    let first = try PartialFile.create(for: destination)
    let second = try PartialFile.create(for: destination)
    #expect(first.url != second.url, "each download needs its own temporary file")
    #expect(first.url != destination, "the temporary file is never the destination")
    #expect(
      first.url.lastPathComponent.hasPrefix("."),
      "the temporary file's name is hidden (it starts with a dot), so a listing of the folder shows no half file: \(first.url.lastPathComponent)"
    )
    #expect(
      first.url.deletingLastPathComponent().standardizedFileURL == directory.url.standardizedFileURL,
      "the temporary file lives beside the destination: a rename is atomic only within one file system")
    second.discard()
    #expect(FileManager.default.fileExists(atPath: first.url.path), "discarding one must not touch the other")
    first.discard()
    #expect(directory.contents().isEmpty, "discard removes the temporary files: \(directory.contents())")
  }

  @Test("create does not make a missing directory: it throws")
  func createNeedsTheDirectory() throws {
    let directory = try TemporaryDirectory("downloads")
    defer { directory.remove() }
    let destination = directory.file("gone").appendingPathComponent("file.bin")
    #expect(throws: (any Error).self, "the destination's directory does not exist: create must throw, not make it") {
      try PartialFile.create(for: destination)
    }
    #expect(
      directory.contents().isEmpty,
      "where files go is the caller's decision: create must not make the missing folder; found \(directory.contents())")
  }

  @Test("commit with .fail leaves both files as they are")
  func failLeavesBothFiles() throws {
    let directory = try TemporaryDirectory("downloads")
    defer { directory.remove() }
    let destination = directory.file("notes.txt")
    try Data("mine".utf8).write(to: destination)
    let partial = try PartialFile.create(for: destination)
    try Data("theirs".utf8).write(to: partial.url)
    #expect(throws: DownloadError.destinationExists(destination), "the destination exists: .fail throws, naming it") {
      try partial.commit(policy: .fail)
    }
    #expect(try Data(contentsOf: destination) == Data("mine".utf8), "the existing file is untouched")
    #expect(
      (try? Data(contentsOf: partial.url)) == Data("theirs".utf8),
      "commit leaves the temporary file where it was: removing it is discard's job, which the downloader calls on the way out"
    )
  }

  @Test("commit without its temporary file throws and leaves the destination alone")
  func commitWithoutTheTemporaryFileThrows() throws {
    let directory = try TemporaryDirectory("downloads")
    defer { directory.remove() }
    let destination = directory.file("report.pdf")
    try Data("old version".utf8).write(to: destination)
    let partial = try PartialFile.create(for: destination)
    partial.discard()
    #expect(throws: (any Error).self, "there is no file to rename into place: commit must throw, not report success") {
      try partial.commit(policy: .replace)
    }
    #expect(try Data(contentsOf: destination) == Data("old version".utf8), "the old file stays at the destination")
    let elsewhere = directory.file("new.pdf")
    let missing = PartialFile(url: directory.file(".new.pdf.lost.partial"), destination: elsewhere)
    #expect(throws: (any Error).self, "with .fail and no destination either, there is still nothing to move: commit throws") {
      try missing.commit(policy: .fail)
    }
    #expect(!FileManager.default.fileExists(atPath: elsewhere.path), "nothing appears at the destination")
  }

  @Test("a full disk fails the download, keeps the old file and leaves no partial file")
  func aFullDiskKeepsTheOldFileAndLeavesNothing() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let destination = directory.file("movie.mp4")
      try Data("the old movie".utf8).write(to: destination)
      let url = fileURL("movie.mp4", size: 50_000)
      let transport = ScriptedTransport(chunkSize: 4096)
      transport.serve(url, .init(size: 50_000))
      let disk = FaultyDisk()
      disk.freeBytes = 10_000
      do {
        _ = try await Downloader(transport: transport, files: disk).download(url, to: destination)
        Issue.record("the disk took 10,000 of 50,000 bytes: the download must fail, not complete")
      } catch let error as POSIXError where error.code == .ENOSPC {
        // Expected.
      } catch {
        Issue.record("a full disk should fail the download with the disk's error (ENOSPC), got \(error)")
      }
      #expect(
        try Data(contentsOf: destination) == Data("the old movie".utf8),
        "the file saved before is replaced only by a whole new one: it must survive a full disk")
      #expect(
        directory.contents() == ["movie.mp4"],
        "a failed download leaves no partial file: nobody holds resume data for it, and it takes the space the disk lacks; found \(directory.contents())"
      )
    }
  }

  @Test("a folder removed during the download fails it, and is not made again")
  func aFolderRemovedMidDownloadFails() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let folder = directory.file("inbox")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let hold = Hold(at: .chunk(2))
      let transport = hold.transport(chunkSize: 4096)
      let url = fileURL("report.pdf", size: 20_000)
      transport.serve(url, .init(size: 20_000))
      let handle = Downloader(transport: transport).start(url, to: folder.appendingPathComponent("report.pdf"))
      try await hold.waitUntilHeld(handle)
      try FileManager.default.removeItem(at: folder)  // the user deleted it while the download ran
      await hold.release()
      do {
        let result = try await handle.result()
        Issue.record("the folder was removed under the download, yet it reported \(result.lastPathComponent) as saved")
      } catch {
        // Expected: the temporary file went with its folder, so there is nothing to commit.
      }
      #expect(
        !FileManager.default.fileExists(atPath: folder.path),
        "where files go is the caller's decision: a folder the user removed is not made again")
    }
  }

  @Test("a file where the destination's folder should be fails the download before its request")
  func aFileWhereTheFolderShouldBeFailsFirst() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let notAFolder = directory.file("music")
      try Data("a note".utf8).write(to: notAFolder)
      let url = fileURL("song.mp3", size: 10_000)
      let transport = ScriptedTransport(chunkSize: 4096)
      transport.serve(url, .init(size: 10_000))
      await #expect(throws: (any Error).self, "no file can be made under a file: the download must fail") {
        try await Downloader(transport: transport).download(url, to: notAFolder.appendingPathComponent("song.mp3"))
      }
      #expect(
        transport.requests.isEmpty,
        "the temporary file could not be made, so the download fails before it asks the server for a byte; sent \(transport.requests.count)"
      )
      #expect(try Data(contentsOf: notAFolder) == Data("a note".utf8), "the file in the folder's place is untouched")
    }
  }

  @Test("a folder where the partial file should be is kept when the resume fails")
  func aFolderInThePartialFilesPlaceIsKept() async throws {
    try await withTemporaryDirectory("downloads") { directory in
      let destination = directory.file("album.zip")
      let squatter = directory.file(".album.zip.partial")
      try FileManager.default.createDirectory(at: squatter, withIntermediateDirectories: true)
      let photo = squatter.appendingPathComponent("photo.jpg")
      try Data("keep me".utf8).write(to: photo)
      let url = fileURL("album.zip", size: 10_000)
      let transport = ScriptedTransport(chunkSize: 4096)
      transport.serve(url, .init(size: 10_000, etag: "\"v1\""))
      let stale = ResumeData(
        url: url, partial: PartialFile(url: squatter, destination: destination), bytesOnDisk: 4_096,
        validator: "\"v1\"", acceptsRanges: true)
      do {
        _ = try await Downloader(transport: transport).resume(stale).result()
        Issue.record("a folder cannot be written as a file: the resume must fail")
      } catch {
        // Expected: the partial file cannot be opened.
      }
      #expect(
        (try? Data(contentsOf: photo)) == Data("keep me".utf8),
        "discard removes a temporary file, never a folder found in its place with everything in it")
      #expect(!FileManager.default.fileExists(atPath: destination.path), "nothing was downloaded")
    }
  }
}
