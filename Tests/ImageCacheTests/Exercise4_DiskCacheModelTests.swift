import Foundation
import Testing
import WorkbookTesting

@testable import ImageCache

/// One thing the app or the world does to a disk cache.
enum DiskCacheStep: CustomStringConvertible {
  /// `size` bytes, each `byte`, for `key`.
  case store(key: String, size: Int, byte: UInt8)
  case data(key: String)
  case lookup(key: String)
  case remove(key: String)
  case removeExpired
  case removeAll
  case clockJumps(seconds: Int)
  case diskFills
  case diskFrees
  /// The app flushes on its way to the background, then is killed and launched again.
  case flushAndRelaunch

  var description: String {
    switch self {
    case .store(let key, let size, let byte): "store(\(size) bytes of \(byte), forKey: \(Agreement.show(key)))"
    case .data(let key): "data(forKey: \(Agreement.show(key)))"
    case .lookup(let key): "lookup(forKey: \(Agreement.show(key)))"
    case .remove(let key): "removeData(forKey: \(Agreement.show(key)))"
    case .removeExpired: "removeExpired()"
    case .removeAll: "removeAll()"
    case .clockJumps(let seconds): "the clock moves \(seconds) s on"
    case .diskFills: "the disk fills up (every write fails with ENOSPC)"
    case .diskFrees: "the disk has room again"
    case .flushAndRelaunch: "the disk has room, flush(), then a relaunch opens the same directory"
    }
  }
}

/// The disk cache as its doc comments describe it: entries by key with their size, the time they
/// were stored and an order of use; a store over the size limit evicts the least recently used
/// down to the low-water mark in one pass.
struct DiskCacheModel {
  struct Entry {
    var bytes: Data
    var created: Int
    var lastUse: Int
  }

  static let ttl = 10
  static let sizeLimit = 100
  static let lowWater = 80

  var entries: [String: Entry] = [:]
  var now = 0
  var uses = 0
  var diskFull = false
  var evictionPasses = 0

  var totalSize: Int { entries.values.reduce(0) { $0 + $1.bytes.count } }

  func isExpired(_ entry: Entry) -> Bool { now >= entry.created + Self.ttl }

  mutating func store(_ bytes: Data, for key: String) -> String {
    guard bytes.count <= Self.lowWater else { return "entryTooLarge(size: \(bytes.count))" }
    guard !diskFull else { return "writeFailed" }
    uses += 1
    entries[key] = Entry(bytes: bytes, created: now, lastUse: uses)
    if totalSize > Self.sizeLimit {
      evictionPasses += 1
      for (key, _) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where totalSize > Self.lowWater {
        entries[key] = nil
      }
    }
    return "stored"
  }

  mutating func lookup(_ key: String) -> DiskCache.Lookup? {
    guard let entry = entries[key] else { return nil }
    uses += 1
    entries[key]?.lastUse = uses
    return DiskCache.Lookup(data: entry.bytes, isExpired: isExpired(entry))
  }
}

/// The cache under test, the directory it lives in, its disk and its clock.
final class DiskCacheWorld {
  let folder: TemporaryDirectory
  let disk = FaultyDisk()
  let clock = ManualClock()
  var cache: DiskCache
  /// The wall-clock time the current launch's clock started at.
  var launchedAt = Date(timeIntervalSince1970: 1_000_000)
  var directory: URL { folder.file("cache") }

  static let configuration = DiskCache.Configuration(
    ttl: .seconds(DiskCacheModel.ttl), sizeLimit: DiskCacheModel.sizeLimit, lowWaterFraction: 0.8)

  init() throws {
    let folder = try TemporaryDirectory("disk-cache-model", inMemory: true)
    do {
      cache = try DiskCache(
        directory: folder.file("cache"), configuration: Self.configuration, clock: clock, startDate: launchedAt, files: disk)
    } catch {
      folder.remove()  // no world to tear down: the folder goes here
      throw error
    }
    self.folder = folder
  }

  /// A new cache on the same directory, its clock reading the same wall-clock time as before.
  func relaunch(elapsedSeconds: Int) throws {
    cache = try DiskCache(
      directory: directory, configuration: Self.configuration, clock: clock,
      startDate: Date(timeIntervalSince1970: 1_000_000 + Double(elapsedSeconds)), files: disk)
  }
}

@Suite("Exercise 4 — A disk cache that survives crashes (against a model)", .timeLimit(.minutes(1)))
struct Exercise4_DiskCacheModelTests {
  static let keys = ["a/b", "a\"b", "line\nbreak", "👩‍💻"]

  @Test("stores at the low-water mark and past it, reads, removals, expiry on a jumping clock, a full disk and relaunches agree with a model")
  func agreesWithAModel() async {
    let check = ModelCheck<DiskCacheStep, DiskCacheModel, DiskCacheWorld>(
      "DiskCache (ttl 10 s, size limit 100 bytes, low water 80) against its model", seeds: 1...40, steps: 30, replay: "make chapter-4 EXERCISE=4",
      generate: { random in
        let key = random.pick(Self.keys)
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<35:
          let size = random.chance(30) ? random.pick([1, 79, 80, 81]) : Int.random(in: 1...40, using: &random)
          return .store(key: key, size: size, byte: UInt8.random(in: 0...255, using: &random))
        case 35..<50: return .data(key: key)
        case 50..<58: return .lookup(key: key)
        case 58..<66: return .remove(key: key)
        case 66..<70: return .removeExpired
        case 70..<72: return .removeAll
        case 72..<84: return .clockJumps(seconds: random.pick([1, 4, 9, 10, 11]))
        case 84..<89: return .diskFills
        case 89..<94: return .diskFrees
        default: return .flushAndRelaunch
        }
      },
      model: { DiskCacheModel() }, system: { try DiskCacheWorld() },
      step: { step, model, world, check in
        let cache = world.cache
        switch step {
        case .store(let key, let size, let byte):
          let bytes = Data(repeating: byte, count: size)
          let expected = model.store(bytes, for: key)
          var outcome = "stored"
          do {
            try await cache.store(bytes, forKey: key)
          } catch DiskCacheError.writeFailed {
            outcome = "writeFailed"
          } catch {
            outcome = "\(error)"
          }
          check.same("what \(step) did", model: expected, component: outcome)
        case .data(let key):
          var expected = model.lookup(key)
          if expected?.isExpired == true {
            model.entries[key] = nil
            expected = nil
          }
          check.same("what \(step) returned", model: expected?.data, component: await cache.data(forKey: key))
        case .lookup(let key):
          check.same("what \(step) returned", model: model.lookup(key), component: await cache.lookup(forKey: key))
        case .remove(let key):
          await cache.removeData(forKey: key)
          model.entries[key] = nil
        case .removeExpired:
          let expired = model.entries.filter { model.isExpired($0.value) }.map(\.key)
          for key in expired { model.entries[key] = nil }
          check.same("what removeExpired() returned", model: expired.count, component: await cache.removeExpired())
        case .removeAll:
          await cache.removeAll()
          model.entries = [:]
        case .clockJumps(let seconds):
          Self.move(world.clock, by: .seconds(seconds))
          model.now += seconds
        case .diskFills:
          world.disk.freeBytes = 0
          model.diskFull = true
        case .diskFrees:
          world.disk.freeBytes = nil
          model.diskFull = false
        case .flushAndRelaunch:
          world.disk.freeBytes = nil
          model.diskFull = false
          try await cache.flush()
          try world.relaunch(elapsedSeconds: model.now)
          model.evictionPasses = 0
          check.same("rebuiltIndex after a relaunch that followed a flush", model: false, component: await world.cache.rebuiltIndex)
        }
        let now = world.cache
        check.same("count", model: model.entries.count, component: await now.count)
        check.same("totalSize", model: model.totalSize, component: await now.totalSize)
        check.same("evictionPasses since the launch", model: model.evictionPasses, component: await now.evictionPasses)
        for key in Self.keys {
          let fresh = model.entries[key].map { !model.isExpired($0) } ?? false
          check.same("contains(\(Agreement.show(key)))", model: fresh, component: await now.contains(key))
        }
      },
      tearDown: { $0.folder.remove() })
    if let failure = await check.run() { Issue.record("\(failure)") }
  }

  /// Moves the clock without waiting for anyone: nothing sleeps on it here.
  static func move(_ clock: ManualClock, by duration: Duration) {
    clock.advance(by: duration)
  }
}
