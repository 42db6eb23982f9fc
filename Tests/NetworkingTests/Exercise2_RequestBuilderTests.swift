import Foundation
import Testing
import WorkbookTesting

@testable import Networking

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Exercise 2 — Building requests", .timeLimit(.minutes(1)))
struct Exercise2_RequestBuilderTests {
  let builder = RequestBuilder(baseURL: URL(string: "https://api.example.com/v1")!)

  struct Draft: Codable, Equatable, Sendable {
    var postTitle: String
    var publishAt: Date
  }

  struct Upload: TargetType {
    var method: HTTPMethod { .post }
    var path: String { "/posts" }
    var body: RequestBody?
    var headers: [String: String] = [:]
    var idempotencyKey: String?
    var timeout: TimeInterval?
  }

  @Test func theBasePathIsKept() throws {
    let url = try builder.url(for: Get<Health>(path: "/posts/42"))
    #expect(url.absoluteString == "https://api.example.com/v1/posts/42", "the /v1 of the base URL must stay in every URL, got \(url)")
    let slash = RequestBuilder(baseURL: URL(string: "https://api.example.com/v1/")!)
    let other = try slash.url(for: Get<Health>(path: "posts"))
    #expect(other.absoluteString == "https://api.example.com/v1/posts", "slashes between base and path should come out as exactly one, got \(other)")
  }

  @Test func queryItemsArePercentEncodedAndSorted() throws {
    let target = Get<Health>(path: "/search", query: ["q": "swift & ios+1 = fun", "limit": "20", "after": "a/b?c"])
    let url = try builder.url(for: target)
    #expect(
      url.absoluteString == "https://api.example.com/v1/search?after=a%2Fb%3Fc&limit=20&q=swift%20%26%20ios%2B1%20%3D%20fun",
      "query items should be sorted by name and every reserved character (& + = / ? and space) percent-encoded, got \(url)")
    let again = try builder.url(for: target)
    #expect(url == again, "the same target must always give the same URL")
  }

  @Test func aBadBaseURLOrPathIsATypedError() {
    let noHost = RequestBuilder(baseURL: URL(string: "api.example.com")!)
    #expect(throws: NetworkError.self, "a base URL without scheme and host cannot make requests") {
      try noHost.url(for: Get<Health>(path: "/x"))
    }
    #expect(throws: NetworkError.self, "a query in the path bypasses the encoding: it should be rejected") {
      try builder.url(for: Get<Health>(path: "/x?token=1"))
    }
  }

  @Test func headersDefaultsAndTimeout() throws {
    let builder = RequestBuilder(
      baseURL: URL(string: "https://api.example.com/v1")!, defaultHeaders: ["Accept": "application/json", "X-App-Version": "1.0"])
    let request = try builder.makeRequest(for: Get<Health>(path: "/feed", headers: ["X-App-Version": "2.0", "X-Trace": "t1"]))
    #expect(request.httpMethod == "GET", "the method should be set")
    #expect(request.value(forHTTPHeaderField: "Accept") == "application/json", "default headers go on every request")
    #expect(request.value(forHTTPHeaderField: "X-App-Version") == "2.0", "a request's own header wins over the default")
    #expect(request.value(forHTTPHeaderField: "X-Trace") == "t1", "the request's own headers are added")
    #expect(request.timeoutInterval == 30, "the default timeout is 30 s, got \(request.timeoutInterval)")
    let quick = try builder.makeRequest(for: Get<Health>(path: "/feed", timeout: 5))
    #expect(quick.timeoutInterval == 5, "a request's own timeout wins")
  }

  @Test func jsonBodiesUseSnakeCaseAndISO8601() throws {
    let draft = Draft(postTitle: "Hi", publishAt: Date(timeIntervalSince1970: 1_714_564_800))
    let request = try builder.makeRequest(for: Upload(body: .json(draft), idempotencyKey: "k-1"))
    let body = String(decoding: request.httpBody ?? Data(), as: UTF8.self)
    #expect(
      body == #"{"post_title":"Hi","publish_at":"2024-05-01T12:00:00Z"}"#,
      "JSON bodies use snake_case keys, ISO-8601 dates and sorted keys (so one value always gives the same bytes), got \(body)")
    let decoded = try? JSONCoding.decoder().decode(Draft.self, from: Data(body.utf8))
    #expect(decoded == draft, "the decoder should read the same conventions back (snake_case keys, ISO-8601 dates), got \(String(describing: decoded))")
    #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json", "a JSON body needs its Content-Type")
    #expect(request.value(forHTTPHeaderField: "Idempotency-Key") == "k-1", "the idempotency key travels as the Idempotency-Key header")
  }

  @Test func multipartBodiesAreExactToTheByte() throws {
    var form = MultipartFormData(boundary: "XyZ")
    form.append("Ada", name: "name")
    form.append(Data([0x89, 0x50, 0x0D, 0x0A]), name: "avatar", filename: "me.png", contentType: "image/png")
    var expected = Data()
    expected.append(Data("--XyZ\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nAda\r\n".utf8))
    expected.append(Data("--XyZ\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"me.png\"\r\n".utf8))
    expected.append(Data("Content-Type: image/png\r\n\r\n".utf8))
    expected.append(Data([0x89, 0x50, 0x0D, 0x0A]))
    expected.append(Data("\r\n--XyZ--\r\n".utf8))
    let body = form.encoded()
    #expect(
      body == expected,
      "the multipart body should be, byte for byte (CRLF line ends, closing --boundary--):\n\(String(decoding: expected, as: UTF8.self))\ngot:\n\(String(decoding: body, as: UTF8.self))"
    )
    let request = try builder.makeRequest(for: Upload(body: .multipart(form)))
    #expect(request.value(forHTTPHeaderField: "Content-Type") == "multipart/form-data; boundary=XyZ", "the Content-Type carries the boundary")
    #expect(request.httpBody == expected, "the request body is the encoded form")
  }

  @Test("a quote, CR or LF in a field name or filename cannot end the quotes or inject a header")
  func multipartNamesAreEscaped() {
    var form = MultipartFormData(boundary: "XyZ")
    form.append("1", name: "a\"b")
    form.append(Data([1]), name: "file", filename: "x.png\"\r\nX-Injected: 1\r\n\r\nöl", contentType: "image/png")
    let text = String(decoding: form.encoded(), as: UTF8.self)
    // CR and LF shown as \r and \n, so the message shows where the lines break.
    let shown = text.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
    #expect(
      text.contains("name=\"a%22b\"\r\n"),
      "a quote inside a field name should be sent as %22, as browsers do, so the name stays one quoted string; got: \(shown)")
    #expect(
      text.contains("filename=\"x.png%22%0D%0AX-Injected: 1%0D%0A%0D%0Aöl\"\r\n"),
      "a quote, CR and LF inside a filename should be sent as %22, %0D and %0A, and non-ASCII as plain UTF-8 (RFC 7578 §4.2); got: \(shown)"
    )
    #expect(!text.contains("\r\nX-Injected"), "a filename must never start a header line of its own: escape CR and LF in it")
  }

  @Test func theBuiltRequestReachesARealURLSession() async throws {
    let seen = Recorder<URLRequest>()
    let session = StubURLProtocol.session { request in
      seen.append(request)
      return (StubURLProtocol.response(for: request), Data(#"{"status":"ok"}"#.utf8))
    }
    defer { session.finishTasksAndInvalidate() }
    let request = try builder.makeRequest(for: Get<Health>(path: "/health", query: ["v": "a b"]))
    _ = try await session.data(for: request)
    #expect(seen.values.first?.url?.absoluteString == "https://api.example.com/v1/health?v=a%20b", "URLSession should receive the URL as built")
  }

  @Test("query names are sorted as given, before encoding, with Swift's String order")
  func queryNamesAreSortedBeforeEncoding() throws {
    let url = try builder.url(for: Get<Health>(path: "/s", query: ["é": "1", "z": "2", "B": "3", "a": "4"]))
    #expect(
      url.absoluteString == "https://api.example.com/v1/s?B=3&a=4&z=2&%C3%A9=1",
      "names sort as the target gives them, with Swift's < (B, a, z, é), and only then are encoded: sorting the encoded text would put %C3%A9 first; got \(url)"
    )
  }

  @Test("the target's own headers win over the Content-Type and Idempotency-Key the builder sets")
  func theTargetsHeadersWin() throws {
    let draft = Draft(postTitle: "Hi", publishAt: Date(timeIntervalSince1970: 0))
    let target = Upload(
      body: .json(draft), headers: ["Content-Type": "application/merge-patch+json", "Idempotency-Key": "mine"], idempotencyKey: "k-1")
    let request = try builder.makeRequest(for: target)
    #expect(
      request.value(forHTTPHeaderField: "Content-Type") == "application/merge-patch+json",
      "a target that names its Content-Type sends that one, not the body's default; got \(String(describing: request.value(forHTTPHeaderField: "Content-Type")))"
    )
    #expect(
      request.value(forHTTPHeaderField: "Idempotency-Key") == "mine",
      "the target's own headers win over everything the builder sets, the Idempotency-Key too; got \(String(describing: request.value(forHTTPHeaderField: "Idempotency-Key")))"
    )
    let plain = try builder.makeRequest(for: Upload(body: .json(draft)))
    #expect(plain.value(forHTTPHeaderField: "Content-Type") == "application/json", "without a header of its own, a JSON body is application/json")
  }

  @Test("raw bytes go out unchanged, with the content type they came with")
  func rawBodiesKeepTheirBytesAndType() throws {
    let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])
    let request = try builder.makeRequest(for: Upload(body: .data(bytes, contentType: "image/png")))
    #expect(request.httpBody == bytes, "the body should be the bytes as given, got \(String(describing: request.httpBody.map(Array.init)))")
    #expect(
      request.value(forHTTPHeaderField: "Content-Type") == "image/png",
      "a raw body is sent with its own Content-Type, got \(String(describing: request.value(forHTTPHeaderField: "Content-Type")))")
  }

  @Test("the encoder sorts keys, so one value always gives the same bytes")
  func jsonKeysAreSorted() throws {
    let letters = "zyxwvutsrqponmlkjihgfedcba".map(String.init)
    let value = Dictionary(uniqueKeysWithValues: letters.enumerated().map { ($1, $0) })
    let text = String(decoding: try JSONCoding.encoder().encode(value), as: UTF8.self)
    let sorted = "{" + letters.sorted().map { "\"\($0)\":\(value[$0]!)" }.joined(separator: ",") + "}"
    #expect(text == sorted, "26 keys should come out in sorted order, whatever order they are held in; got \(text)")
  }

  @Test("a fragment in the path is refused like a query")
  func aFragmentInThePathIsRefused() {
    do {
      let url = try builder.url(for: Get<Health>(path: "/posts#comments"))
      Issue.record("a `#` in the path should be .badURL, like a `?`; got \(url)")
    } catch {
      guard case .badURL = error else {
        Issue.record("a `#` in the path should be .badURL, got \(error)")
        return
      }
    }
  }

  @Test("a body that cannot be encoded is .encoding, never a request without its body")
  func aBodyThatCannotBeEncodedIsAnEncodingError() {
    struct Score: Encodable, Sendable { var value = Double.nan }
    do {
      let request = try builder.makeRequest(for: Upload(body: .json(Score())))
      Issue.record(
        "NaN has no JSON form, so the body cannot be encoded: makeRequest should throw .encoding, but returned a request whose body has \(request.httpBody?.count ?? 0) bytes"
      )
    } catch {
      guard case .encoding = error else {
        Issue.record("a body that cannot be encoded should be .encoding, got \(error)")
        return
      }
    }
  }
}
