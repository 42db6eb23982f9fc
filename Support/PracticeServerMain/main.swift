// `make server`: the practice API on 127.0.0.1, to try with curl while working on chapter 3.
//
//   practice-server [--port N] [--quiet] [--help]
import Foundation
import PracticeServer

/// Prints at once, even into a pipe.
func say(_ text: String) {
  FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

var port: UInt16 = 0
var logRequests = true
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--port":
    guard let value = arguments.popFirst(), let number = UInt16(value) else {
      say("--port needs a number from 0 to 65535")
      exit(2)
    }
    port = number
  case "--quiet":
    logRequests = false
  case "--help", "-h":
    say("practice-server [--port N] [--quiet]\n\nRoutes:\n\(PracticeServer.routes)")
    exit(0)
  default:
    say("unknown argument \(argument); try --help")
    exit(2)
  }
}

let server = PracticeServer(configuration: .init(port: port, logRequests: logRequests))
do {
  let url = try server.start()
  say("Practice server on \(url)  (Ctrl-C stops it)")
  say("Try: curl -s \(url)/health")
  say("     curl -s -X POST \(url)/v1/auth/login -d '{\"email\":\"ada@example.com\",\"password\":\"correct-horse\"}'")
  say("     curl -s '\(url)/v1/feed?limit=2'")
} catch {
  say("practice-server: \(error)")
  exit(1)
}

signal(SIGINT, SIG_IGN)
signal(SIGTERM, SIG_IGN)
let stopSources = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
  let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
  source.setEventHandler {
    server.stop()
    say("\nstopped")
    exit(0)
  }
  source.resume()
  return source
}
dispatchMain()
