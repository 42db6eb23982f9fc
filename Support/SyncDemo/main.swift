// `make demo-sync`: two devices, a phone and a tablet, syncing notes through the practice server
// on 127.0.0.1, on one fixed script: edits on both, time offline, a conflict on one note, a
// delete that wins over an edit, a server that forgets every change token, and a crash in the
// middle of a sync followed by a relaunch. After each step it prints what each device shows and
// what the server holds. `make demo-sync` runs the script with your chapter 7, then with the
// reference answer, and compares the two transcripts line by line.
//
//   sync-demo                    the script, one block per step
//   sync-demo --transcript FILE  the same, and the transcript written to FILE
//   sync-demo --compare FILE     the same, then the first line where FILE's transcript differs
import Foundation
import PracticeServer
import Sync
import Synchronization
import Workbook

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  return arguments[index + 1]
}

/// The network of one device: the real loopback, unless the device is offline.
final class DeviceNetwork: SyncTransport {
  private let online = Mutex(true)
  private let real = URLSessionSyncTransport()

  var isOnline: Bool {
    get { online.withLock { $0 } }
    set { online.withLock { $0 = newValue } }
  }

  func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    guard isOnline else { throw URLError(.notConnectedToInternet) }
    return try await real.send(request)
  }
}

/// A disk that can crash after a number of writes, as a killed app would.
final class CrashableDisk: FileSystem {
  private let writesLeft = Mutex<Int?>(nil)
  private let real = RealFileSystem()
  struct Crashed: Error {}

  func crash(afterWrites count: Int) { writesLeft.withLock { $0 = count } }
  func contents(of url: URL) throws -> Data { try real.contents(of: url) }
  func itemExists(at url: URL) -> Bool { real.itemExists(at: url) }
  func write(_ data: Data, to url: URL, options: Data.WritingOptions) throws {
    try writesLeft.withLock { left in
      guard let count = left else { return }
      if count <= 0 { throw Crashed() }
      left = count - 1
    }
    try real.write(data, to: url, options: options)
  }
  func write(_ data: Data, to handle: FileHandle) throws { try real.write(data, to: handle) }
}

/// One device: an engine on a folder of its own, which a relaunch opens again.
final class Device {
  let name: String
  let folder: URL
  let server: URL
  let network = DeviceNetwork()
  var disk = CrashableDisk()
  var engine: SyncEngine

  init(_ name: String, root: URL, server: URL) throws {
    self.name = name
    folder = root.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    self.server = server
    engine = try SyncEngine(directory: folder, transport: network, baseURL: server, fileSystem: disk)
  }

  func relaunch() throws {
    disk = CrashableDisk()
    engine = try SyncEngine(directory: folder, transport: network, baseURL: server, fileSystem: disk)
  }
}

var transcript: [String] = []
@MainActor func say(_ line: String) {
  transcript.append(line)
  print(line)
}

func describe(_ notes: [String: [String: String]]) -> String {
  guard !notes.isEmpty else { return "(no notes)" }
  return notes.keys.sorted().map { id in
    let fields = notes[id]!.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    return "\(id) {\(fields)}"
  }.joined(separator: "  ")
}

@MainActor func show(_ devices: [Device], _ server: PracticeServer) async {
  for device in devices {
    let shown = await device.engine.notes().mapValues(\.fields)
    let waiting = await device.engine.pending.count
    say("    \(device.name.padding(toLength: 7, withPad: " ", startingAt: 0)) \(describe(shown))\(waiting > 0 ? "   [\(waiting) unsent]" : "")")
  }
  let held = server.sync.notes.filter { !$0.deleted }.reduce(into: [String: [String: String]]()) { $0[$1.id] = $1.fields }
  say("    server  \(describe(held))")
}

@MainActor func step(_ title: String, _ body: () async throws -> Void) async {
  say("\n\(title)")
  do { try await body() } catch { say("    (stopped: \(error))") }
}

let server = try PracticeServer.started()
defer { server.stop() }
let root = FileManager.default.temporaryDirectory.appendingPathComponent("sync-demo-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: root) }
let phone = try Device("phone", root: root, server: server.baseURL)
let tablet = try Device("tablet", root: root, server: server.baseURL)
let both = [phone, tablet]

print("Sync demo: a phone and a tablet, the practice server at \(server.baseURL)")
await step("1. The phone writes a note and syncs; the tablet syncs") {
  try await phone.engine.edit("groceries", set: ["title": "Groceries", "body": "eggs"])
  try await phone.engine.sync()
  try await tablet.engine.sync()
}
await show(both, server)
await step("2. Both edit the note while the phone is offline: the phone its title, the tablet its body") {
  phone.network.isOnline = false
  try await phone.engine.edit("groceries", set: ["title": "Groceries for Sunday"])
  try await tablet.engine.edit("groceries", set: ["body": "eggs, milk"])
  try await tablet.engine.sync()
}
await show(both, server)
await step("3. The phone comes back and syncs: its push meets a newer note (412), is rebased, and lands") {
  phone.network.isOnline = true
  try await phone.engine.sync()
  try await tablet.engine.sync()
}
await show(both, server)
await step("4. The tablet deletes the note; the phone, which has not heard, edits it, then syncs: the delete wins") {
  try await tablet.engine.delete("groceries")
  try await tablet.engine.sync()
  try await phone.engine.edit("groceries", set: ["body": "eggs, milk, bread"])
  try await phone.engine.sync()
}
await show(both, server)
await step("5. The server forgets every change token; the tablet's next pull gets 410 and starts over") {
  try await phone.engine.edit("trip", set: ["title": "Lisbon", "body": "passport"])
  try await phone.engine.sync()
  server.sync.expireTokens()
  try await tablet.engine.sync()
}
await show(both, server)
await step("6. The phone edits, crashes during its sync after one write, and relaunches: nothing is lost") {
  try await phone.engine.edit("trip", set: ["body": "passport, charger"])
  phone.disk.crash(afterWrites: 1)
  do { try await phone.engine.sync() } catch { say("    the phone crashed during its sync") }
  try phone.relaunch()
  try await phone.engine.sync()
  try await tablet.engine.sync()
}
await show(both, server)

let live = server.sync.notes.filter { !$0.deleted }.reduce(into: [String: [String: String]]()) { $0[$1.id] = $1.fields }
// The script ends with one note; a run that ends with none has not synced at all.
var converged = live == ["trip": ["title": "Lisbon", "body": "passport, charger"]]
if !converged { say("\nThe server should end with trip {body: passport, charger, title: Lisbon}; it holds \(describe(live)).") }
for device in both {
  let shown = await device.engine.notes().mapValues(\.fields)
  let waiting = await device.engine.pending.count
  if shown != live || waiting > 0 { converged = false }
}
say(
  "\n"
    + (converged
      ? "Converged: both devices show what the server holds, with nothing left to send." : "Not converged: the devices and the server disagree (above)."))

if let file = option("--transcript") {
  try transcript.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
}
if let file = option("--compare") {
  let other = (try? String(contentsOfFile: file, encoding: .utf8))?.components(separatedBy: "\n") ?? []
  let transcript = transcript.joined(separator: "\n").components(separatedBy: "\n")
  if let index = zip(other, transcript).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
    print("\nYour engine and the reference part at line \(index + 1):\n  yours:     \(other[index])\n  reference: \(transcript[index])")
  } else if other.count != transcript.count {
    print("\nYour transcript has \(other.count) lines, the reference's \(transcript.count).")
  } else {
    print("\nYour engine's transcript is the reference's, line for line.")
  }
}
exit(converged ? 0 : 1)
