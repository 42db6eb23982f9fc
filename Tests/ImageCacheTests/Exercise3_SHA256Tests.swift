import Foundation
import Testing
import WorkbookTesting

@testable import ImageCache

@Suite("Exercise 3 — SHA-256 for file names", .timeLimit(.minutes(1)))
struct Exercise3_SHA256Tests {
  @Test(
    "the FIPS 180-4 / NIST example vectors",
    arguments: [
      ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
      ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
      (
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
      ),
      (
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
      ),
    ])
  func standardVectors(message: String, digest: String) {
    let actual = SHA256.hexDigest(Array(message.utf8))
    let shown = message.count > 20 ? message.prefix(20) + "…" : message
    #expect(actual == digest, "SHA-256 of \"\(shown)\" (\(message.utf8.count) bytes) must be the published digest; got \(actual)")
  }

  @Test("one million \"a\": many blocks in a row")
  func millionAs() {
    let actual = SHA256.hexDigest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
    #expect(
      actual == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
      "the published digest of one million \"a\" characters; got \(actual): the state must carry over from block to block")
  }

  @Test(
    "lengths around the padding boundary (55, 56, 63, 64, 119 bytes)",
    arguments: [
      (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
      (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
      (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
      (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
      (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
    ])
  func paddingBoundaries(length: Int, digest: String) {
    let actual = SHA256.hexDigest([UInt8](repeating: UInt8(ascii: "a"), count: length))
    #expect(
      actual == digest,
      "\(length) bytes: after the 0x80 byte, the 8-byte length must still fit in the block, or a new block is needed; got \(actual)")
  }

  @Test func everyByteValue() {
    let bytes = (0..<4).flatMap { _ in (0...255).map { UInt8($0) } }
    #expect(
      SHA256.hexDigest(bytes) == "785b0751fc2c53dc14a4ce3d800e69ef9ce1009eb327ccf458afe09c242c26c9",
      "bytes 0…255 four times: high bytes must not be sign-extended")
    #expect(SHA256.hash(bytes).count == 32, "a SHA-256 digest is 32 bytes")
  }

  @Test("file names are 64 hex characters: no key can escape the cache directory")
  func fileNamesAreSafe() {
    let keys = ["../../etc/passwd", "/absolute/path", "https://cdn.example.com/a.png?w=100", "", String(repeating: "x", count: 5_000), "émoji 🖼️"]
    var names = Set<String>()
    for key in keys {
      let name = SHA256.fileName(forKey: key)
      #expect(
        name.count == 64 && name.allSatisfy { "0123456789abcdef".contains($0) },
        "\"\(key.prefix(20))\" gave \"\(name)\": a name must be 64 characters of [0-9a-f]")
      names.insert(name)
    }
    #expect(names.count == keys.count, "different keys must give different names")
  }
}
