import Foundation
import Testing
import Workbook
import WorkbookTesting

@testable import Downloads

/// The validator a version of the server's file comes with.
enum ServedValidator: CaseIterable, CustomStringConvertible {
  case strongETag
  case weakETag
  /// `Last-Modified` a second before the response's `Date`: strong (RFC 9110 §8.8.2.2).
  case modifiedASecondBeforeDate
  /// `Last-Modified` equal to `Date`: weak, the file could change again within that second.
  case modifiedAtDate
  /// `Last-Modified` a second after `Date`: a server whose clocks disagree; proves nothing.
  case modifiedASecondAfterDate
  case none

  var description: String {
    switch self {
    case .strongETag: "a strong ETag"
    case .weakETag: "a weak ETag"
    case .modifiedASecondBeforeDate: "Last-Modified a second before Date"
    case .modifiedAtDate: "Last-Modified equal to Date"
    case .modifiedASecondAfterDate: "Last-Modified a second after Date"
    case .none: "no validator"
    }
  }
}

/// Where a transfer is stopped from outside, held before one of its chunks.
enum TransferStop: CustomStringConvertible {
  case runs
  case pause(beforeChunk: Int)
  case cancel(beforeChunk: Int)

  var description: String {
    switch self {
    case .runs: ""
    case .pause(let chunk): ", paused before chunk \(chunk) of the transfer"
    case .cancel(let chunk): ", its caller cancelled before chunk \(chunk) of the transfer"
    }
  }
}

/// One thing the app or the world does to a download of one URL to one destination.
enum DownloaderStep: CustomStringConvertible {
  /// The server has a new version of the file (each version's validator names it).
  case serverPublishes(version: Int, size: Int, validator: ServedValidator, acceptsRanges: Bool)
  /// The file's size changes and its validator does not, as on a server that does not keep them apart.
  case serverResizesKeepingTheValidator(size: Int)
  /// From now on each transfer's connection drops after this byte of the file (nil: it does not).
  case connectionDrops(atByte: Int?)
  /// From now on 200s and 206s announce a file this many bytes shorter than the one they send.
  case serverUnderstatesTheLength(by: Int)
  /// The disk has this many bytes left for the download's writes (nil: plenty).
  case diskRoom(Int?)
  /// `start(_:to:)` (a paused download is thrown away first: `discard()` on its partial file).
  case start(TransferStop)
  /// `resume(_:)` of the paused download, if there is one.
  case resume(TransferStop)

  var description: String {
    switch self {
    case .serverPublishes(let version, let size, let validator, let ranges):
      "the server publishes version \(version): \(size) bytes, \(validator), \(ranges ? "ranges offered" : "no ranges")"
    case .serverResizesKeepingTheValidator(let size): "the server's file becomes \(size) bytes, its validator unchanged"
    case .connectionDrops(let byte?): "from now on the connection drops after byte \(byte) of the file"
    case .connectionDrops(nil): "from now on the connection does not drop"
    case .serverUnderstatesTheLength(let by): "from now on 200s and 206s announce \(by) bytes fewer than they send"
    case .diskRoom(let room?): "the disk has \(room) bytes left"
    case .diskRoom(nil): "the disk has plenty of room"
    case .start(let stop): "start(url, to: destination)\(stop)"
    case .resume(let stop): "resume(resumeData)\(stop)"
    }
  }
}

/// The downloader, its partial file and its destination as bytes and a length.
///
/// Every scripted file's byte `i` is the same function of `i`, so a file is its length and
/// whether its bytes are the file's own. The model follows the doc comments of `Downloader`,
/// `StreamToDisk`, `PartialFile` and `ResumeData`, and the server's contract in `ScriptedTransport`.
struct DownloaderModel {
  struct Served {
    var version = 1
    var size = 10
    var validator = ServedValidator.strongETag
    var acceptsRanges = true
  }

  struct Paused: Equatable {
    var bytes: Int
    var validator: String?
    var responseDate: String?
    var acceptsRanges: Bool
  }

  /// What a transfer step should show.
  struct Transfer {
    var outcome: String
    var progress: [Int64]?
    var request: String
  }

  static let chunkSize = 4

  var served = Served()
  var dropsAt: Int?
  var understatedBy = 0
  var room: Int?
  /// The length of the destination file (its bytes are the file's), nil when absent.
  var destination: Int?
  var paused: Paused?

  /// An IMF-fixdate (RFC 9110 §5.6.7), as a server writes `Date` and `Last-Modified`.
  static func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
  }

  /// The validator the server sends, and its `Date` header.
  var validatorAndDate: (validator: String?, date: String?) {
    let version = served.version
    let base = Date(timeIntervalSince1970: 784_111_777 + Double(version) * 60)
    let modified = Self.httpDate(base)
    switch served.validator {
    case .strongETag: return ("\"v\(version)\"", nil)
    case .weakETag: return ("W/\"v\(version)\"", nil)
    case .modifiedASecondBeforeDate: return (modified, Self.httpDate(base.addingTimeInterval(1)))
    case .modifiedAtDate: return (modified, Self.httpDate(base))
    case .modifiedASecondAfterDate: return (modified, Self.httpDate(base.addingTimeInterval(-1)))
    case .none: return (nil, nil)
    }
  }

  /// Whether `validator`, sent with `date`, may go as `If-Range`.
  static func isStrong(_ validator: String?, date: String?) -> Bool {
    guard let validator else { return false }
    if validator.hasPrefix("W/") { return false }
    if validator.hasPrefix("\"") { return true }
    guard let modified = HTTPDate.parse(validator), let date = date.flatMap({ HTTPDate.parse($0) }) else { return false }
    return date.timeIntervalSince(modified) >= 1
  }

  /// One transfer: a start (`resume` nil) or a resume, stopped or not.
  mutating func transfer(resume: Paused?, stop: TransferStop) -> Transfer {
    // The request.
    var rangeStart: Int?
    var ifRange: String?
    if let resume, resume.bytes > 0, resume.acceptsRanges, Self.isStrong(resume.validator, date: resume.responseDate) {
      rangeStart = resume.bytes
      ifRange = resume.validator
    }
    let request = rangeStart.map { "Range: bytes=\($0)-, If-Range: \(ifRange ?? "")" } ?? "no Range"
    // The server's answer.
    let (validator, date) = validatorAndDate
    var status = 200
    var start = 0
    if let rangeStart, served.acceptsRanges, ifRange == validator, validator?.hasPrefix("W/") == false {
      status = rangeStart >= served.size ? 416 : 206
      start = rangeStart
    }
    func fails(_ outcome: String, progress: [Int64] = []) -> Transfer {
      paused = nil
      return Transfer(outcome: outcome, progress: progress, request: request)
    }
    if status == 416 {
      guard let resume, resume.bytes == served.size else { return fails("failed: \(DownloadError.httpStatus(416))") }
      paused = nil
      destination = resume.bytes
      return Transfer(outcome: "completed", progress: [Int64(resume.bytes)], request: request)
    }
    // 200 from 0, or 206 from the bytes on disk: the body is written from there.
    let announced = served.size - understatedBy
    let end = min(served.size, dropsAt ?? served.size)
    var onDisk = start
    var progress = [Int64(start)]
    var chunk = 0
    var offset = start
    while offset < end {
      switch stop {
      case .pause(let at) where at == chunk:
        paused = Paused(bytes: onDisk, validator: validator, responseDate: date, acceptsRanges: status == 206 || served.acceptsRanges)
        return Transfer(outcome: "paused with \(onDisk) bytes on disk", progress: progress, request: request)
      case .cancel(let at) where at == chunk:
        paused = nil
        return Transfer(outcome: "cancelled", progress: nil, request: request)
      default: break
      }
      let count = min(Self.chunkSize, end - offset)
      if let left = room, left < count {
        room = 0
        return fails("failed: the disk is full", progress: progress)
      }
      room = room.map { $0 - count }
      offset += count
      onDisk += count
      progress.append(Int64(onDisk))
      chunk += 1
    }
    if onDisk != announced {
      paused = nil
      return Transfer(
        outcome: "failed: \(DownloadError.truncated(received: Int64(onDisk), expected: Int64(announced)))", progress: progress,
        request: request)
    }
    paused = nil
    destination = onDisk
    return Transfer(outcome: "completed", progress: progress, request: request)
  }
}

/// The first of two events: a transfer reached the chunk it is held before (true), or it ended
/// first (false). The test waits for the event itself, never for time or for tasks to settle.
final class HeldOrEnded: Sendable {
  private let state = Locked<(outcome: Bool?, waiter: CheckedContinuation<Bool, Never>?)>((nil, nil))

  func settle(held: Bool) {
    let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
      guard state.outcome == nil else { return nil }
      state.outcome = held
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: held)
  }

  /// Whether the transfer was held.
  func wait() async -> Bool {
    await withCheckedContinuation { continuation in
      let now = state.withLock { state -> Bool? in
        if let outcome = state.outcome { return outcome }
        state.waiter = continuation
        return nil
      }
      if let now { continuation.resume(returning: now) }
    }
  }
}

/// The downloader under test: a scripted server that can hold a transfer before a chunk, a disk
/// that can fill, a folder, and the resume data the app keeps.
final class DownloaderWorld: @unchecked Sendable {
  let folder: TemporaryDirectory
  let disk = FaultyDisk()
  let clock = ManualClock()
  /// The chunk the next transfer is held before, and who hears that it got there.
  let holdBefore = Locked<(chunk: Int, event: HeldOrEnded)?>(nil)
  let understatedBy = Locked(0)
  let scripted: ScriptedTransport
  var downloader: Downloader { Downloader(transport: UnderstatingTransport(world: self), files: disk) }
  var paused: ResumeData?
  static let url = URL(string: "http://files.test/files/model.bin")!
  var destination: URL { folder.file("model.bin") }

  init() throws {
    folder = try TemporaryDirectory("downloader-model", inMemory: true)
    let clock = clock
    let holdBefore = holdBefore
    scripted = ScriptedTransport(chunkSize: DownloaderModel.chunkSize) { _, _, index in
      let event = holdBefore.withLock { hold -> HeldOrEnded? in
        guard let current = hold, current.chunk == index else { return nil }
        hold = nil
        return current.event
      }
      guard let event else { return }
      event.settle(held: true)
      // Held until the test pauses or cancels the transfer, which ends this sleep at once.
      try await clock.sleep(for: .seconds(1))
    }
  }

  /// Serves what the model's server has.
  func serve(_ model: DownloaderModel) {
    let (validator, date) = model.validatorAndDate
    let isETag = validator?.hasPrefix("\"") == true || validator?.hasPrefix("W/") == true
    scripted.serve(
      Self.url,
      ScriptedTransport.File(
        size: Int64(model.served.size), etag: isETag ? validator : nil, acceptsRanges: model.served.acceptsRanges,
        endsEarlyAt: model.dropsAt.map(Int64.init), lastModified: isETag ? nil : validator, date: date))
  }

  /// The hidden partial files in the folder and their sizes.
  var partialFiles: [Int64] {
    sizes(in: folder).filter { $0.key.hasPrefix(".") }.map(\.value).sorted()
  }

  /// The destination as the model sees it: absent, or its length when its bytes are the file's.
  var destinationFile: String {
    guard let data = FileManager.default.contents(atPath: destination.path) else { return "absent" }
    if data == ScriptedTransport.content(size: Int64(data.count)) { return "\(data.count) bytes of the file" }
    return "\(data.count) bytes, not the file's"
  }
}

/// The scripted server, with a `Content-Length` (or `Content-Range` length) that understates what
/// is sent when the world says so.
struct UnderstatingTransport: Transport {
  let world: DownloaderWorld

  func start(_ request: TransferRequest) async throws -> (TransferResponse, TransferBody) {
    var (response, body) = try await world.scripted.start(request)
    let by = world.understatedBy.withLock { $0 }
    if by > 0, response.statusCode == 200 || response.statusCode == 206 {
      response.totalLength = response.totalLength.map { $0 - Int64(by) }
    }
    return (response, body)
  }
}

@Suite("Exercise 6 — Pause and resume (against a model)", .timeLimit(.minutes(1)))
struct Exercise6_DownloaderModelTests {
  static func outcome(of error: any Error) -> String {
    switch error {
    case is CancellationError: "cancelled"
    case let error as POSIXError where error.code == .ENOSPC: "failed: the disk is full"
    default: "failed: \(error)"
    }
  }

  static func describe(_ request: TransferRequest?) -> String {
    guard let request else { return "none" }
    return request.rangeStart.map { "Range: bytes=\($0)-, If-Range: \(request.ifRange ?? "")" } ?? "no Range"
  }

  static func stop(using random: inout SeededRandom) -> TransferStop {
    switch Int.random(in: 0..<20, using: &random) {
    case 0..<7: .runs
    case 7..<16: .pause(beforeChunk: Int.random(in: 0...4, using: &random))
    default: .cancel(beforeChunk: Int.random(in: 0...3, using: &random))
    }
  }

  /// Arms the hold for the next transfer where `stop` says, and returns the event that tells
  /// whether it was held.
  static func arm(_ stop: TransferStop, in world: DownloaderWorld) -> HeldOrEnded? {
    switch stop {
    case .runs: return nil
    case .pause(let chunk), .cancel(let chunk):
      let event = HeldOrEnded()
      world.holdBefore.withLock { $0 = (chunk, event) }
      return event
    }
  }

  /// Runs one transfer on the world, stopping it where `stop` says, and says how it ended.
  static func run(
    _ handle: DownloadHandle, stop: TransferStop, event: HeldOrEnded?, in world: DownloaderWorld
  ) async -> (outcome: String, progress: [Int64]?) {
    var held = false
    if let event {
      Task {
        _ = try? await handle.result()
        event.settle(held: false)
      }
      held = await event.wait()
    }
    world.holdBefore.withLock { $0 = nil }
    var outcome: String
    switch stop {
    case .pause where held:
      do {
        let data = try await handle.pause()
        world.paused = data
        outcome = "paused with \(data.bytesOnDisk) bytes on disk"
      } catch {
        outcome = Self.outcome(of: error)
      }
    case .cancel where held:
      handle.cancel()
      fallthrough
    default:
      do {
        _ = try await handle.result()
        outcome = "completed"
      } catch {
        outcome = Self.outcome(of: error)
      }
    }
    let events = await collect(handle)
    if case .cancel = stop, held { return (outcome, nil) }
    return (outcome, progressCounts(events.events))
  }

  @Test(
    "starts, pauses, resumes and cancels through new versions, weak and strong validators, dropped connections, wrong lengths, 416s and a full disk agree with a model of the file as bytes and a length"
  )
  func downloadsAgreeWithAModel() async {
    let check = ModelCheck<DownloaderStep, DownloaderModel, DownloaderWorld>(
      "Downloader (4-byte chunks) against a model of its files", seeds: 1...60, steps: 16,
      replay: "make chapter-5 EXERCISE=6",
      generate: { random in
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<20:
          return .serverPublishes(
            version: Int.random(in: 1...3, using: &random), size: random.pick([0, 1, 3, 4, 5, 8, 9, 13, 16]),
            validator: random.pick(ServedValidator.allCases), acceptsRanges: random.chance(80))
        case 20..<26: return .serverResizesKeepingTheValidator(size: random.pick([3, 4, 5, 8, 12]))
        case 26..<32: return .connectionDrops(atByte: random.chance(60) ? random.pick([0, 3, 4, 6, 9]) : nil)
        case 32..<36: return .serverUnderstatesTheLength(by: random.chance(50) ? random.pick([1, 4]) : 0)
        case 36..<42: return .diskRoom(random.chance(60) ? random.pick([0, 3, 4, 6, 9]) : nil)
        case 42..<64: return .start(Self.stop(using: &random))
        default: return .resume(Self.stop(using: &random))
        }
      },
      model: { DownloaderModel() },
      system: {
        let world = try DownloaderWorld()
        world.serve(DownloaderModel())
        return world
      },
      step: { step, model, world, check in
        var expected: DownloaderModel.Transfer?
        var actual: (outcome: String, progress: [Int64]?)?
        let requestsBefore = world.scripted.requests.count
        switch step {
        case .serverPublishes(let version, let size, let validator, let acceptsRanges):
          model.served = .init(version: version, size: size, validator: validator, acceptsRanges: acceptsRanges)
          world.serve(model)
        case .serverResizesKeepingTheValidator(let size):
          model.served.size = size
          world.serve(model)
        case .connectionDrops(let byte):
          model.dropsAt = byte
          world.serve(model)
        case .serverUnderstatesTheLength(let by):
          model.understatedBy = by
          world.understatedBy.withLock { $0 = by }
        case .diskRoom(let room):
          model.room = room
          world.disk.freeBytes = room
        case .start(let stop):
          if let paused = world.paused {
            paused.partial.discard()
            world.paused = nil
          }
          model.paused = nil
          expected = model.transfer(resume: nil, stop: stop)
          if case .cancel(let chunk) = stop {
            // A caller whose task is cancelled: `download(_:to:)` cancels the transfer.
            let event = Self.arm(.cancel(beforeChunk: chunk), in: world)
            let downloader = world.downloader
            let destination = world.destination
            let caller = Task { try await downloader.download(DownloaderWorld.url, to: destination) }
            Task {
              _ = try? await caller.value
              event?.settle(held: false)
            }
            if await event?.wait() == true { caller.cancel() }
            world.holdBefore.withLock { $0 = nil }
            do {
              _ = try await caller.value
              actual = ("completed", nil)
            } catch {
              actual = (Self.outcome(of: error), nil)
            }
          } else {
            let event = Self.arm(stop, in: world)
            actual = await Self.run(
              world.downloader.start(DownloaderWorld.url, to: world.destination), stop: stop, event: event, in: world)
          }
        case .resume(let stop):
          guard let data = world.paused, let modelPaused = model.paused else {
            check.same("whether a paused download is kept", model: model.paused != nil, component: world.paused != nil)
            break
          }
          world.paused = nil
          expected = model.transfer(resume: modelPaused, stop: stop)
          let event = Self.arm(stop, in: world)
          actual = await Self.run(world.downloader.resume(data), stop: stop, event: event, in: world)
        }
        if let expected, let actual {
          check.same("how \(step) ended", model: expected.outcome, component: actual.outcome)
          if let progress = expected.progress, let got = actual.progress {
            check.same("the progress byte counts of \(step)", model: progress, component: got)
          }
          let requests = world.scripted.requests
          check.same(
            "the request \(step) sent", model: expected.request,
            component: requests.count > requestsBefore ? Self.describe(requests.last) : "none")
        }
        check.same(
          "the destination", model: model.destination.map { "\($0) bytes of the file" } ?? "absent",
          component: world.destinationFile)
        check.same(
          "the partial files on disk (their sizes)", model: model.paused.map { [Int64($0.bytes)] } ?? [],
          component: world.partialFiles)
        check.same("the resume data's bytesOnDisk", model: model.paused.map { Int64($0.bytes) }, component: world.paused?.bytesOnDisk)
      },
      tearDown: { world in
        world.holdBefore.withLock { $0 = nil }
        await world.clock.advance(by: .seconds(1))
        world.folder.remove()
      })
    if let failure = await check.run() { Issue.record("\(failure)") }
  }
}
