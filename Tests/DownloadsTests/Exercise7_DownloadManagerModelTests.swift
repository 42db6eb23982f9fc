import Foundation
import Testing
import Workbook
import WorkbookTesting

@testable import Downloads

/// One thing a caller or the network does to a download manager of two URLs.
enum ManagerStep: CustomStringConvertible {
  /// A caller asks for file `file` (0 or 1).
  case callerAsks(file: Int)
  /// A caller whose task is already cancelled asks for file `file`.
  case cancelledCallerAsks(file: Int)
  /// The task of one waiting caller is cancelled (the pick modulo how many wait).
  case callerCancelled(pick: Int)
  /// The running transfer of `file` gets its bytes and completes, or its connection is lost.
  case transferEnds(file: Int, completes: Bool)
  /// The oldest transfer of `file` that every caller left, still running (its transport had not
  /// noticed the cancel), ends now.
  case abandonedTransferEnds(file: Int)

  var description: String {
    switch self {
    case .callerAsks(let file): "a caller asks download(file \(file))"
    case .cancelledCallerAsks(let file): "a caller whose task is already cancelled asks download(file \(file))"
    case .callerCancelled(let pick): "the task of waiting caller number \(pick) (modulo how many wait) is cancelled"
    case .transferEnds(let file, true): "the running transfer of file \(file) completes"
    case .transferEnds(let file, false): "the running transfer of file \(file) loses its connection"
    case .abandonedTransferEnds(let file): "the oldest abandoned transfer of file \(file), still running, ends"
    }
  }
}

/// The manager as its doc comment describes it: per URL at most one transfer callers wait for,
/// with its callers; transfers every caller left, which still run until their transport stops.
struct ManagerModel {
  var waiting: [Int: [Int]] = [:]
  /// Transfers every caller left that have not ended yet, per file.
  var abandoned: [Int: Int] = [:]
  var starts: [Int: Int] = [:]
  var callers = 0
  var results: [Int: String] = [:]

  mutating func ask(_ file: Int) -> Int {
    callers += 1
    if waiting[file] == nil {
      waiting[file] = []
      starts[file, default: 0] += 1
    }
    waiting[file]?.append(callers)
    return callers
  }

  mutating func cancel(_ caller: Int) {
    guard let file = waiting.first(where: { $0.value.contains(caller) })?.key else { return }
    waiting[file]?.removeAll { $0 == caller }
    results[caller] = "cancelled"
    if waiting[file]?.isEmpty == true {
      waiting[file] = nil
      abandoned[file, default: 0] += 1
    }
  }

  mutating func end(_ file: Int, completes: Bool) {
    guard let callers = waiting.removeValue(forKey: file) else { return }
    for caller in callers { results[caller] = completes ? "the file" : "failed" }
  }
}

/// Holds every transfer before its first chunk until the test ends it. A held transfer does not
/// notice a cancel (as a transport that keeps delivering after its reader was cancelled), so a
/// transfer every caller left keeps running until the test ends it too.
final class TransferDesk: Sendable {
  private let held = Locked<[URL: [CheckedContinuation<Void, any Error>]]>([:])

  var hook: ScriptedTransport.ChunkHook {
    { [held] url, _, index in
      guard index == 0 else { return }
      try await withCheckedThrowingContinuation { continuation in
        held.withLock { $0[url, default: []].append(continuation) }
      }
    }
  }

  func heldCount(of url: URL) -> Int { held.withLock { $0[url]?.count ?? 0 } }

  /// Lets the newest held transfer of `url` go on, or fails it; false when none is held.
  @discardableResult
  func endNewest(of url: URL, completes: Bool) -> Bool {
    guard let continuation = held.withLock({ $0[url]?.popLast() }) else { return false }
    if completes { continuation.resume() } else { continuation.resume(throwing: URLError(.networkConnectionLost)) }
    return true
  }

  /// Lets the oldest held transfer of `url` go on.
  @discardableResult
  func endOldest(of url: URL) -> Bool {
    let continuation = held.withLock { held -> CheckedContinuation<Void, any Error>? in
      guard held[url]?.isEmpty == false else { return nil }
      return held[url]?.removeFirst()
    }
    continuation?.resume()
    return continuation != nil
  }

  func releaseAll() {
    let all = held.withLock { held -> [CheckedContinuation<Void, any Error>] in
      defer { held = [:] }
      return held.values.flatMap { $0 }
    }
    for continuation in all { continuation.resume(throwing: CancellationError()) }
  }
}

/// The manager under test, its transport, the held transfers and its callers.
final class ManagerWorld: Sendable {
  static let files = [fileURL("first.bin", size: 8), fileURL("second.bin", size: 8)]
  let folder: TemporaryDirectory
  let desk = TransferDesk()
  let transport: ScriptedTransport
  let manager: DownloadManager
  let callers = Locked<[Int: Task<Void, Never>]>([:])
  let results = Locked<[Int: String]>([:])

  init() throws {
    Quiescence.install()
    folder = try TemporaryDirectory("manager-model", inMemory: true)
    transport = ScriptedTransport(chunkSize: 4, onChunk: desk.hook)
    for url in Self.files { transport.serve(url, .init(size: 8, etag: "\"v\"")) }
    manager = DownloadManager(downloader: Downloader(transport: transport), directory: folder.url)
  }

  /// Starts caller `id` of `file`; with `cancelledFirst`, its task is cancelled before it calls.
  func start(_ id: Int, file: Int, cancelledFirst: Bool = false) {
    let (manager, results, url) = (manager, results, Self.files[file])
    let task = Task {
      if cancelledFirst { withUnsafeCurrentTask { $0?.cancel() } }
      let result: String
      do {
        let got = try await manager.download(url)
        let data = FileManager.default.contents(atPath: got.path)
        result = data == ScriptedTransport.content(size: 8) ? "the file" : "a file that is not the whole file"
      } catch is CancellationError {
        result = "cancelled"
      } catch let error as URLError where error.code == .networkConnectionLost {
        result = "failed"
      } catch {
        result = "\(error)"  // anything else, such as "not implemented yet", shown as it is
      }
      results.withLock { $0[id] = result }
    }
    callers.withLock { $0[id] = task }
  }
}

@Suite("Exercise 7 — One transfer per URL (against a model)", .timeLimit(.minutes(1)))
struct Exercise7_DownloadManagerModelTests {
  @Test(
    "callers joining and leaving two URLs, callers cancelled before they call, transfers that complete, fail, or end late after every caller left agree with a model"
  )
  func joinersAgreeWithAModel() async {
    let check = ModelCheck<ManagerStep, ManagerModel, ManagerWorld>(
      "DownloadManager (two URLs) against its model", seeds: 1...30, steps: 20, replay: "make chapter-5 EXERCISE=7",
      generate: { random in
        let file = Int.random(in: 0...1, using: &random)
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<38: return .callerAsks(file: file)
        case 38..<44: return .cancelledCallerAsks(file: file)
        case 44..<66: return .callerCancelled(pick: Int.random(in: 0..<8, using: &random))
        case 66..<86: return .transferEnds(file: file, completes: random.chance(70))
        default: return .abandonedTransferEnds(file: file)
        }
      },
      model: { ManagerModel() }, system: { try ManagerWorld() },
      step: { step, model, world, check in
        switch step {
        case .callerAsks(let file):
          world.start(model.ask(file), file: file)
        case .cancelledCallerAsks(let file):
          model.callers += 1
          model.results[model.callers] = "cancelled"
          world.start(model.callers, file: file, cancelledFirst: true)
        case .callerCancelled(let pick):
          let waiting = model.waiting.keys.sorted().flatMap { model.waiting[$0] ?? [] }
          guard !waiting.isEmpty else { break }
          let caller = waiting[pick % waiting.count]
          model.cancel(caller)
          world.callers.withLock { $0[caller] }?.cancel()
        case .transferEnds(let file, let completes):
          guard model.waiting[file] != nil else { break }
          model.end(file, completes: completes)
          world.desk.endNewest(of: ManagerWorld.files[file], completes: completes)
        case .abandonedTransferEnds(let file):
          guard (model.abandoned[file] ?? 0) > 0 else { break }
          model.abandoned[file, default: 0] -= 1
          world.desk.endOldest(of: ManagerWorld.files[file])
        }
        await Quiescence.settle()
        let results = world.results.withLock { $0 }
        for caller in 1..<(model.callers + 1) {
          check.same(
            "what caller \(caller) got", model: model.results[caller] ?? "nothing yet (it waits)",
            component: results[caller] ?? "nothing yet (it waits)")
        }
        check.same("activeTransfers", model: model.waiting.count, component: await world.manager.activeTransfers)
        for (file, url) in ManagerWorld.files.enumerated() {
          check.same(
            "joiners(of: file \(file))", model: model.waiting[file]?.count ?? 0, component: await world.manager.joiners(of: url))
          check.same("transfers of file \(file) started", model: model.starts[file] ?? 0, component: world.transport.starts(of: url))
          check.same(
            "transfers of file \(file) still running",
            model: (model.waiting[file] == nil ? 0 : 1) + (model.abandoned[file] ?? 0), component: world.desk.heldCount(of: url))
        }
      },
      tearDown: { world in
        world.desk.releaseAll()
        await Quiescence.settle()
        world.folder.remove()
      })
    if let failure = await check.run() { Issue.record("\(failure)") }
  }
}
