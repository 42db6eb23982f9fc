import Foundation

/// What the learner pressed, or why nothing was.
enum KeyEvent: Equatable {
  case key(Character)
  /// The wait's time ran out first: time to redraw a countdown.
  case tick
  /// Input is over (end of file), or the learner pressed Ctrl-C or Ctrl-D.
  case end
}

/// Single key presses, without Enter. The terminal gives them to the walkthrough and the review;
/// the tool's tests give a script of them.
protocol KeySource: AnyObject {
  /// The next key, waiting at most `timeout` seconds (nil: as long as it takes).
  func next(timeout: TimeInterval?) -> KeyEvent
}

/// The terminal on standard input, switched to reading one key at a time without echo while the
/// value lives: `ICANON` off (no line editing, so a key arrives without Enter), `ECHO` off (the
/// key is not printed) and `ISIG` off (Ctrl-C arrives as a key, so the session can put the
/// terminal back before it quits; a signal would leave it raw). Output processing is left alone,
/// so `\n` still starts a new line.
final class TerminalKeys: KeySource {
  private let descriptor: Int32
  private var original = termios()

  /// Nil when `descriptor` is not a terminal.
  init?(descriptor: Int32 = STDIN_FILENO) {
    guard isatty(descriptor) != 0, tcgetattr(descriptor, &original) == 0 else { return nil }
    self.descriptor = descriptor
    var raw = original
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
    withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
      bytes[Int(VMIN)] = 1
      bytes[Int(VTIME)] = 0
    }
    guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { return nil }
  }

  deinit {
    restore()
  }

  /// Puts the terminal back as it was.
  func restore() {
    _ = tcsetattr(descriptor, TCSANOW, &original)
  }

  func next(timeout: TimeInterval?) -> KeyEvent {
    while true {
      var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let milliseconds = timeout.map { Int32(max(0, min($0, 3_600) * 1_000).rounded(.up)) } ?? -1
      let ready = poll(&request, 1, milliseconds)
      if ready == 0 { return .tick }
      if ready < 0 {
        if errno == EINTR { continue }
        return .end
      }
      var byte: UInt8 = 0
      let count = read(descriptor, &byte, 1)
      if count < 0, errno == EINTR { continue }
      guard count == 1 else { return .end }
      switch byte {
      case 3, 4: return .end  // Ctrl-C, Ctrl-D
      case 13: return .key("\n")
      default: return .key(Character(Unicode.Scalar(byte)))
      }
    }
  }
}
