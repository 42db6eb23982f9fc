// token-refresher: one process of an app and its extension, for chapter 3's tests.
//
//   token-refresher <shared folder> <API URL>
//
// Reads the token the processes share from the folder (`SharedTokenFile`), makes a `TokenStore`
// with it and with `SharedTokenFile.refreshing` around a refresh against the practice server,
// prints `ready`, and waits for a line on standard input. Then it refreshes, as after a 401 for
// the token it read, and prints `token <access token> <refresh token>` (exit 0) or
// `failed <what went wrong>` (exit 1). Standard input closed before the line: exit 2, so a test
// that dies never leaves it running.
import Foundation
import Networking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Prints `line` at once: the test reads standard output line by line while this process waits.
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// `POST <api>/auth/refresh {"refresh_token"}`: the grant, `.unauthorized` for a 401, and
/// `.http` with the body for any other status, so the store can read `invalid_grant`.
func serverRefresh(api: URL) -> TokenStore.Refresh {
  let url = api.appendingPathComponent("auth/refresh")
  return { refreshToken in
    var request = URLRequest(url: url, timeoutInterval: 30)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = try JSONEncoder().encode(["refresh_token": refreshToken])
    let (data, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard status == 200 else { throw status == 401 ? NetworkError.unauthorized : NetworkError.http(status: status, body: data) }
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return try decoder.decode(TokenGrant.self, from: data)
  }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let api = URL(string: arguments[2]) else {
  say("failed usage: token-refresher <shared folder> <API URL>")
  exit(64)
}
let shared = SharedTokenFile(directory: URL(fileURLWithPath: arguments[1], isDirectory: true))
do {
  guard let token = try shared.read() else {
    say("failed no shared token in \(arguments[1])")
    exit(1)
  }
  let store = TokenStore(token: token, refresh: shared.refreshing(serverRefresh(api: api)))
  say("ready")
  guard readLine() != nil else { exit(2) }
  _ = try await store.refreshedAccessToken(after: token.accessToken)
  guard let now = await store.current else {
    say("failed signed out")
    exit(1)
  }
  say("token \(now.accessToken) \(now.refreshToken)")
  exit(0)
} catch {
  say("failed \(error)")
  exit(1)
}
