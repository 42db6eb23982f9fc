// Exercise 4 — A disk cache that survives crashes (advanced)
//
// Store each entry in its own file named by `SHA256.fileName(forKey:)`, and keep an index
// (size, creation time, last use) in `index.json`, written every few dozen stores and on
// `flush()`, never on every store (that is O(n) per write). Write every file to a temporary name and
// rename it into place, so a crash leaves the old file or the new one, never half of one. On
// open, trust nothing: a missing or corrupt index is rebuilt from the files, unknown files are
// removed, and files deleted behind the cache's back are simply misses. The whole directory may
// go too while the app runs (the user or the system clears caches): its entries are misses, and
// the next write makes the directory again and starts an empty cache in it. A full disk fails the
// store and loses nothing stored before; a file standing where the directory should be is not the
// cache's to remove; an entry that cannot be read is a miss that leaves the index.
import Foundation
import Workbook

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why the disk cache could not do what was asked.
public nonisolated enum DiskCacheError: Error, Equatable, Sendable {
  /// The entry alone is bigger than the low-water mark: storing it would evict everything.
  case entryTooLarge(size: Int)
  /// The file system refused a write or a rename (disk full, permissions).
  case writeFailed(String)
  /// Something other than a directory (a file) stands at the cache's path. The cache opens
  /// nothing and leaves it where it is: it is not the cache's to remove.
  case notADirectory(URL)
}

/// A size-limited, expiring, crash-safe cache of `Data` on disk.
///
/// Lookups are O(1) in the index plus the file read; a store is O(1) plus the index write, and
/// eviction sorts by last use only when the size limit is crossed, then frees down to a low-water
/// mark, so the sort is paid once per (limit − low water) bytes written, not on every write.
public actor DiskCache {
  public struct Configuration: Sendable {
    /// How long an entry is fresh after it was stored (default 7 days), on the injected clock.
    /// Fresh while its age is under `ttl`; expired from the moment its age reaches `ttl` (RFC 9111
    /// §4.2 counts a response fresh only while its lifetime exceeds its age).
    public var ttl: Duration
    /// Total bytes of entry files allowed (default 500 MB). A total equal to the limit is
    /// allowed; eviction starts when a store takes the total over it.
    public var sizeLimit: Int
    /// When the limit is crossed, evict down to this fraction of it.
    public var lowWaterFraction: Double

    public init(ttl: Duration = .seconds(7 * 24 * 60 * 60), sizeLimit: Int = 500_000_000, lowWaterFraction: Double = 0.8) {
      self.ttl = ttl
      self.sizeLimit = sizeLimit
      self.lowWaterFraction = lowWaterFraction
    }
  }

  /// What a lookup that tolerates expired entries returns.
  public struct Lookup: Sendable, Equatable {
    public let data: Data
    /// True when the entry's age has reached the TTL: usable for stale-while-revalidate only.
    public let isExpired: Bool
  }

  /// One entry of the persisted index.
  struct Record: Codable, Equatable {
    var size: Int
    /// Wall-clock seconds since 1970 when the entry was stored.
    var created: Double
    /// Increases with every use: the least recently used entry has the smallest.
    var lastUse: UInt64
  }

  struct IndexFile: Codable {
    var version = 1
    var records: [String: Record]
  }

  /// The name of the index file inside the cache directory.
  public static let indexFileName = "index.json"

  /// How many stores may go by before the index is written again. Writing it on every store
  /// costs O(n) per write (O(n²) to fill the cache); a crash before the next write loses at most
  /// this many of the newest entries, which a cache can afford. `flush()` writes it at once
  /// (call it when the app goes to the background).
  static let storesPerIndexWrite = 32

  public let directory: URL
  public let configuration: Configuration
  private let wallTime: @Sendable () -> Double
  private var records: [String: Record]
  private var useCounter: UInt64
  private var size: Int
  private var indexIsDirty = false
  private var storesSinceIndexWrite = 0
  /// Every read and write of a file goes through `files`.
  private let files: any FileSystem
  /// Writes bytes to a path, in place, through `files`. Tests replace it to simulate a crash
  /// half-way through.
  private var writeFile: @Sendable (Data, URL) throws -> Void

  /// True if the last open found no usable index (missing, unreadable or of the wrong shape) and
  /// at least one entry file, a name of 64 hex digits, to rebuild the entries from. A new, empty
  /// directory, or one holding only files the cache never wrote as entries (temporaries of an
  /// interrupted write, foreign files, which the open removes), is a new cache: false.
  public let rebuiltIndex: Bool
  /// How many times eviction ran (each run sorts once); for tests and metrics.
  public private(set) var evictionPasses = 0

  /// Opens (creating if needed) the cache in `directory`. Opening writes nothing: with no index
  /// file yet (a new cache, or one that crashed before its first index write), the entries are
  /// rebuilt from the files; with an index, files it does not know are removed. An index that is
  /// there but cannot be read (an I/O error) is rebuilt from the files like a missing one.
  ///
  /// Throws `DiskCacheError.notADirectory` when a file stands at `directory`, and leaves that file
  /// alone; `.writeFailed` when the directory cannot be created.
  ///
  /// - Parameters:
  ///   - clock: measures TTLs; tests pass a `ManualClock`.
  ///   - startDate: the wall-clock time at which `clock` reads "now". Stored times are
  ///     `startDate` plus the clock's elapsed time, so they stay comparable across launches.
  ///   - files: the disk the cache reads and writes through: the real one unless a test passes
  ///     one that fails (full, or a file that cannot be read).
  public init(
    directory: URL, configuration: Configuration = Configuration(), clock: any Clock<Duration> = ContinuousClock(),
    startDate: Date = Date(), files: any FileSystem = RealFileSystem()
  ) throws {
    self.directory = directory
    self.configuration = configuration
    self.files = files
    writeFile = { data, url in try files.write(data, to: url, options: []) }
    let wallTime = Self.wallTime(on: clock, startingAt: startDate)
    self.wallTime = wallTime
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), !isDirectory.boolValue {
      throw DiskCacheError.notADirectory(directory)
    }
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    } catch {
      throw DiskCacheError.writeFailed("\(error)")
    }
    let opened = Self.open(directory: directory, files: files, now: wallTime())
    records = opened.records
    rebuiltIndex = opened.rebuilt
    useCounter = opened.records.values.map(\.lastUse).max() ?? 0
    size = opened.records.values.reduce(0) { $0 + $1.size }
    indexIsDirty = opened.changed
  }

  private static func wallTime<C: Clock<Duration>>(on clock: C, startingAt start: Date) -> @Sendable () -> Double {
    let origin = clock.now
    let base = start.timeIntervalSince1970
    return {
      let elapsed = origin.duration(to: clock.now).components
      return base + Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }
  }

  // MARK: - Lookups

  /// The data for `key` if present and fresh, marking it recently used. An expired entry is
  /// removed and reported as a miss; a file that vanished, changed size or cannot be read (an I/O
  /// error) is a miss too, and its entry leaves the index: `contains` and the totals stop counting it.
  public func data(forKey key: String) -> Data? {
    guard let found = lookup(forKey: key) else { return nil }
    if found.isExpired {
      removeData(forKey: key)
      return nil
    }
    return found.data
  }

  /// The data for `key` even if expired (for stale-while-revalidate), marking it recently used.
  public func lookup(forKey key: String) -> Lookup? {
    let name = SHA256.fileName(forKey: key)
    guard let record = records[name] else { return nil }
    guard let data = try? files.contents(of: fileURL(name)), data.count == record.size else {
      // Deleted behind our back, damaged or unreadable: forget it rather than serve it, and let
      // the caller fetch it again.
      forget(name)
      return nil
    }
    useCounter += 1
    records[name]?.lastUse = useCounter
    indexIsDirty = true
    return Lookup(data: data, isExpired: isExpired(record))
  }

  /// Whether a fresh entry exists for `key`, without reading the file or touching recency.
  public func contains(_ key: String) -> Bool {
    guard let record = records[SHA256.fileName(forKey: key)] else { return false }
    return !isExpired(record)
  }

  public var count: Int { records.count }
  /// Total bytes of the entry files.
  public var totalSize: Int { size }

  // MARK: - Changes

  /// Stores `data` for `key`: temporary file, then rename over the old one. The index is written
  /// every `storesPerIndexWrite` stores, after an eviction pass, and on `flush()`, not on every
  /// store. Evicts least recently used entries when the size limit is crossed.
  ///
  /// Throws only when the entry itself was not stored (`.entryTooLarge`, or `.writeFailed` for
  /// its file). A failed index write on the way (batched or after eviction) is not this store's
  /// failure: the entry is in place and readable, the index stays dirty, and the count of stores
  /// since the last index write is not reset, so the very next store tries the index again, and
  /// so does `flush()`, which throws when it fails. A directory removed since the open is made
  /// again, empty (its entries went with it), and the store succeeds.
  ///
  /// A full disk (`ENOSPC`) throws `.writeFailed` and changes nothing: the entry is not recorded,
  /// an older value for `key` still reads, every other entry and the index stay as they were, and
  /// no temporary file is left taking space. A file standing where the directory was throws
  /// `.writeFailed` too, and stays where it is.
  public func store(_ data: Data, forKey key: String) throws {
    let lowWater = Int(Double(configuration.sizeLimit) * configuration.lowWaterFraction)
    guard data.count <= lowWater else { throw DiskCacheError.entryTooLarge(size: data.count) }
    let name = SHA256.fileName(forKey: key)
    try writeAtomically(data, to: fileURL(name))
    size -= records[name]?.size ?? 0
    useCounter += 1
    records[name] = Record(size: data.count, created: wallTime(), lastUse: useCounter)
    size += data.count
    indexIsDirty = true
    storesSinceIndexWrite += 1
    if size > configuration.sizeLimit {
      evict(downTo: lowWater)
      try? persistIndex()
    } else if storesSinceIndexWrite >= Self.storesPerIndexWrite {
      try? persistIndex()
    }
  }

  /// Removes the entry for `key`, if any.
  public func removeData(forKey key: String) {
    let name = SHA256.fileName(forKey: key)
    guard records[name] != nil else { return }
    try? FileManager.default.removeItem(at: fileURL(name))
    forget(name)
    try? persistIndex()
  }

  /// Removes every entry whose age has reached the TTL, then writes the index (like an eviction pass).
  /// O(n). Returns how many were removed.
  @discardableResult
  public func removeExpired() -> Int {
    let expired = records.filter { isExpired($0.value) }.map(\.key)
    for name in expired {
      try? FileManager.default.removeItem(at: fileURL(name))
      forget(name)
    }
    try? persistIndex()
    return expired.count
  }

  /// Removes every entry file; nothing stays counted.
  public func removeAll() {
    for name in records.keys { try? FileManager.default.removeItem(at: fileURL(name)) }
    records = [:]
    size = 0
    indexIsDirty = true
    try? persistIndex()
  }

  /// Writes the index if anything changed since it was last written (recency after reads).
  public func flush() throws {
    try persistIndex()
  }

  /// Replaces the function that writes bytes to a path (tests simulate crashes with it).
  func useFileWriter(_ writer: @escaping @Sendable (Data, URL) throws -> Void) {
    writeFile = writer
  }

  // MARK: - Internals

  private func isExpired(_ record: Record) -> Bool {
    let ttl = configuration.ttl.components
    let seconds = Double(ttl.seconds) + Double(ttl.attoseconds) / 1e18
    return wallTime() >= record.created + seconds
  }

  private func fileURL(_ name: String) -> URL {
    directory.appendingPathComponent(name, isDirectory: false)
  }

  private func forget(_ name: String) {
    guard let record = records.removeValue(forKey: name) else { return }
    size -= record.size
    indexIsDirty = true
  }

  /// Sorts once by last use and removes the oldest until the total is at most `lowWater`.
  private func evict(downTo lowWater: Int) {
    evictionPasses += 1
    for (name, _) in records.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
      guard size > lowWater else { break }
      try? FileManager.default.removeItem(at: fileURL(name))
      forget(name)
    }
  }

  private func persistIndex() throws {
    guard indexIsDirty else { return }
    try writeAtomically(to: fileURL(Self.indexFileName)) { try JSONEncoder().encode(IndexFile(records: records)) }
    indexIsDirty = false
    storesSinceIndexWrite = 0
  }

  private func writeAtomically(_ data: Data, to destination: URL) throws {
    try writeAtomically(to: destination) { data }
  }

  /// Writes through a temporary file. When the write fails because the directory itself is gone
  /// (the user or the system cleared the caches while the app ran), the entries went with it:
  /// the cache starts again empty in a new directory and writes once more, so a store succeeds
  /// instead of failing until the next launch. `contents` is asked again after that, since an
  /// index written then must list no entry of the old directory.
  private func writeAtomically(to destination: URL, contents: () throws -> Data) throws {
    do {
      try writeThroughTemporary(contents(), to: destination)
    } catch {
      guard recreateMissingDirectory() else { throw error }
      try writeThroughTemporary(contents(), to: destination)
    }
  }

  /// If the directory no longer exists, creates it again and forgets every entry (their files
  /// were inside it). Returns false when the directory is there (the write failed for another
  /// reason, such as a full disk, and the entries are still in it), when a file stands in its
  /// place (not the cache's to remove), or when it cannot be created.
  private func recreateMissingDirectory() -> Bool {
    if FileManager.default.fileExists(atPath: directory.path) { return false }
    guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil else {
      return false
    }
    records = [:]
    size = 0
    indexIsDirty = true
    return true
  }

  /// Temporary file in the same directory (same volume, so the rename is atomic), then rename.
  private func writeThroughTemporary(_ data: Data, to destination: URL) throws {
    let temporary = directory.appendingPathComponent(".tmp-\(UUID().uuidString)", isDirectory: false)
    do {
      try writeFile(data, temporary)
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw DiskCacheError.writeFailed("\(error)")
    }
    guard rename(temporary.path, destination.path) == 0 else {
      try? FileManager.default.removeItem(at: temporary)
      throw DiskCacheError.writeFailed("rename failed with errno \(errno)")
    }
  }

  /// Reads the index, or rebuilds it from the files, and removes whatever does not belong.
  private static func open(
    directory: URL, files: any FileSystem, now: Double
  ) -> (records: [String: Record], rebuilt: Bool, changed: Bool) {
    let manager = FileManager.default
    let names = (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
    let indexURL = directory.appendingPathComponent(indexFileName)
    var records: [String: Record]
    let rebuilt: Bool
    if let data = try? files.contents(of: indexURL), let index = try? JSONDecoder().decode(IndexFile.self, from: data) {
      records = index.records
      rebuilt = false
    } else {
      records = [:]
      // Only entry files can be rebuilt from: an empty directory, or one of temporaries and
      // foreign files (removed below), is a new cache.
      rebuilt = names.contains(where: isEntryName)
    }
    var changed = rebuilt
    var sizes: [String: Int] = [:]
    for name in names where name != indexFileName {
      let url = directory.appendingPathComponent(name)
      let attributes = try? manager.attributesOfItem(atPath: url.path)
      let isFile = (attributes?[.type] as? FileAttributeType) == .typeRegular
      let fileSize = (attributes?[.size] as? NSNumber)?.intValue
      let known = rebuilt ? isEntryName(name) : records[name] != nil
      if isFile, known, let fileSize, rebuilt || records[name]?.size == fileSize {
        sizes[name] = fileSize
      } else {
        // Temporary files of an interrupted write, files of an older version, damaged entries.
        try? manager.removeItem(at: url)
        changed = true
      }
    }
    if rebuilt {
      // The files carry no metadata we trust: treat them as stored now, in name order.
      for (offset, name) in sizes.keys.sorted().enumerated() {
        records[name] = Record(size: sizes[name] ?? 0, created: now, lastUse: UInt64(offset + 1))
      }
    } else {
      let missing = records.keys.filter { sizes[$0] == nil }
      for name in missing { records[name] = nil }
      changed = changed || !missing.isEmpty
    }
    return (records, rebuilt, changed)
  }

  private static func isEntryName(_ name: String) -> Bool {
    name.count == 64 && name.allSatisfy { "0123456789abcdef".contains($0) }
  }
}
