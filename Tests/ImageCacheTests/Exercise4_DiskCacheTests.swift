import Foundation
import Testing
import WorkbookTesting

@testable import ImageCache

@Suite("Exercise 4 — A disk cache that survives crashes", .timeLimit(.minutes(1)))
struct Exercise4_DiskCacheTests {
  static let day: Duration = .seconds(24 * 60 * 60)
  let start = Date(timeIntervalSince1970: 1_800_000_000)

  func bytes(_ count: Int, _ fill: UInt8 = 7) -> Data { Data(repeating: fill, count: count) }

  @Test func storesAndReadsBackAcrossLaunches() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let cache = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      try await cache.store(bytes(10, 1), forKey: "https://example.com/a.png")
      try await cache.store(bytes(20, 2), forKey: "https://example.com/b.png")
      #expect(await cache.data(forKey: "https://example.com/a.png") == bytes(10, 1), "stored bytes should read back unchanged")
      #expect(await cache.data(forKey: "missing") == nil, "a key never stored is a miss")
      let (size, count) = (await cache.totalSize, await cache.count)
      #expect(size == 30 && count == 2, "two entries of 10 and 20 bytes; got \(count) entries, \(size) bytes")
      #expect(
        directory.contents().contains(SHA256.fileName(forKey: "https://example.com/a.png")),
        "each entry's file is named by the SHA-256 of its key; files: \(directory.contents())")

      try await cache.flush()  // what the app does when it goes to the background
      let reopened = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start.addingTimeInterval(60))
      #expect(await reopened.data(forKey: "https://example.com/b.png") == bytes(20, 2), "entries must survive a relaunch")
      #expect(await !reopened.rebuiltIndex, "a cleanly written index should be read, not rebuilt")
      #expect(await reopened.totalSize == 30, "the reopened cache knows its size from the index")
    }
  }

  @Test("the default TTL is 7 days on the injected clock")
  func defaultTTL() async throws {
    #expect(DiskCache.Configuration().ttl == Self.day * 7, "the default TTL should be 7 days")
    #expect(DiskCache.Configuration().sizeLimit == 500_000_000, "the default size limit should be 500 MB")
    #expect(DiskCache.Configuration().lowWaterFraction == 0.8, "the default low-water mark should be 80 % of the size limit")
    try await withTemporaryDirectory("disk") { directory in
      let clock = ManualClock()
      let cache = try DiskCache(directory: directory.url, clock: clock, startDate: start)
      try await cache.store(bytes(5), forKey: "k")
      await clock.advance(by: Self.day * 7 - .seconds(1))
      #expect(await cache.data(forKey: "k") != nil, "one second before 7 days the entry is still fresh")
      await clock.advance(by: .seconds(1))
      #expect(await cache.data(forKey: "k") == nil, "after 7 days on the injected clock the entry has expired")
      #expect(await cache.count == 0, "an expired entry found by a read is removed")
    }
  }

  @Test("the TTL comes from the configuration, and expired data stays available to lookup")
  func configuredTTL() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let clock = ManualClock()
      let cache = try DiskCache(directory: directory.url, configuration: .init(ttl: .seconds(3_600)), clock: clock, startDate: start)
      try await cache.store(bytes(5), forKey: "k")
      await clock.advance(by: .seconds(3_600))
      #expect(await !cache.contains("k"), "with a 1-hour TTL the entry has expired after an hour: read the TTL from the configuration")
      let stale = await cache.lookup(forKey: "k")
      #expect(stale == DiskCache.Lookup(data: bytes(5), isExpired: true), "lookup returns expired data, marked expired, for stale-while-revalidate")
      #expect(await cache.removeExpired() == 1, "removeExpired should delete the one expired entry")
      #expect(
        directory.contents() == [DiskCache.indexFileName],
        "after removeExpired, only the index should remain (the entry's file deleted, the index written to record it); the directory holds \(directory.contents())"
      )
    }
  }

  @Test("over the limit, least recently used entries go, down to the low-water mark")
  func evictsLeastRecentlyUsed() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let configuration = DiskCache.Configuration(sizeLimit: 1_000, lowWaterFraction: 0.5)
      let cache = try DiskCache(directory: directory.url, configuration: configuration, clock: ManualClock(), startDate: start)
      for i in 0..<10 { try await cache.store(bytes(100), forKey: "k\(i)") }
      #expect(await cache.evictionPasses == 0, "1,000 bytes is at the limit, not over it")
      _ = await cache.data(forKey: "k0")
      try await cache.store(bytes(100), forKey: "k10")
      let size = await cache.totalSize
      #expect(size == 500, "crossing 1,000 bytes should evict down to the low-water mark (500); size \(size)")
      #expect(await cache.data(forKey: "k0") != nil, "k0 was read recently and must survive: evict by last use, not by age")
      for i in 1...6 {
        #expect(await cache.data(forKey: "k\(i)") == nil, "k\(i) was among the least recently used and should be evicted")
      }
      #expect(directory.contents().count == 6, "5 entry files and the index should remain: \(directory.contents().count) files")
    }
  }

  @Test("eviction is amortized: 200 writes over the limit sort only a few times")
  func evictionIsAmortized() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let configuration = DiskCache.Configuration(sizeLimit: 1_000, lowWaterFraction: 0.5)
      let cache = try DiskCache(directory: directory.url, configuration: configuration, clock: ManualClock(), startDate: start)
      for i in 0..<200 { try await cache.store(bytes(100), forKey: "k\(i)") }
      let passes = await cache.evictionPasses
      #expect(
        passes <= 40,
        "\(passes) eviction passes for 200 writes: evicting only down to the limit makes every write sort; evict to the low-water mark so one pass makes room for several writes"
      )
      #expect(await cache.totalSize <= 1_000, "the size limit must hold")
    }
  }

  @Test("the index is not rewritten on every store")
  func indexWritesAreBatched() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let cache = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      let indexWrites = Counter()
      await cache.useFileWriter { data, url in
        if data.first == UInt8(ascii: "{") { indexWrites.increment() }
        try data.write(to: url)
      }
      for index in 0..<200 { try await cache.store(bytes(8, 3), forKey: "k\(index)") }
      let batches = 200 / DiskCache.storesPerIndexWrite
      #expect(
        indexWrites.value <= batches + 1,
        "200 stores wrote the index \(indexWrites.value) times: rewriting it on every store is O(n) per write; write it every \(DiskCache.storesPerIndexWrite) stores"
      )
      try await cache.flush()
      let reopened = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      let known = await reopened.count
      #expect(known == 200, "after flush() the index must know all 200 entries, knew \(known)")
    }
  }

  @Test("a write that fails half-way leaves the previous value intact")
  func writesAreAtomic() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let cache = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      try await cache.store(bytes(64, 1), forKey: "k")
      let newValue = bytes(100, 2)
      await cache.useFileWriter { data, url in
        guard data == newValue else { return try data.write(to: url) }
        try data.prefix(50).write(to: url)  // the app dies (or the disk fills up) half-way
        throw CocoaError(.fileWriteOutOfSpace)
      }
      await #expect(throws: DiskCacheError.self, "a failed write must be reported") {
        try await cache.store(newValue, forKey: "k")
      }
      #expect(
        await cache.data(forKey: "k") == bytes(64, 1),
        "the old value must still be readable: write to a temporary file and rename it over the old one only when complete")
      #expect(
        !directory.contents().contains { $0.hasPrefix(".tmp") },
        "a failed write should not leave its temporary file behind: \(directory.contents())")
    }
  }

  @Test("a new, empty directory is a new cache, not a rebuilt index; files without an index are")
  func newDirectoryIsNotARebuild() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let emptyURL = directory.url.appendingPathComponent("empty")
      try FileManager.default.createDirectory(at: emptyURL, withIntermediateDirectories: true)
      let empty = try DiskCache(directory: emptyURL, clock: ManualClock(), startDate: start)
      #expect(await !empty.rebuiltIndex, "an empty directory is a new cache: rebuiltIndex should be false")
      let newURL = directory.url.appendingPathComponent("new")
      let fresh = try DiskCache(directory: newURL, clock: ManualClock(), startDate: start)
      #expect(await !fresh.rebuiltIndex, "a directory that did not exist holds nothing to rebuild: rebuiltIndex should be false")
      try await fresh.store(bytes(10), forKey: "a")  // the first batched index write is still 31 stores away
      let reopened = try DiskCache(directory: newURL, clock: ManualClock(), startDate: start)
      #expect(await reopened.rebuiltIndex, "an entry file with no index means the index was lost: rebuiltIndex should be true")
      #expect(await reopened.data(forKey: "a") == bytes(10), "and the entry is rebuilt from its file")
      let junkURL = directory.url.appendingPathComponent("junk")
      try FileManager.default.createDirectory(at: junkURL, withIntermediateDirectories: true)
      try Data("half".utf8).write(to: junkURL.appendingPathComponent(".tmp-interrupted"))
      try Data("notes".utf8).write(to: junkURL.appendingPathComponent("notes.txt"))
      let junk = try DiskCache(directory: junkURL, clock: ManualClock(), startDate: start)
      #expect(
        await !junk.rebuiltIndex,
        "a directory with no index and no entry file (only a leftover temporary and a foreign file) has nothing to rebuild: rebuiltIndex should be false"
      )
      let left = (try? FileManager.default.contentsOfDirectory(atPath: junkURL.path)) ?? []
      #expect(left.filter { $0 != DiskCache.indexFileName }.isEmpty, "and the open removes the files that are not entries: \(left)")
    }
  }

  @Test("store throws only when the entry was not stored; a failed batched index write is tried again by the next store")
  func failedIndexWriteDoesNotFailTheStore() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let cache = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      let failIndex = Counter()
      await cache.useFileWriter { data, url in
        guard data.count != 7 else { return try data.write(to: url) }  // entry files get through
        _ = failIndex.increment()
        throw CocoaError(.fileWriteOutOfSpace)
      }
      for i in 0..<DiskCache.storesPerIndexWrite {
        await #expect(throws: Never.self, "store \(i + 1) wrote its entry: a failed batched index write is not its failure") {
          try await cache.store(bytes(7, UInt8(i)), forKey: "k\(i)")
        }
      }
      #expect(failIndex.value >= 1, "the \(DiskCache.storesPerIndexWrite)th store should have tried to write the index")
      #expect(await cache.data(forKey: "k31") == bytes(7, 31), "the entry whose batch failed to write the index is stored and readable")
      await #expect(throws: DiskCacheError.self, "flush() is the explicit index write: its failure is reported") { try await cache.flush() }
      await cache.useFileWriter { data, url in try data.write(to: url) }
      try await cache.store(bytes(7, 32), forKey: "k32")  // no flush: the next store retries the index
      let reopened = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      let rebuilt = await reopened.rebuiltIndex
      let count = await reopened.count
      #expect(
        !rebuilt && count == 33,
        "the failed index write left the count of stores unreset, so the very next store wrote the index with all 33 entries (not 32 stores later); rebuilt \(rebuilt), \(count) entries"
      )
      try await cache.flush()
      let flushed = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      #expect(await flushed.count == 33, "flush() writes whatever the last store left dirty")
    }
  }

  @Test("a crash while writing the index leaves the previous index readable")
  func indexWritesAreAtomic() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let cache = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      try await cache.store(bytes(10), forKey: "a")
      try await cache.flush()
      await cache.useFileWriter { data, url in
        guard data.count != 3 else { return try data.write(to: url) }  // entry files get through
        try data.prefix(data.count / 2).write(to: url)  // the index write is cut off
        throw CocoaError(.fileWriteUnknown)
      }
      try? await cache.store(bytes(3), forKey: "b")
      try? await cache.flush()
      let reopened = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      #expect(await !reopened.rebuiltIndex, "the previous index must still parse: write the index to a temporary file and rename it")
      #expect(await reopened.data(forKey: "a") == bytes(10), "the entry from the previous index must still be there")
    }
  }

  @Test("a corrupt or missing index is rebuilt from the files; nothing crashes", arguments: ["garbage", "missing", "wrong shape"])
  func corruptIndexIsRebuilt(damage: String) async throws {
    try await withTemporaryDirectory("disk") { directory in
      let cache = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      try await cache.store(bytes(10, 1), forKey: "a")
      try await cache.store(bytes(20, 2), forKey: "b")
      try await cache.flush()
      let index = directory.file(DiskCache.indexFileName)
      switch damage {
      case "garbage": try Data([0xFF, 0x00, 0x7B, 0x22]).write(to: index)
      case "missing": try FileManager.default.removeItem(at: index)
      default: try Data("{\"records\": 42}".utf8).write(to: index)
      }
      let reopened = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      #expect(await reopened.rebuiltIndex, "a \(damage) index should be noticed and rebuilt")
      #expect(await reopened.data(forKey: "a") == bytes(10, 1), "entries must be recovered from their files")
      #expect(await reopened.data(forKey: "b") == bytes(20, 2), "entries must be recovered from their files")
      #expect(await reopened.totalSize == 30, "the rebuilt index should know the sizes of the files")
    }
  }

  @Test("files unknown to the index are removed when the cache opens")
  func unknownFilesAreCleaned() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let cache = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      try await cache.store(bytes(10), forKey: "a")
      try await cache.flush()
      try Data("left over".utf8).write(to: directory.file(".tmp-123"))
      try Data("junk".utf8).write(to: directory.file("notes.txt"))
      try bytes(5).write(to: directory.file(SHA256.fileName(forKey: "never stored")))
      _ = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      let expected = [DiskCache.indexFileName, SHA256.fileName(forKey: "a")].sorted()
      #expect(directory.contents() == expected, "only the index and known entries should remain; found \(directory.contents())")
    }
  }

  @Test("a file deleted behind the cache's back is a miss, not an error")
  func deletedFilesAreTolerated() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let cache = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      try await cache.store(bytes(10), forKey: "a")
      try await cache.store(bytes(20), forKey: "b")
      try FileManager.default.removeItem(at: directory.file(SHA256.fileName(forKey: "a")))
      #expect(await cache.data(forKey: "a") == nil, "a vanished file is a miss")
      let (size, count) = (await cache.totalSize, await cache.count)
      #expect(count == 1 && size == 20, "the vanished entry must leave the index and the size count; \(count) entries, \(size) bytes")
      try await cache.store(bytes(30), forKey: "a")
      #expect(await cache.data(forKey: "a") == bytes(30), "the key can be stored again")
    }
  }

  @Test("a directory removed while the app runs is made again: reads miss, stores succeed")
  func removedDirectoryIsRecreated() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let cacheURL = directory.file("images")
      let cache = try DiskCache(directory: cacheURL, clock: ManualClock(), startDate: start)
      try await cache.store(bytes(10, 1), forKey: "a")
      try await cache.store(bytes(20, 2), forKey: "b")
      try FileManager.default.removeItem(at: cacheURL)  // the user or the system clears the caches
      #expect(await cache.data(forKey: "a") == nil, "an entry whose directory is gone is a miss, not an error")
      await #expect(throws: Never.self, "a store after the directory vanished must make it again, not fail until relaunch") {
        try await cache.store(bytes(30, 3), forKey: "c")
      }
      #expect(await cache.data(forKey: "c") == bytes(30, 3), "the entry stored into the new directory reads back")
      #expect(await cache.data(forKey: "b") == nil, "b went with the old directory: a miss")
      let (size, count) = (await cache.totalSize, await cache.count)
      #expect(
        count == 1 && size == 30,
        "the entries of the removed directory are gone: only c is left; \(count) entries, \(size) bytes")
      try await cache.flush()
      let reopened = try DiskCache(directory: cacheURL, clock: ManualClock(), startDate: start)
      let (rebuilt, known) = (await reopened.rebuiltIndex, await reopened.count)
      #expect(!rebuilt && known == 1, "the index written into the new directory lists c alone; rebuilt \(rebuilt), \(known) entries")
    }
  }

  @Test("a full disk fails the store and loses nothing stored before: entries, sizes, index")
  func aFullDiskFailsTheStoreAndKeepsEverythingSaved() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let disk = FaultyDisk()
      let cache = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start, files: disk)
      try await cache.store(bytes(10, 1), forKey: "a")
      try await cache.store(bytes(20, 2), forKey: "b")
      try await cache.flush()
      disk.freeBytes = 15  // room for half of the next entry: the write stops there with ENOSPC
      await #expect(throws: DiskCacheError.self, "a new entry that does not fit on the disk is .writeFailed") {
        try await cache.store(bytes(30, 3), forKey: "c")
      }
      await #expect(throws: DiskCacheError.self, "a new value for a stored key that does not fit is .writeFailed") {
        try await cache.store(bytes(40, 4), forKey: "a")
      }
      #expect(await cache.data(forKey: "c") == nil, "c was never written: a miss")
      #expect(
        await cache.data(forKey: "a") == bytes(10, 1),
        "the new value of a did not fit, so the old one must still read: record an entry only after its file is in place")
      #expect(
        await cache.data(forKey: "b") == bytes(20, 2),
        "a full disk is not a removed directory: the entries stored before are still there and must still read")
      let (size, count) = (await cache.totalSize, await cache.count)
      #expect(
        count == 2 && size == 30,
        "the failed stores change nothing: a (10 bytes) and b (20 bytes) are the entries; \(count) entries, \(size) bytes")
      #expect(
        !directory.contents().contains { $0.hasPrefix(".tmp") },
        "the half-written temporary file is removed: on a full disk it holds the space the cache lacks; \(directory.contents())")
      disk.freeBytes = nil
      try await cache.flush()
      let reopened = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      let (rebuilt, known) = (await reopened.rebuiltIndex, await reopened.count)
      #expect(!rebuilt && known == 2, "the index still reads after the disk filled up and lists a and b; rebuilt \(rebuilt), \(known) entries")
    }
  }

  @Test("a file where the directory should be is a typed error at open, a failed store later, and is left alone")
  func aFileWhereTheDirectoryShouldBeIsLeftAlone() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let taken = directory.file("images")
      try Data("not a folder".utf8).write(to: taken)
      do {
        _ = try DiskCache(directory: taken, clock: ManualClock(), startDate: start)
        Issue.record("a file stands where the cache's directory should be: the open should throw DiskCacheError.notADirectory")
      } catch DiskCacheError.notADirectory(let url) {
        #expect(url == taken, "the error names the path that is not a directory")
      } catch {
        Issue.record("a file where the directory should be should throw DiskCacheError.notADirectory, not \(error)")
      }
      #expect(
        (try? Data(contentsOf: taken)) == Data("not a folder".utf8),
        "the file in the directory's place is not the cache's: it must be left as it was")

      let running = directory.file("running")
      let cache = try DiskCache(directory: running, clock: ManualClock(), startDate: start)
      try await cache.store(bytes(10, 1), forKey: "a")
      try FileManager.default.removeItem(at: running)
      try Data("a file now".utf8).write(to: running)  // something else took the path while the app ran
      #expect(await cache.data(forKey: "a") == nil, "an entry whose directory is now a file is a miss, not a crash")
      await #expect(throws: DiskCacheError.self, "no entry can be written under a file: the store is .writeFailed") {
        try await cache.store(bytes(20, 2), forKey: "b")
      }
      #expect(
        (try? Data(contentsOf: running)) == Data("a file now".utf8),
        "the file that took the directory's place is not the cache's to remove; making the directory again is only for a path with nothing at it"
      )
    }
  }

  @Test("an entry that cannot be read is a miss and leaves the index; an unreadable index is rebuilt from the files")
  func anUnreadableEntryIsAMissAndLeavesTheIndex() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let disk = FaultyDisk()
      let cache = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start, files: disk)
      try await cache.store(bytes(10, 1), forKey: "a")
      try await cache.store(bytes(20, 2), forKey: "b")
      disk.makeUnreadable(directory.file(SHA256.fileName(forKey: "a")))  // EIO, as a failing flash block gives
      #expect(await cache.data(forKey: "a") == nil, "an entry whose file cannot be read is a miss: the caller fetches it again")
      #expect(
        await !cache.contains("a"),
        "after its read failed, the entry must leave the index: a cache that still says it holds a fresh copy is never asked to fetch one (the prefetcher skips what the disk contains)"
      )
      let (size, count) = (await cache.totalSize, await cache.count)
      #expect(count == 1 && size == 20, "the unreadable entry leaves the count and the size; \(count) entries, \(size) bytes")
      #expect(await cache.data(forKey: "b") == bytes(20, 2), "the other entries still read")
      try await cache.flush()
      disk.makeUnreadable(directory.file(DiskCache.indexFileName))
      let reopened = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start, files: disk)
      #expect(await reopened.rebuiltIndex, "an index that cannot be read is rebuilt from the files, like a missing one")
      #expect(await reopened.data(forKey: "b") == bytes(20, 2), "and the entries that read come back")
    }
  }
}

extension Exercise4_DiskCacheTests {
  @Test("storing a key already on disk replaces its size in the total, not adds to it")
  func storingAKeyAgainReplacesItsSize() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let configuration = DiskCache.Configuration(sizeLimit: 1_000, lowWaterFraction: 0.8)
      let cache = try DiskCache(directory: directory.url, configuration: configuration, clock: ManualClock(), startDate: start)
      try await cache.store(bytes(600, 1), forKey: "photo")
      try await cache.store(bytes(400, 2), forKey: "photo")
      let (size, count) = (await cache.totalSize, await cache.count)
      #expect(
        count == 1 && size == 400,
        "600 bytes and then 400 bytes stored under one key leave one entry of 400 bytes, but totalSize is \(size) with \(count) entries: the old file's size must leave the total when the new file replaces it"
      )
      // 400 + 600 is exactly the limit, which is allowed: nothing may be evicted for bytes that
      // are no longer on disk.
      try await cache.store(bytes(600, 3), forKey: "avatar")
      let passes = await cache.evictionPasses
      #expect(passes == 0, "1,000 bytes on disk is at the limit, not over it, yet eviction ran \(passes) times")
      #expect(await cache.data(forKey: "photo") == bytes(400, 2), "the replaced entry should still read back with its new bytes")
      #expect(await cache.data(forKey: "avatar") == bytes(600, 3), "the second entry should still read back")
    }
  }

  @Test("an entry at the low-water mark is stored; one byte more is .entryTooLarge and changes nothing")
  func anEntryOverTheLowWaterMarkIsRefused() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let configuration = DiskCache.Configuration(sizeLimit: 1_000, lowWaterFraction: 0.5)
      let cache = try DiskCache(directory: directory.url, configuration: configuration, clock: ManualClock(), startDate: start)
      try await cache.store(bytes(500, 1), forKey: "at the mark")
      #expect(await cache.data(forKey: "at the mark") == bytes(500, 1), "500 bytes is exactly the low-water mark (1,000 × 0.5) and must be stored")
      try await cache.store(bytes(100, 2), forKey: "small")
      await #expect(
        throws: DiskCacheError.entryTooLarge(size: 501),
        "501 bytes is one over the low-water mark: evicting for it could never get down to the mark, so the store throws .entryTooLarge(size: 501)"
      ) {
        try await cache.store(bytes(501, 3), forKey: "big")
      }
      let (size, count, passes) = (await cache.totalSize, await cache.count, await cache.evictionPasses)
      #expect(
        size == 600 && count == 2 && passes == 0,
        "a refused entry changes nothing: expected 2 entries of 600 bytes and no eviction, got \(count) entries, \(size) bytes, \(passes) eviction passes"
      )
      #expect(await cache.data(forKey: "small") == bytes(100, 2), "the entries stored before stay readable")
    }
  }

  @Test("removeData and removeAll delete the files and the records, and a relaunch agrees")
  func removalsDeleteFilesAndRecords() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let cache = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      for key in ["a", "b", "c"] { try await cache.store(bytes(10), forKey: key) }
      try await cache.flush()
      await cache.removeData(forKey: "a")
      let (count, size) = (await cache.count, await cache.totalSize)
      #expect(count == 2 && size == 20, "removing \"a\" leaves 2 entries of 20 bytes; got \(count) entries, \(size) bytes")
      #expect(
        !directory.contents().contains(SHA256.fileName(forKey: "a")),
        "removeData deletes the entry's file, not only its record; the directory holds \(directory.contents())")
      let reopened = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      let (known, rebuilt) = (await reopened.count, await reopened.rebuiltIndex)
      #expect(known == 2 && !rebuilt, "a relaunch after removeData reads an index of 2 entries; got \(known), rebuilt: \(rebuilt)")
      await reopened.removeAll()
      let (left, bytesLeft) = (await reopened.count, await reopened.totalSize)
      #expect(left == 0 && bytesLeft == 0, "removeAll leaves no entry and no bytes counted; got \(left) entries, \(bytesLeft) bytes")
      #expect(
        directory.contents().allSatisfy { $0 == DiskCache.indexFileName },
        "removeAll deletes every entry file; the directory holds \(directory.contents())")
    }
  }

  @Test("a file whose size no longer matches its record is a miss and leaves the index")
  func aFileOfAnotherSizeIsAMiss() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let cache = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      try await cache.store(bytes(10), forKey: "a")
      try bytes(4).write(to: directory.file(SHA256.fileName(forKey: "a")))  // cut short behind the cache's back
      #expect(await cache.data(forKey: "a") == nil, "4 bytes where the record says 10 is a damaged entry: a miss, never served")
      let (count, size) = (await cache.count, await cache.totalSize)
      #expect(count == 0 && size == 0, "the damaged entry must leave the index; \(count) entries, \(size) bytes")
    }
  }

  @Test("opening writes nothing: a cache rebuilt from its files is rebuilt again at the next open")
  func openingWritesNothing() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let cache = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
      try await cache.store(bytes(10), forKey: "a")  // no index yet: the first batch is 31 stores away
      let before = directory.contents()
      for launch in 1...2 {
        let reopened = try DiskCache(directory: directory.url, clock: ManualClock(), startDate: start)
        let (rebuilt, files) = (await reopened.rebuiltIndex, directory.contents())
        #expect(
          rebuilt && files == before,
          "launch \(launch): an open rebuilds from the files and writes nothing, so the next open rebuilds again; rebuilt: \(rebuilt), files before \(before), after \(files)"
        )
      }
    }
  }
}

extension Exercise4_DiskCacheTests {
  @Test("a directory that cannot be created fails the open with .writeFailed")
  func anUncreatableDirectoryFailsTheOpen() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let parent = directory.file("parent")
      try Data("a file, not a folder".utf8).write(to: parent)
      let inside = parent.appendingPathComponent("images", isDirectory: true)  // under a file: no mkdir can make it
      do {
        _ = try DiskCache(directory: inside, clock: ManualClock(), startDate: start)
        Issue.record("the cache's directory lies under a file and cannot be created: the open should throw .writeFailed")
      } catch DiskCacheError.writeFailed {
      } catch {
        Issue.record("a directory that cannot be created should throw DiskCacheError.writeFailed, not \(error)")
      }
    }
  }

  @Test("lookup marks the entry used: it outlives older entries at the next eviction")
  func aLookupMarksTheEntryUsed() async throws {
    try await withTemporaryDirectory("disk") { directory in
      // 250 bytes allowed, evicting down to 200: a third entry of 100 bytes pushes out exactly one.
      let configuration = DiskCache.Configuration(sizeLimit: 250, lowWaterFraction: 0.8)
      let cache = try DiskCache(directory: directory.url, configuration: configuration, clock: ManualClock(), startDate: start)
      try await cache.store(bytes(100, 1), forKey: "a")
      try await cache.store(bytes(100, 2), forKey: "b")
      #expect(await cache.lookup(forKey: "a")?.data == bytes(100, 1), "a was stored and reads back")
      try await cache.store(bytes(100, 3), forKey: "c")
      let (a, b) = (await cache.contains("a"), await cache.contains("b"))
      #expect(
        a && !b,
        "a was looked up after b was stored, so b is the least recently used and goes first; a kept: \(a), b kept: \(b)")
    }
  }

  @Test("contains reads no file and leaves recency alone")
  func containsReadsNoFileAndLeavesRecencyAlone() async throws {
    try await withTemporaryDirectory("disk") { directory in
      let disk = FaultyDisk()
      // 250 bytes allowed, evicting down to 200: a third entry of 100 bytes pushes out exactly one.
      let configuration = DiskCache.Configuration(sizeLimit: 250, lowWaterFraction: 0.8)
      let cache = try DiskCache(directory: directory.url, configuration: configuration, clock: ManualClock(), startDate: start, files: disk)
      try await cache.store(bytes(100, 1), forKey: "a")
      try await cache.store(bytes(100, 2), forKey: "b")
      #expect(await cache.contains("a"), "a was stored and is fresh")
      try await cache.store(bytes(100, 3), forKey: "c")
      let (a, b) = (await cache.contains("a"), await cache.contains("b"))
      #expect(
        !a && b,
        "asking whether a is cached must not mark it used: a is still the oldest and goes first; a kept: \(a), b kept: \(b)")
      disk.makeUnreadable(directory.file(SHA256.fileName(forKey: "c")))
      #expect(
        await cache.contains("c"),
        "contains answers from the index and never reads the file: c's unreadable file is found out by the next read, not by contains")
    }
  }
}
