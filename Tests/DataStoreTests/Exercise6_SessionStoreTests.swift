import Foundation
import Testing
import Workbook
import WorkbookTesting

@testable import DataStore

@Suite("Exercise 6 — A typed, persistent session store", .timeLimit(.minutes(1)))
struct Exercise6_SessionStoreTests {
  @Test func aMissingFileMeansSignedOut() async throws {
    try await withTemporaryDirectory("session") { directory in
      let store = SessionStore(fileURL: directory.file("session.json"))
      try await store.load()
      #expect(await store.snapshot() == .empty, "with no file, load() should leave an empty session and not throw")
      try await store.login(userID: "u", accessToken: "a", refreshToken: "r")
      try FileManager.default.removeItem(at: directory.file("session.json"))
      try await store.load()
      let session = await store.snapshot()
      #expect(
        session == .empty,
        "the file is gone, so nobody is signed in: load() should empty the session in memory too, not keep \(session) that no file backs")
    }
  }

  @Test func loginSurvivesARelaunch() async throws {
    try await withTemporaryDirectory("session") { directory in
      let file = directory.file("session.json")
      let store = SessionStore(fileURL: file)
      try await store.login(userID: "u-1", accessToken: "access-1", refreshToken: "refresh-1")
      let relaunchedAfterLogin = SessionStore(fileURL: file)
      try await relaunchedAfterLogin.load()
      let saved = await relaunchedAfterLogin.snapshot()
      #expect(saved.userID == "u-1", "login should save the session: a relaunch right after it found \(saved)")
      try await store.setPreference("dark", for: "theme")
      let relaunched = SessionStore(fileURL: file)
      try await relaunched.load()
      let session = await relaunched.snapshot()
      #expect(
        session == Session(userID: "u-1", accessToken: "access-1", refreshToken: "refresh-1", preferences: ["theme": "dark"]),
        "a new store reading the same file should see the saved session, got \(session)")
      #expect(session.isLoggedIn)
      try await relaunched.login(userID: "u-2", accessToken: "access-2", refreshToken: "refresh-2")
      let switched = await relaunched.snapshot()
      #expect(
        switched.userID == "u-2" && switched.accessToken == "access-2" && switched.refreshToken == "refresh-2",
        "a login while someone is signed in replaces them, ID and both tokens; got \(switched)")
      #expect(
        switched.preferences == ["theme": "dark"],
        "signing another user in changes who is signed in, not the app's preferences: login keeps them")
    }
  }

  @Test func updateTokensNeedsASignedInUser() async throws {
    try await withTemporaryDirectory("session") { directory in
      let store = SessionStore(fileURL: directory.file("session.json"))
      await #expect(throws: SessionStoreError.notLoggedIn, "updating tokens while signed out should throw .notLoggedIn") {
        try await store.updateTokens(accessToken: "a", refreshToken: "r")
      }
      try await store.login(userID: "u", accessToken: "a1", refreshToken: "r1")
      try await store.updateTokens(accessToken: "a2", refreshToken: "r2")
      let session = await store.snapshot()
      #expect(session.accessToken == "a2" && session.refreshToken == "r2", "updateTokens should replace both tokens")
    }
  }

  @Test func logoutErasesEverySecretButKeepsPreferences() async throws {
    try await withTemporaryDirectory("session") { directory in
      let file = directory.file("session.json")
      let store = SessionStore(fileURL: file)
      try await store.login(userID: "user-4711", accessToken: "SECRET-ACCESS", refreshToken: "SECRET-REFRESH")
      try await store.setPreference("dark", for: "theme")
      try await store.logout()
      let session = await store.snapshot()
      #expect(
        session.userID == nil && session.accessToken == nil && session.refreshToken == nil, "logout should clear the user ID and both tokens, got \(session)")
      #expect(session.preferences == ["theme": "dark"], "logout should keep non-secret preferences")
      let onDisk = String(decoding: try Data(contentsOf: file), as: UTF8.self)
      for secret in ["user-4711", "SECRET-ACCESS", "SECRET-REFRESH"] {
        #expect(!onDisk.contains(secret), "after logout the file still contains \(secret): a secret left on disk outlives the session")
      }
    }
  }

  @Test(arguments: [
    ("a file truncated by a crash mid-write", Data(#"{"userID":"u-1","accessTok"#.utf8)),
    ("a file that is not text at all", Data([0xFF, 0x00, 0x13, 0x37])),
    ("valid JSON of the wrong shape", Data(#"{"userID": 42}"#.utf8)),
    ("an empty file, which holds no session", Data()),
  ])
  func aCorruptFileIsKeptAsideAndTheSessionStartsEmpty(kind: String, bytes: Data) async throws {
    try await withTemporaryDirectory("session") { directory in
      let file = directory.file("session.json")
      let store = SessionStore(fileURL: file)
      // Signed in first: a load that finds a corrupt file must also forget the session in memory.
      try await store.login(userID: "u-0", accessToken: "a-0", refreshToken: "r-0")
      try bytes.write(to: file)
      do {
        try await store.load()
        Issue.record("load() of \(kind) should throw SessionStoreError.corruptFile")
      } catch SessionStoreError.corruptFile(let kept) {
        #expect(try Data(contentsOf: kept) == bytes, "\(kind): the unreadable bytes should be kept, unchanged, at the URL the error names")
        #expect(
          kept.standardizedFileURL == directory.file("session.json.corrupt").standardizedFileURL,
          "\(kind): keep the bad file next to the original, as session.json.corrupt; kept at \(kept.lastPathComponent)")
      } catch {
        Issue.record("load() of \(kind) threw \(error); expected SessionStoreError.corruptFile")
      }
      #expect(await store.snapshot() == .empty, "\(kind): after load() finds a corrupt file the session should be empty, even if one was signed in before")
      try await store.login(userID: "u", accessToken: "a", refreshToken: "r")
      let relaunched = SessionStore(fileURL: file)
      try await relaunched.load()
      #expect(await relaunched.snapshot().userID == "u", "after recovering, new writes should be saved normally")
    }
  }

  @Test("a file an older build wrote, without a field added since, still signs the user in")
  func aFileWithoutAFieldAddedLaterStillSignsIn() async throws {
    try await withTemporaryDirectory("session") { directory in
      let file = directory.file("session.json")
      let store = SessionStore(fileURL: file)
      try await store.login(userID: "u-1", accessToken: "access-1", refreshToken: "refresh-1")
      try await store.setPreference("dark", for: "theme")
      // A build from before preferences existed wrote no such key: take it out wherever the
      // store's layout put it.
      let written = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
      try JSONSerialization.data(withJSONObject: Self.removingKey("preferences", from: written)).write(to: file)
      let relaunched = SessionStore(fileURL: file)
      do {
        try await relaunched.load()
      } catch {
        Issue.record("load() of a file without `preferences`, as an older build wrote it, threw \(error): an app update would sign every user out")
      }
      let session = await relaunched.snapshot()
      #expect(
        session == Session(userID: "u-1", accessToken: "access-1", refreshToken: "refresh-1"),
        "the user is still signed in, with no preferences, since the file has none; got \(session)")
      #expect(
        !FileManager.default.fileExists(atPath: directory.file("session.json.corrupt").path),
        "a file an older build wrote is not corrupt: nothing should be moved aside")
    }
  }

  /// `json` with `key` taken out of every object in it, at any depth.
  static func removingKey(_ key: String, from json: Any) -> Any {
    if let object = json as? [String: Any] {
      return object.filter { $0.key != key }.mapValues { removingKey(key, from: $0) }
    }
    if let array = json as? [Any] {
      return array.map { removingKey(key, from: $0) }
    }
    return json
  }

  @Test func aSecondCorruptFileReplacesTheOlderCopy() async throws {
    try await withTemporaryDirectory("session") { directory in
      let file = directory.file("session.json")
      let store = SessionStore(fileURL: file)
      for bytes in [Data("first bad bytes".utf8), Data("second bad bytes".utf8)] {
        try bytes.write(to: file)
        do {
          try await store.load()
          Issue.record("load() of a corrupt file should throw SessionStoreError.corruptFile")
        } catch SessionStoreError.corruptFile(let kept) {
          #expect(
            try Data(contentsOf: kept) == bytes,
            "session.json.corrupt should hold the newest bad bytes, \"\(String(decoding: bytes, as: UTF8.self))\", replacing the older copy")
        } catch {
          Issue.record(
            "load() of the \(bytes.starts(with: Data("first".utf8)) ? "first" : "second") corrupt file threw \(error), not .corruptFile: a .corrupt copy from an earlier launch is in the way of the move, so remove it first (the doc says the newest replaces it)"
          )
        }
      }
      #expect(await store.snapshot() == .empty, "after a corrupt load the session is empty")
    }
  }

  @Test func preferencesNeedNoSignInAndNilRemovesOne() async throws {
    try await withTemporaryDirectory("session") { directory in
      let file = directory.file("session.json")
      let store = SessionStore(fileURL: file)
      do {
        try await store.setPreference("dark", for: "theme")
        try await store.setPreference("de", for: "language")
      } catch {
        Issue.record("setPreference while signed out threw \(error): preferences belong to the app, not to a user, and are set before anyone signs in")
        return
      }
      try await store.setPreference(nil, for: "language")
      #expect(await store.snapshot().preferences == ["theme": "dark"], "setPreference(nil, for:) should remove that preference and keep the others")
      let relaunched = SessionStore(fileURL: file)
      try await relaunched.load()
      let onDisk = await relaunched.snapshot().preferences
      #expect(onDisk == ["theme": "dark"], "the removal should be saved too; the file holds \(onDisk)")
    }
  }

  @Test func loggingOutWhileSignedOutIsNoError() async throws {
    try await withTemporaryDirectory("session") { directory in
      let store = SessionStore(fileURL: directory.file("session.json"))
      try await store.setPreference("dark", for: "theme")
      do {
        try await store.logout()
        try await store.logout()
      } catch {
        Issue.record(
          "logout() while signed out threw \(error): a second tap on Sign out, or a logout after the session expired, is no error; it erases whatever is there and succeeds"
        )
      }
      #expect(await store.snapshot() == Session(preferences: ["theme": "dark"]), "a logout keeps the preferences and leaves nobody signed in")
    }
  }

  @Test func aFailedWriteChangesNothing() async throws {
    try await withTemporaryDirectory("session") { directory in
      let store = SessionStore(fileURL: directory.file("no-such-folder/session.json"))
      do {
        try await store.login(userID: "u", accessToken: "a", refreshToken: "r")
        Issue.record("writing into a missing folder should throw .writeFailed")
      } catch SessionStoreError.writeFailed {
        // Expected: the folder does not exist.
      } catch {
        Issue.record("expected SessionStoreError.writeFailed, got \(error)")
      }
      #expect(await store.snapshot() == .empty, "when the write fails, memory must not claim a login that disk does not have")
    }
  }

  @Test("a failed write changes nothing, whichever method made it")
  func everyFailedWriteChangesNothing() async throws {
    try await withTemporaryDirectory("session") { directory in
      let folder = directory.file("state")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let store = SessionStore(fileURL: folder.appendingPathComponent("session.json"))
      try await store.login(userID: "u", accessToken: "a", refreshToken: "r")
      try await store.setPreference("dark", for: "theme")
      let before = await store.snapshot()
      try FileManager.default.removeItem(at: folder)  // every later write fails
      let writes: [(String, @Sendable () async throws -> Void)] = [
        ("updateTokens", { try await store.updateTokens(accessToken: "a2", refreshToken: "r2") }),
        ("setPreference", { try await store.setPreference("light", for: "theme") }),
        ("logout", { try await store.logout() }),
      ]
      for (name, write) in writes {
        do {
          try await write()
          Issue.record("\(name) wrote into a folder that is gone: it should throw .writeFailed")
        } catch SessionStoreError.writeFailed {
          // Expected: the folder is gone.
        } catch {
          Issue.record("\(name) should throw SessionStoreError.writeFailed when the write fails, not \(error)")
        }
        let after = await store.snapshot()
        #expect(
          after == before,
          "\(name)'s write failed, so memory must still match the file: \(before), not \(after). Even a logout that could not be saved leaves the user signed in, and says so with .writeFailed, so the app can retry"
        )
      }
    }
  }

  @Test("a preference write waiting its turn on the actor cannot get between another's read and save")
  func preferenceWritesWaitingOnTheActorAreAllSaved() async throws {
    // Two writes queued on the actor, the second behind the first. If setPreference suspends
    // between reading the session and saving it, the second one starts from the same old session
    // and its save erases the first.
    try await withTemporaryDirectory("session") { directory in
      let file = directory.file("session.json")
      let store = SessionStore(fileURL: file)
      let failures = Recorder<String>()
      let writes: [@Sendable (isolated SessionStore) async -> Void] = ["theme", "language"].map { key in
        { _ in
          do {
            try await store.setPreference("on", for: key)
          } catch {
            failures.append("setPreference for \(key) threw \(error)")
          }
        }
      }
      for write in await queueBehindOneTurn(of: store, writes) { await write.value }
      #expect(failures.values.isEmpty, "\(failures.values)")
      let expected = ["theme": "on", "language": "on"]
      let inMemory = await store.snapshot().preferences
      #expect(
        inMemory == expected,
        "two preferences were set, one waiting on the actor behind the other, but the session holds \(inMemory): the second write got in while the first was suspended between reading the session and saving it. Read, encode, write and update memory in one turn, with no `await`"
      )
      let relaunched = SessionStore(fileURL: file)
      try await relaunched.load()
      let onDisk = await relaunched.snapshot().preferences
      #expect(onDisk == expected, "the file should hold both preferences, not \(onDisk)")
    }
  }

  @Test func writesLeaveOnlyTheSessionFile() async throws {
    try await withTemporaryDirectory("session") { directory in
      let store = SessionStore(fileURL: directory.file("session.json"))
      try await store.login(userID: "u", accessToken: "a", refreshToken: "r")
      try await withThrowingTaskGroup(of: Void.self) { group in
        for index in 0..<50 {
          group.addTask { try await store.setPreference("\(index)", for: "key\(index)") }
        }
        try await group.waitForAll()
      }
      #expect(directory.contents() == ["session.json"], "writes should leave no temporary or partial files behind, found \(directory.contents())")
      let relaunched = SessionStore(fileURL: directory.file("session.json"))
      try await relaunched.load()
      #expect(await relaunched.snapshot().preferences.count == 50, "50 concurrent preference writes should all be saved")
    }
  }

  @Test func aFullDiskKeepsThePreviousSessionWhole() async throws {
    try await withTemporaryDirectory("session") { directory in
      let file = directory.file("session.json")
      let disk = FaultyDisk()
      let store = SessionStore(fileURL: file, files: disk)
      try await store.login(userID: "u", accessToken: "a1", refreshToken: "r1")
      let saved = await store.snapshot()
      disk.freeBytes = 20  // room for part of the next file, not all of it
      await #expect(throws: SessionStoreError.self, "a write onto a full disk (ENOSPC) should throw .writeFailed") {
        try await store.updateTokens(accessToken: "a2", refreshToken: "r2")
      }
      #expect(await store.snapshot() == saved, "the write failed, so memory keeps the session that is on disk")
      disk.freeBytes = nil
      let relaunched = SessionStore(fileURL: file)
      do {
        try await relaunched.load()
      } catch {
        Issue.record(
          "the disk filled up during a save, and the next launch found \(error): a save must replace the file in one step, so a full disk leaves the previous file whole"
        )
      }
      #expect(await relaunched.snapshot() == saved, "the session saved before the disk filled up should still load")
    }
  }

  @Test func anUnreadableFileIsAnErrorAndStaysWhereItIs() async throws {
    try await withTemporaryDirectory("session") { directory in
      let file = directory.file("session.json")
      try await SessionStore(fileURL: file).login(userID: "u", accessToken: "a", refreshToken: "r")
      let bytes = try Data(contentsOf: file)
      let disk = FaultyDisk()
      disk.makeUnreadable(file)  // EIO on every read, as a failing flash block gives
      let store = SessionStore(fileURL: file, files: disk)
      do {
        try await store.load()
        Issue.record("a session file that cannot be read is not 'nobody signed in': load() should throw .unreadableFile")
      } catch SessionStoreError.unreadableFile {
        // Expected.
      } catch {
        Issue.record("a file that is there but cannot be read should throw .unreadableFile, not \(error)")
      }
      #expect(await store.snapshot() == .empty, "nothing could be read, so the store starts signed out")
      #expect(
        (try? Data(contentsOf: file)) == bytes,
        "the unreadable file must stay where it is, untouched: it may read fine at the next launch")
      #expect(directory.contents() == ["session.json"], "nothing is moved aside: the bytes were never read, so they are not known to be corrupt")
    }
  }

  @Test("a launch before the first unlock signs nobody out, writes nothing, and reads the session after the unlock")
  func aLockedLaunchSignsNobodyOut() async throws {
    try await withTemporaryDirectory("session") { directory in
      let file = directory.file("session.json")
      let saved = Session(userID: "u", accessToken: "a", refreshToken: "r", preferences: ["theme": "dark"])
      let earlier = SessionStore(fileURL: file)
      try await earlier.login(userID: "u", accessToken: "a", refreshToken: "r")
      try await earlier.setPreference("dark", for: "theme")
      let bytes = try Data(contentsOf: file)
      let disk = FaultyDisk()
      disk.protectUntilFirstUnlock(file)  // prewarmed, or woken by a push, after a reboot
      let store = SessionStore(fileURL: file, files: disk)
      do {
        try await store.load()
        Issue.record("load() of a file data protection refused returned normally; it should throw .protectedDataUnavailable")
      } catch SessionStoreError.protectedDataUnavailable {
        // Expected: not yet, rather than not there.
      } catch {
        Issue.record(
          "the file is there and fine, only encrypted until the user unlocks: load() should throw .protectedDataUnavailable, not \(error), which tells the app the user is signed out"
        )
      }
      let writes: [(String, @Sendable () async throws -> Void)] = [
        ("setPreference", { try await store.setPreference("light", for: "theme") }),
        ("updateTokens", { try await store.updateTokens(accessToken: "a2", refreshToken: "r2") }),
        ("logout", { try await store.logout() }),
        ("login", { try await store.login(userID: "other", accessToken: "a3", refreshToken: "r3") }),
      ]
      func everyWriteIsRefused(_ when: String) async {
        for (name, write) in writes {
          do {
            try await write()
            Issue.record(
              "\(name) \(when) returned normally: it wrote a session built without the one on disk, and a preference write drops the tokens, a real sign-out")
          } catch SessionStoreError.protectedDataUnavailable {
            // Expected: refused, nothing written.
          } catch {
            Issue.record("\(name) \(when) should throw .protectedDataUnavailable, since nobody knows yet who is signed in; it threw \(error)")
          }
          #expect((try? Data(contentsOf: file)) == bytes, "\(name) \(when) changed the session file, which the store has not read")
        }
      }
      await everyWriteIsRefused("while the file is locked")
      disk.firstUnlock()
      await everyWriteIsRefused("after the unlock but before load() read the file")
      do {
        try await store.load()
      } catch {
        Issue.record("after the unlock, load() should read the session; it threw \(error)")
      }
      #expect(await store.snapshot() == saved, "the load after the unlock should read the session that was there all along")
      try await store.setPreference("light", for: "theme")
      let relaunched = SessionStore(fileURL: file)
      try await relaunched.load()
      let session = await relaunched.snapshot()
      #expect(
        session.isLoggedIn && session.refreshToken == "r" && session.preferences == ["theme": "light"],
        "once the session is read, writes work again and keep the user signed in; the file holds \(session)")
    }
  }

  @Test func aLockedReadKeepsTheSessionInMemory() async throws {
    try await withTemporaryDirectory("session") { directory in
      let file = directory.file("session.json")
      let disk = FaultyDisk()
      let store = SessionStore(fileURL: file, files: disk)
      try await store.login(userID: "u", accessToken: "a", refreshToken: "r")
      let before = await store.snapshot()
      disk.protectUntilFirstUnlock(file)
      await #expect(throws: SessionStoreError.protectedDataUnavailable, "a reload the lock refused should say so with .protectedDataUnavailable") {
        try await store.load()
      }
      let after = await store.snapshot()
      #expect(after == before, "a read the lock refused says nothing about the session: memory should still hold \(before), not \(after)")
    }
  }

  @Test func aFileWhereTheFolderShouldBeIsNoSession() async throws {
    try await withTemporaryDirectory("session") { directory in
      let folder = directory.file("state")
      try Data("not a folder".utf8).write(to: folder)
      let store = SessionStore(fileURL: folder.appendingPathComponent("session.json"))
      do {
        try await store.load()
      } catch {
        Issue.record(
          "a file where the session's folder should be means nothing was ever saved there: load() should leave the session empty without an error, not throw \(error)"
        )
      }
      #expect(await store.snapshot() == .empty)
      await #expect(throws: SessionStoreError.self, "no file can be written under a file: login should throw .writeFailed") {
        try await store.login(userID: "u", accessToken: "a", refreshToken: "r")
      }
      #expect(await store.snapshot() == .empty, "the login could not be saved, so nobody is signed in")
      #expect(try Data(contentsOf: folder) == Data("not a folder".utf8), "the file in the folder's place is not the store's to touch")
    }
  }

  @Test func aRemovedFolderIsNoSession() async throws {
    try await withTemporaryDirectory("session") { directory in
      let folder = directory.file("state")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let store = SessionStore(fileURL: folder.appendingPathComponent("session.json"))
      try await store.login(userID: "u", accessToken: "a", refreshToken: "r")
      try FileManager.default.removeItem(at: folder)  // the user or a reset cleared it
      do {
        try await store.load()
      } catch {
        Issue.record("the session's folder was removed, so nothing is saved: load() should sign out without an error, not throw \(error)")
      }
      #expect(await store.snapshot() == .empty, "no folder, no file, no session: load() empties memory too")
    }
  }

  @Test func aCorruptFileThatCannotBeMovedAsideIsAWriteFailure() async throws {
    try await withTemporaryDirectory("session") { directory in
      let file = directory.file("session.json")
      try Data("not a session".utf8).write(to: file)
      let store = SessionStore(fileURL: file, files: FileRemovedAfterReading())
      do {
        try await store.load()
        Issue.record("load() of a corrupt file it could not move aside returned normally; it should throw .writeFailed")
      } catch SessionStoreError.writeFailed {
        // The move failed, and the error says so rather than naming a copy that does not exist.
      } catch {
        Issue.record(
          "the corrupt file was gone before it could be moved aside, so no copy is kept at session.json.corrupt: load() threw \(error), where .writeFailed says the move failed"
        )
      }
      #expect(await store.snapshot() == .empty, "a file that did not decode leaves the session empty, moved aside or not")
    }
  }
}

/// The real disk, where another process deletes the session file right after the store read it:
/// the store's move of a corrupt file aside then finds nothing to move.
struct FileRemovedAfterReading: FileSystem {
  func contents(of url: URL) throws -> Data {
    let data = try Data(contentsOf: url)
    try FileManager.default.removeItem(at: url)
    return data
  }

  func itemExists(at url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

  func write(_ data: Data, to url: URL, options: Data.WritingOptions) throws { try data.write(to: url, options: options) }

  func write(_ data: Data, to handle: FileHandle) throws { try handle.write(contentsOf: data) }
}
