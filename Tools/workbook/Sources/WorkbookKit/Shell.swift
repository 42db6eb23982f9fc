import Foundation

/// The result of a finished command.
struct CommandResult {
  let status: Int32
  let output: String
  let timedOut: Bool
  var succeeded: Bool { status == 0 && !timedOut }
}

/// Runs a command, collecting standard output and error together.
///
/// `timeout` stops a command that hangs (a learner's deadlock must not hang the grader): the
/// command and its children are terminated and `timedOut` is set. With `echo`, output is also
/// copied to the terminal as it arrives.
func runCommand(
  _ arguments: [String], environment extra: [String: String] = [:], timeout: TimeInterval? = nil,
  echo: Bool = false, in directory: String? = nil
) throws -> CommandResult {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = arguments
  var environment = ProcessInfo.processInfo.environment
  for (key, value) in extra { environment[key] = value }
  process.environment = environment
  if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  process.standardInput = FileHandle.nullDevice

  let collected = Collected()
  pipe.fileHandleForReading.readabilityHandler = { handle in
    let data = handle.availableData
    guard !data.isEmpty else { return }
    collected.append(data)
    if echo { FileHandle.standardOutput.write(data) }
  }
  try process.run()

  var timedOut = false
  if let timeout {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning {
      if Date() > deadline {
        timedOut = true
        terminateTree(process.processIdentifier)
        break
      }
      usleep(50_000)
    }
  }
  process.waitUntilExit()
  pipe.fileHandleForReading.readabilityHandler = nil
  collected.append(pipe.fileHandleForReading.readDataToEndOfFile())
  return CommandResult(status: process.terminationStatus, output: collected.text, timedOut: timedOut)
}

/// Runs a command on the tool's own terminal (its output is not collected, so a command such as
/// `diff --color=auto` sees the terminal) and returns its exit status.
func runAttached(_ arguments: [String]) throws -> Int32 {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = arguments
  fflush(nil)  // what the tool printed so far comes first
  try process.run()
  process.waitUntilExit()
  return process.terminationStatus
}

/// Terminates a process and, first, its descendants (`swift test` runs the tests in a child).
private func terminateTree(_ pid: Int32) {
  if let children = try? runCommand(["pgrep", "-P", String(pid)]) {
    for line in children.output.split(separator: "\n") {
      if let child = Int32(line.trimmingCharacters(in: .whitespaces)) { terminateTree(child) }
    }
  }
  kill(pid, SIGKILL)
}

private final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()

  func append(_ more: Data) {
    lock.lock()
    data.append(more)
    lock.unlock()
  }

  var text: String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: data, as: UTF8.self)
  }
}
