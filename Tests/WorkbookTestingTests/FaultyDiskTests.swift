import Foundation
import Testing
import Workbook
import WorkbookTesting

/// The fake disk fails as the kernel does, since the chapters' tests of a full or unreadable disk
/// are only as true as it is.
@Suite("WorkbookTesting — a disk that fills up or cannot be read", .timeLimit(.minutes(1)))
struct FaultyDiskTests {
  @Test("a write in place puts down what fits, then throws ENOSPC")
  func inPlaceWriteIsCutShort() throws {
    let folder = try TemporaryDirectory("faulty-disk")
    defer { folder.remove() }
    let disk = FaultyDisk()
    disk.freeBytes = 3
    #expect(throws: POSIXError(.ENOSPC)) { try disk.write(Data("hello".utf8), to: folder.file("f"), options: []) }
    #expect(try Data(contentsOf: folder.file("f")) == Data("hel".utf8))
    #expect(disk.freeBytes == 0)
  }

  @Test("an atomic write that does not fit leaves the old file whole")
  func atomicWriteKeepsTheOldFile() throws {
    let folder = try TemporaryDirectory("faulty-disk")
    defer { folder.remove() }
    let disk = FaultyDisk()
    try disk.write(Data("old".utf8), to: folder.file("f"), options: .atomic)
    disk.freeBytes = 2
    #expect(throws: POSIXError(.ENOSPC)) { try disk.write(Data("newer".utf8), to: folder.file("f"), options: .atomic) }
    #expect(try Data(contentsOf: folder.file("f")) == Data("old".utf8))
  }

  @Test("a write through a handle stops where the space ends; exactly the space left fits")
  func handleWriteAtTheLimit() throws {
    let folder = try TemporaryDirectory("faulty-disk")
    defer { folder.remove() }
    let disk = FaultyDisk()
    let url = folder.file("f")
    #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
    let handle = try FileHandle(forWritingTo: url)
    disk.freeBytes = 4
    try disk.write(Data("abcd".utf8), to: handle)  // at the limit: fits
    #expect(throws: POSIXError(.ENOSPC)) { try disk.write(Data("e".utf8), to: handle) }  // one past it
    try handle.close()
    #expect(try Data(contentsOf: url) == Data("abcd".utf8))
  }

  @Test("an unreadable file throws EIO and stays where it is; other files read")
  func unreadableFile() throws {
    let folder = try TemporaryDirectory("faulty-disk")
    defer { folder.remove() }
    let disk = FaultyDisk()
    try disk.write(Data("a".utf8), to: folder.file("bad"), options: [])
    try disk.write(Data("b".utf8), to: folder.file("good"), options: [])
    disk.makeUnreadable(folder.file("bad"))
    #expect(throws: POSIXError(.EIO)) { try disk.contents(of: folder.file("bad")) }
    #expect(disk.itemExists(at: folder.file("bad")))
    #expect(try disk.contents(of: folder.file("good")) == Data("b".utf8))
  }

  @Test("a crash lets exactly the writes before it through, then refuses every write and keeps the old file")
  func crashAfterWrites() throws {
    let folder = try TemporaryDirectory("faulty-disk")
    defer { folder.remove() }
    let disk = FaultyDisk()
    disk.writesBeforeCrash = 2
    try disk.write(Data("1".utf8), to: folder.file("f"), options: .atomic)
    try disk.write(Data("2".utf8), to: folder.file("f"), options: .atomic)  // at the limit: written
    #expect(throws: FaultyDisk.Crashed()) { try disk.write(Data("3".utf8), to: folder.file("f"), options: .atomic) }
    #expect(throws: FaultyDisk.Crashed()) { try disk.write(Data("4".utf8), to: folder.file("g"), options: []) }
    #expect(try Data(contentsOf: folder.file("f")) == Data("2".utf8))
    #expect(!disk.itemExists(at: folder.file("g")))
    #expect(try disk.contents(of: folder.file("f")) == Data("2".utf8))  // reads still work
  }

  @Test("a protected file refuses reads until the first unlock, stays where it is, and reads after it")
  func protectedUntilFirstUnlock() throws {
    let folder = try TemporaryDirectory("faulty-disk")
    defer { folder.remove() }
    let disk = FaultyDisk()
    try disk.write(Data("a".utf8), to: folder.file("locked"), options: [])
    try disk.write(Data("b".utf8), to: folder.file("open"), options: [])
    disk.protectUntilFirstUnlock(folder.file("locked"))
    #expect(throws: ProtectedDataUnavailable(url: folder.file("locked"))) { try disk.contents(of: folder.file("locked")) }
    #expect(disk.itemExists(at: folder.file("locked")))
    #expect(try disk.contents(of: folder.file("open")) == Data("b".utf8))
    disk.firstUnlock()
    #expect(try disk.contents(of: folder.file("locked")) == Data("a".utf8))
  }

  @Test("a read refused with EPERM is data protection's refusal; EACCES and EIO are not")
  func protectedDataRefusalIsEPERMUnderTheCocoaError() {
    func readError(_ code: POSIXError.Code) -> any Error {
      CocoaError(.fileReadNoPermission, userInfo: [NSUnderlyingErrorKey: POSIXError(code) as NSError])
    }
    #expect(ProtectedDataUnavailable.isRefusal(readError(.EPERM)), "open(2) refused with EPERM, wrapped by Foundation as error 257")
    #expect(!ProtectedDataUnavailable.isRefusal(readError(.EACCES)), "EACCES is a permission bit, not data protection")
    #expect(!ProtectedDataUnavailable.isRefusal(POSIXError(.EIO)))
    #expect(!ProtectedDataUnavailable.isRefusal(CocoaError(.fileReadNoPermission)), "no underlying errno: nothing says why")
  }
}
