// Exercise 3 — SHA-256 for file names (intermediate)
//
// The disk cache names each file after the SHA-256 digest of its key, so a key such as
// "../../Library/Preferences/x" can never name a path outside the cache directory, and every name
// has the same length. CryptoKit does not exist on Linux: implement the hash from FIPS 180-4 in
// plain Swift. Pad the message to a multiple of 64 bytes, then run 64 rounds per block.
import Workbook

/// SHA-256 (FIPS 180-4) in plain Swift, with a 32-byte digest.
public nonisolated enum SHA256 {
  /// The 32-byte digest of `bytes`.
  public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    // TODO: pad, then compress every 64-byte block (placeholder: 32 zero bytes).
    // 1. Append 0x80, zeros up to 56 mod 64, then the length in bits as a big-endian UInt64.
    // 2. For each 64-byte block: expand to 64 words, run 64 rounds, add into the state.
    // 3. The digest is the 8 state words, big-endian.
    [UInt8](repeating: 0, count: 32)
  }

  // Given — the digest as text, once `hash` works.
  /// The digest as 64 lowercase hexadecimal characters.
  public static func hexDigest(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef")
    return String(hash(bytes).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
  }

  /// The cache file name for `key`: its hex digest. Only `[0-9a-f]`, always 64 characters, so no
  /// key can contain a separator, `..`, or a name too long for the file system.
  public static func fileName(forKey key: String) -> String {
    hexDigest(Array(key.utf8))
  }

  // The functions of FIPS 180-4, section 4.1.2, on 32-bit words (rotr: rotate right; >>: shift):
  //   Ch(x, y, z) = (x & y) ^ (~x & z)            Maj(x, y, z) = (x & y) ^ (x & z) ^ (y & z)
  //   Σ0(x) = rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22)    Σ1(x) = rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25)
  //   σ0(x) = rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3)       σ1(x) = rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10)
  // One round t, over the working variables a…h (all additions wrap):
  //   t1 = h + Σ1(e) + Ch(e, f, g) + roundConstants[t] + w[t];  t2 = Σ0(a) + Maj(a, b, c)
  //   then h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2.

  // The first 32 bits of the fractional parts of the square roots of the first 8 primes, and of
  // the cube roots of the first 64 primes (FIPS 180-4, section 4.2.2 and 5.3.3).
  private static let initialHash: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
  ]

  private static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]
}
